"""Server CPU per request of the practice loop, against a bare view, in one process (issue 18).

Run: .venv/bin/python bench/practice.py [--database sqlite|postgres|both] [--rounds 200]

For each database (SQLite by default as `make run` uses it: WAL, no Redis; PostgreSQL as
production uses it: with Redis as the cache), in a subprocess of its own:

1. a fresh database (SQLite: var/bench-practice.sqlite3; PostgreSQL: a database created and
   dropped for the run, `--pg-database`), migrated, the real bank loaded, one learner with a card
   for every problem and 1,000 past reviews (`--history`), every card due;
2. every published scenario version compiled before timing (a worker start's cost, printed on
   its own line), so the figures are the steady state of a warm worker;
3. `--rounds` rounds, each: GET /practice/; POST the answers as htmx sends them (right answers on
   even rounds, a wrong number on odd rounds, so misconception matching runs too); POST a rating
   as a plain form (302 back to /practice/); GET / (the dashboard); GET /bench/bare/, a view that
   returns "ok" through the same middleware without database or template (bench/load/urls.py);
   all through Django's test client (the whole request/response cycle without the network, plus
   what a server does around each request and the test client leaves out: closing SQLite's
   connection, health-checking PostgreSQL's), with the production settings (DEBUG=0,
   `bench.load.settings`);
4. per request, the CPU time of this process (`time.process_time()`) and, on PostgreSQL, of the
   database backend serving it (its /proc/<pid>/schedstat, nanoseconds); medians, 95th
   percentiles, wall-clock medians, and queries per request (counted in extra rounds after the
   timed ones, since counting costs CPU).

It prints, per request type, the CPU per request and the ratio of the bare view's CPU to the mean
of the three practice requests' (page, answer, rating) in the same run: the share of a practice
request that is the framework's floor. Redis (PostgreSQL run) is not counted: it is shared with
other work on the development machine; it serves the answer rate limit (one INCR) and sessions.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRACTICE = ("GET /practice/", "POST answer", "POST rate")
DASHBOARD = "GET / (dashboard)"
BARE = "GET /bench/bare/"
NAMES = (*PRACTICE, DASHBOARD, BARE)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--history", type=int, default=1000, help="past reviews of the learner")
    parser.add_argument("--sqlite-file", default=str(ROOT / "var" / "bench-practice.sqlite3"))
    parser.add_argument("--pg-database", default="trainer_bench_practice")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--json", default="", help="also write the figures to this file")
    parser.add_argument("--show-queries", action="store_true", help="print each request's SQL")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args()


def main():
    options = parse_arguments()
    if options.child:
        return child(options)
    databases = ("sqlite", "postgres") if options.database == "both" else (options.database,)
    results = []
    for database in databases:
        command = [sys.executable, __file__, "--child", "--database", database]
        command += ["--rounds", str(options.rounds), "--history", str(options.history)]
        command += ["--pg-database", options.pg_database, "--redis-url", options.redis_url]
        command += ["--sqlite-file", options.sqlite_file]
        if options.show_queries:
            command.append("--show-queries")
        out = Path(f"{options.sqlite_file}.{database}.json")
        command += ["--json", str(out)]
        subprocess.run(command, check=True, cwd=ROOT)
        results.append(json.loads(out.read_text()))
    if options.json:
        Path(options.json).write_text(json.dumps(results, indent=1))
    return 0


# The child process: one database.


def configure(options):
    sys.path.insert(0, str(ROOT))
    environment = dict(
        DJANGO_SETTINGS_MODULE="bench.load.settings",
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        SECURE_SSL_REDIRECT="0",
        ALLOWED_HOSTS="testserver",
        STATIC_ROOT=str(ROOT / "var" / "bench-static"),  # empty: WhiteNoise serves nothing
        ANSWER_RATE_LIMIT="100000000",  # one bench client stands for many learners
    )
    (ROOT / "var" / "bench-static").mkdir(parents=True, exist_ok=True)
    if options.database == "sqlite":
        database = Path(options.sqlite_file)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{database}{suffix}").unlink(missing_ok=True)
        environment["DATABASE_URL"] = f"sqlite:///{database}"
        os.environ.pop("REDIS_URL", None)
    else:
        import psycopg

        with psycopg.connect(
            "postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True
        ) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{options.pg_database}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{options.pg_database}"')
        environment["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{options.pg_database}"
        # Long enough that one backend serves the whole run, so its CPU can be read.
        environment["DATABASE_CONN_MAX_AGE"] = "3600"
        environment["REDIS_URL"] = options.redis_url
    os.environ.update(environment)

    import django

    django.setup()
    from django.conf import settings

    # Static files are not collected for the bench: plain storage instead of the manifest.
    settings.STORAGES["staticfiles"] = {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
    }


def drop_postgres(options):
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{options.pg_database}" WITH (FORCE)')


def build(history):
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.utils import timezone

    from problems.loader import load_bank
    from problems.models import Attempt, ScenarioVersion
    from trainer.practice import services
    from trainer.practice.models import Card, Review

    call_command("migrate", verbosity=0)
    load_bank()
    user = User.objects.create_user("bench", password="bench pass phrase")
    now = timezone.now()
    services.introduce_all(user, now)
    cards = list(Card.objects.filter(user=user).select_related("problem"))
    versions = {
        v.scenario.problem_id: v
        for v in ScenarioVersion.objects.filter(status="published").select_related("scenario")
    }
    attempts = Attempt.objects.bulk_create(
        [
            Attempt(
                user=user,
                version=versions[cards[n % len(cards)].problem_id],
                seed=n,
                started_at=now - timedelta(days=n + 1, minutes=5),
                submitted_at=now - timedelta(days=n + 1),
                score=1.0,
            )
            for n in range(history)
        ]
    )
    Review.objects.bulk_create(
        [
            Review(
                card=cards[n % len(cards)],
                user=user,
                attempt=attempt,
                kind=Review.Kind.DUE,
                reviewed_at=attempt.submitted_at,
                score=1.0,
                automatic_quality=5,
                quality=5,
                state_before=cards[n % len(cards)].state,
                scheduler="sm2",
            )
            for n, attempt in enumerate(attempts)
        ]
    )
    profile = services.get_profile(user)
    profile.daily_review_cap = 500
    profile.save()
    # Every card due, so each round has a question to answer.
    Card.objects.filter(user=user).update(
        due_at=now - timedelta(days=1), last_reviewed_at=now - timedelta(days=1)
    )
    return user


def compile_published():
    """Compile every published version, as a warm worker has; returns how many and the time."""
    from problems.models import ScenarioVersion
    from problems.variants import compiled_scenario

    start = time.perf_counter()
    versions = list(ScenarioVersion.objects.published().select_related("scenario__problem"))
    for version in versions:
        compiled_scenario(version)
    return len(versions), (time.perf_counter() - start) * 1000


class BackendClock:
    """CPU time of the PostgreSQL backend serving this process's connection [ns]; zero on
    SQLite, whose work happens in this process and is already in `process_time`."""

    def __init__(self, vendor):
        from django.db import connection

        self.path = None
        if vendor == "postgresql":
            connection.ensure_connection()
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.pid = cursor.fetchone()[0]
            self.path = f"/proc/{self.pid}/schedstat"

    def read(self):
        if self.path is None:
            return 0
        with open(self.path) as stat:
            return int(stat.read().split()[0])

    def check_same_backend(self):
        from django.db import connection

        if self.path is None:
            return
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            assert cursor.fetchone()[0] == self.pid, "the connection changed backend mid-run"


class Recorder:
    """Times one request: CPU of this process and of the database backend, and wall-clock."""

    def __init__(self, clock):
        self.clock = clock
        self.samples = {name: [] for name in NAMES}

    def __call__(self, name, request, *args, **kwargs):
        from django.db import close_old_connections

        wall, cpu, backend = time.perf_counter(), time.process_time(), self.clock.read()
        # What a server's request_started and request_finished do and the test client skips:
        # SQLite's connection is opened and closed per request, PostgreSQL's is health-checked.
        close_old_connections()
        response = request(*args, **kwargs)
        close_old_connections()
        backend = (self.clock.read() - backend) / 1e6
        cpu = (time.process_time() - cpu) * 1000
        wall = (time.perf_counter() - wall) * 1000
        assert response.status_code in (200, 302), (name, response.status_code)
        self.samples[name].append((cpu, backend, wall))
        return response


class Warming(Recorder):
    """The same, under another name, so that profiles (bench/stacks.py) leave warm-up out."""

    def __call__(self, *args, **kwargs):
        return super().__call__(*args, **kwargs)


ANSWER_ACTION = re.compile(r'action="/practice/attempts/(\d+)/answer/"')


def one_round(client, record, number):
    """Page, answer, rating, dashboard and bare view; returns the card reviewed."""
    from problems.models import Attempt
    from problems.variants import attempt_variant
    from trainer.practice.models import Review

    response = record(PRACTICE[0], client.get, "/practice/")
    attempt_id = int(ANSWER_ACTION.search(response.content.decode()).group(1))
    variant = attempt_variant(Attempt.objects.select_related("version").get(pk=attempt_id))
    if number % 2 == 0:
        answers = {f"part-{part.key}": variant.key_text(part.key) for part in variant.parts}
    else:  # a plausible wrong number: grading also runs misconception matching
        answers = {f"part-{part.key}": f"{123.4 + number} {part.unit}" for part in variant.parts}
    url = f"/practice/attempts/{attempt_id}/answer/"
    response = record(PRACTICE[1], client.post, url, answers, headers={"HX-Request": "true"})
    assert b'action="/practice/reviews/' in response.content, response.content[:500]
    review = Review.objects.get(attempt_id=attempt_id)
    # Easy only after a right answer (even rounds): it is refused after a wrong one.
    rating = "4123"[number % 4]
    record(PRACTICE[2], client.post, f"/practice/reviews/{review.pk}/rate/", {"rating": rating})
    record(DASHBOARD, client.get, "/")
    record(BARE, client.get, "/bench/bare/")
    return review.card_id


def keep_due(card_id):
    from django.utils import timezone

    from trainer.practice.models import Card

    Card.objects.filter(pk=card_id).update(
        due_at=timezone.now() - timedelta(days=1), redrill_until=None
    )


def count_queries(client, show=False):
    """Queries per request type, in two extra rounds (counting is not free, so not timed);
    `show` prints each statement of the first round."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = {name: [] for name in NAMES}

    def record(name, request, *args, **kwargs):
        with CaptureQueriesContext(connection) as queries:
            response = request(*args, **kwargs)
        if show and not counts[name]:
            print(f"-- {name}")
            for query in queries.captured_queries:
                print(f"   {query['sql'][:300]}")
        counts[name].append(len(queries))
        return response

    for number in range(2):
        keep_due(one_round(client, record, number))
    return {name: max(values) for name, values in counts.items()}


def child(options):
    configure(options)
    from django.db import connection
    from django.test import Client

    started = time.perf_counter()
    user = build(options.history)
    built = time.perf_counter() - started
    versions, compile_ms = compile_published()
    client = Client()
    client.force_login(user)
    clock = BackendClock(connection.vendor)
    warm = Warming(clock)
    for number in range(5):  # warm: templates loaded, connections open, caches filled
        keep_due(one_round(client, warm, number))
    record = Recorder(clock)
    for number in range(options.rounds):
        keep_due(one_round(client, record, number))
    clock.check_same_backend()
    queries = count_queries(client, options.show_queries)
    figures = summarise(record.samples)
    header = (
        f"{'SQLite' if connection.vendor == 'sqlite' else 'PostgreSQL + Redis'}, "
        f"{options.history} reviews of history, {options.rounds} rounds, "
        f"Python {sys.version.split()[0]}, Django {__import__('django').get_version()}"
    )
    print(header)
    print(
        f"database built in {built:.1f} s; {versions} published versions compiled in "
        f"{compile_ms:.0f} ms before timing"
    )
    report(figures, queries, postgres=connection.vendor == "postgresql")
    if options.database == "postgres":
        drop_postgres(options)
    if options.json:
        Path(options.json).write_text(
            json.dumps(
                {
                    "database": options.database,
                    "header": header,
                    "figures": figures,
                    "queries": queries,
                    "compile_ms": compile_ms,
                    "versions": versions,
                },
                indent=1,
            )
        )
    return 0


def percentile(values, fraction):
    values = sorted(values)
    return values[max(0, int(round(fraction * len(values))) - 1)]


def summarise(samples):
    figures = {}
    for name, rows in samples.items():
        totals = [cpu + backend for cpu, backend, _ in rows]
        figures[name] = {
            "cpu": statistics.median(totals),
            "cpu_p95": percentile(totals, 0.95),
            "process": statistics.median(cpu for cpu, _, _ in rows),
            "backend": statistics.median(backend for _, backend, _ in rows),
            "wall": statistics.median(wall for _, _, wall in rows),
            "n": len(rows),
        }
    practice = statistics.fmean(figures[name]["cpu"] for name in PRACTICE)
    figures["practice mean"] = {"cpu": practice}
    figures["bare / practice"] = {"ratio": figures[BARE]["cpu"] / practice}
    return figures


def report(figures, queries, postgres):
    split = "   Python + PostgreSQL" if postgres else ""
    print(f"{'':<20}  CPU median       p95{split}   wall median  queries")
    for name in NAMES:
        row = figures[name]
        split = f"   {row['process']:6.2f} + {row['backend']:5.2f} ms" if postgres else ""
        print(
            f"{name:<20} {row['cpu']:8.2f} ms {row['cpu_p95']:6.2f} ms{split}"
            f"   {row['wall']:8.2f} ms  {queries[name]:>7}"
        )
    practice = figures["practice mean"]["cpu"]
    ratio = figures["bare / practice"]["ratio"]
    print(f"{'practice mean':<20} {practice:7.2f} ms   (mean of the medians of page, answer, rate)")
    print(f"bare view / practice mean: {ratio:.1%}")


if __name__ == "__main__":
    sys.exit(main())
