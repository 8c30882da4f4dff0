"""A practice page, an answer, a rating and the dashboard cost the same with 1,000 and with
10,000 learners (PostgreSQL).

Run: .venv/bin/python bench/scale.py [--sizes 1000 10000] [--sample 40] [--keep]

1. A database of its own (`--pg-database`, default trainer_scale), migrated, the real bank loaded.
2. Filled by COPY, in one pass per size, up to the first size and then on to the next: each
   learner has a profile, a card for every problem and `--reviews` reviews a card, each review
   with its attempt and the attempt's part answers (one per part of its version). Every card is
   due. The fill's time and the database's size are printed after each size.
3. At each size, after ANALYZE: `--sample` learners spread over the ids each do one round through
   Django's test client with the production settings (DEBUG=0; the cache in the process): GET
   /practice/, POST the right answers as htmx does, POST Good, GET / (the dashboard). A few
   learners first warm the process. Per request: the CPU of this process and of the database
   backend serving it (/proc/<pid>/schedstat), medians, also as a multiple of a bare view's
   (GET /bench/bare/, timed in every round: the two sizes are measured half an hour apart on a
   shared machine); the statements run; and every statement of one round EXPLAINed, with any
   sequential scan named (a scan of the reviews, attempts or their parts would grow with the
   database).
4. The database is dropped at the end (`--keep` keeps it).
"""

import argparse
import json
import os
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUESTS = ("GET /practice/", "POST answer", "POST rate", "GET / (dashboard)")
# A view that answers "ok" through the same middleware (bench/load/urls.py), timed in every round:
# what the machine's load does to a request, so two sizes measured minutes apart compare.
BARE = "GET /bench/bare/"
# The tables that grow with the learners' history: no request may scan them whole.
GROWING = ("practice_review", "problems_attempt", "problems_partanswer", "practice_card")


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--reviews", type=int, default=20, help="reviews of each card")
    parser.add_argument("--sample", type=int, default=40, help="learners measured at each size")
    parser.add_argument("--pg-database", default="trainer_scale")
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    parser.add_argument("--json", default="", help="also write the figures to this file")
    return parser.parse_args()


def admin():
    import psycopg

    return psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True)


def configure(options):
    sys.path.insert(0, str(ROOT))
    with admin() as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{options.pg_database}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{options.pg_database}"')
    os.environ.update(
        DJANGO_SETTINGS_MODULE="bench.load.settings",
        DEBUG="0",
        SECRET_KEY="bench-" + "x" * 50,
        SECURE_SSL_REDIRECT="0",
        ALLOWED_HOSTS="testserver",
        STATIC_ROOT=str(ROOT / "var" / "bench-static"),
        ANSWER_RATE_LIMIT="100000000",
        DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{options.pg_database}",
        DATABASE_CONN_MAX_AGE="3600",
    )
    os.environ.pop("REDIS_URL", None)
    (ROOT / "var" / "bench-static").mkdir(parents=True, exist_ok=True)
    import django

    django.setup()
    from django.conf import settings

    settings.STORAGES["staticfiles"] = {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
    }


# Filling.


def _text(value):
    """A value as COPY's text format writes it."""
    if value is None:
        return "\\N"
    if value is True:
        return "t"
    if value is False:
        return "f"
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, dict | list):
        value = json.dumps(value)
    return str(value).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")


def copy(cursor, model, varying, rows, **constants):
    """COPY rows of one model in its column order: `rows` yields the values of the `varying`
    fields (attribute names, in that order); every other field is one of `constants`. Returns
    how many rows."""
    names = [field.attname for field in model._meta.concrete_fields]
    assert set(names) == {*varying, *constants}, set(names) ^ {*varying, *constants}
    template = "\t".join(
        f"{{{varying.index(name)}}}"
        if name in varying
        else _text(constants[name]).replace("{", "{{").replace("}", "}}")
        for name in names
    )
    columns = ", ".join(f'"{field.column}"' for field in model._meta.concrete_fields)
    count, buffer = 0, []
    with cursor.copy(f'COPY "{model._meta.db_table}" ({columns}) FROM STDIN') as stream:
        for values in rows:
            buffer.append(template.format(*map(_text, values)))
            count += 1
            if len(buffer) >= 50000:
                stream.write(("\n".join(buffer) + "\n").encode())
                buffer = []
        if buffer:
            stream.write(("\n".join(buffer) + "\n").encode())
    return count


def _next_id(cursor, model):
    table = model._meta.db_table  # a model's own table name, not input
    cursor.execute(f'SELECT COALESCE(MAX(id), 0) + 1 FROM "{table}"')  # noqa: S608
    return cursor.fetchone()[0]


def fill(first, last, reviews_per_card, now):
    """Learners `first` to `last` - 1 (by their number), with their cards, reviews, attempts and
    parts; returns the rows written per table."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.models import User
    from django.db import connection

    from problems.models import Attempt, PartAnswer, ScenarioVersion
    from trainer.practice.models import Card, LearnerProfile, Review
    from trainer.practice.services import plan_order
    from trainer.srs import ReviewRecord, make_scheduler

    drawn = {}
    for version in ScenarioVersion.objects.published().select_related("scenario__problem"):
        keys = [part["key"] for part in version.definition["parts"]]
        drawn.setdefault(version.scenario.problem, []).append((version.pk, keys))
    problems = sorted(drawn, key=lambda problem: problem.number)
    rank = {number: index for index, number in enumerate(plan_order())}
    scheduler = make_scheduler("sm2", learner_tz=UTC)
    history = [
        ReviewRecord(4, now - timedelta(days=3 * (reviews_per_card - k)))
        for k in range(reviews_per_card)
    ]
    started = [record.reviewed_at - timedelta(minutes=5) for record in history]
    states = [scheduler.new_state().to_dict()]
    for k in range(reviews_per_card):
        states.append(scheduler.replay(history[: k + 1]).state.to_dict())
    password = make_password("scale bench pass phrase")
    learners = range(last - first)
    with connection.cursor() as cursor:
        # The rows are generated consistent: no foreign-key trigger per row while they load.
        cursor.execute("SET session_replication_role = replica")
        ids = {
            model: _next_id(cursor, model)
            for model in (User, LearnerProfile, Card, Attempt, Review, PartAnswer)
        }

        def user(i):
            return ids[User] + i

        def card(i, j):
            return ids[Card] + i * len(problems) + j

        def attempt(i, j, k):
            return ids[Attempt] + (i * len(problems) + j) * reviews_per_card + k

        def slots():
            for i in learners:
                for j, problem in enumerate(problems):
                    for k, record in enumerate(history):
                        version, keys = drawn[problem][k % len(drawn[problem])]
                        yield i, j, k, record, version, keys

        rows = {}
        rows["learners"] = copy(
            cursor,
            User,
            ("id", "username"),
            ((user(i), f"scale{first + i}") for i in learners),
            password=password,
            last_login=None,
            is_superuser=False,
            first_name="",
            last_name="",
            email="",
            is_staff=False,
            is_active=True,
            date_joined=now - timedelta(days=90),
        )
        copy(
            cursor,
            LearnerProfile,
            ("id", "user_id"),
            ((ids[LearnerProfile] + i, user(i)) for i in learners),
            scheduler="sm2",
            timezone="UTC",
            daily_new_limit=5,
            daily_review_cap=500,
            queue_order="overdue",
            interview_date=None,
            mock_until=None,
            data_version=0,
        )
        rows["cards"] = copy(
            cursor,
            Card,
            ("id", "user_id", "problem_id", "rank", "due_at"),
            (
                (
                    card(i, j),
                    user(i),
                    problem.pk,
                    rank.get(problem.number, 1000 + problem.number),
                    now - timedelta(hours=1 + (i + j) % 48),
                )
                for i in learners
                for j, problem in enumerate(problems)
            ),
            state=states[-1],
            redrill_until=None,
            introduced_at=history[0].reviewed_at,
            last_reviewed_at=history[-1].reviewed_at,
            reviews_count=reviews_per_card,
            lapses=0,
            open_attempt_id=None,
            suspended=False,
            buried_until=None,
            last_version_id=None,
        )
        rows["attempts"] = copy(
            cursor,
            Attempt,
            ("id", "user_id", "version_id", "seed", "started_at", "submitted_at"),
            (
                (
                    attempt(i, j, k),
                    user(i),
                    version,
                    attempt(i, j, k),
                    started[k],
                    record.reviewed_at,
                )
                for i, j, k, record, version, _ in slots()
            ),
            key_version_id=None,
            purpose="practice",
            score=1.0,
            regrade_notice="",
            regrade_unseen=False,
        )
        state_texts = [json.dumps(state) for state in states]
        rows["reviews"] = copy(
            cursor,
            Review,
            ("id", "card_id", "user_id", "attempt_id", "kind", "reviewed_at", "state_before"),
            (
                (
                    attempt(i, j, k) - ids[Attempt] + ids[Review],
                    card(i, j),
                    user(i),
                    attempt(i, j, k),
                    "new" if k == 0 else "due",
                    record.reviewed_at,
                    state_texts[k],
                )
                for i, j, k, record, _, _ in slots()
            ),
            score=1.0,
            incomplete=False,
            elapsed_seconds=240.0,
            automatic_quality=4,
            self_rating=None,
            quality=4,
            scheduler="sm2",
        )
        parts = ((attempt(i, j, k), key) for i, j, k, _, _, keys in slots() for key in keys)
        rows["parts"] = copy(
            cursor,
            PartAnswer,
            ("id", "attempt_id", "part_key"),
            ((ids[PartAnswer] + n, *values) for n, values in enumerate(parts)),
            text="1 GB",
            value=1.0,
            status="correct",
            score=1.0,
            misconception="",
            message="Correct: 1 GB.",
            carried_forward=False,
        )
        for model in ids:
            table = model._meta.db_table
            largest = f'(SELECT MAX(id) FROM "{table}")'  # noqa: S608 (a model's table)
            cursor.execute(f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), {largest})")
        cursor.execute("SET session_replication_role = DEFAULT")
        cursor.execute("ANALYZE")
    return rows


def database_size():
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_database_size(current_database())")
        return cursor.fetchone()[0]


# Measuring.


def sequential_scans(statements):
    """{table: statements} of the growing tables that a statement's plan scans whole."""
    from django.db import connection

    found = {}
    with connection.cursor() as cursor:
        for sql in statements:
            if sql.split(None, 1)[0].upper() not in ("SELECT", "INSERT", "UPDATE", "DELETE"):
                continue
            cursor.execute("EXPLAIN " + sql)
            plan = "\n".join(row[0] for row in cursor.fetchall())
            for table in GROWING:
                if f"Seq Scan on {table}" in plan:
                    found.setdefault(table, []).append(sql[:160])
    return found


def one_round(client, user, record):
    import re

    from problems.models import Attempt
    from problems.variants import attempt_variant
    from trainer.practice.models import Review

    client.force_login(user)
    html = record(REQUESTS[0], client.get, "/practice/").content.decode()
    attempt_id = int(re.search(r'action="/practice/attempts/(\d+)/answer/"', html).group(1))
    variant = attempt_variant(Attempt.objects.select_related("version").get(pk=attempt_id))
    answers = {f"part-{part.key}": variant.key_text(part.key) for part in variant.parts}
    url = f"/practice/attempts/{attempt_id}/answer/"
    record(REQUESTS[1], client.post, url, answers, headers={"HX-Request": "true"})
    review = Review.objects.get(attempt_id=attempt_id)
    record(REQUESTS[2], client.post, f"/practice/reviews/{review.pk}/rate/", {"rating": "3"})
    record(REQUESTS[3], client.get, "/")
    record(BARE, client.get, "/bench/bare/")


def measure(learners, sample):
    """Median CPU per request over `sample` learners spread over `learners`, the statements of
    each request, and the sequential scans of one round's statements."""
    sys.path.insert(0, str(ROOT / "bench"))
    from django.contrib.auth.models import User
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from bench.practice import BackendClock, compile_published

    compile_published()
    clock = BackendClock(connection.vendor)
    step = max(1, learners // (sample + 5))
    chosen = list(User.objects.filter(username__startswith="scale").order_by("id")[::step])
    warm, timed = chosen[:5], chosen[5 : 5 + sample]
    samples = {name: [] for name in (*REQUESTS, BARE)}

    def timing(name, request, *args, **kwargs):
        cpu, backend = time.process_time(), clock.read()
        response = request(*args, **kwargs)
        backend = (clock.read() - backend) / 1e6
        samples[name].append((time.process_time() - cpu) * 1000 + backend)
        assert response.status_code in (200, 302), (name, response.status_code)
        return response

    def untimed(name, request, *args, **kwargs):
        response = request(*args, **kwargs)
        assert response.status_code in (200, 302), (name, response.status_code)
        return response

    client = Client()
    for user in warm:
        one_round(client, user, untimed)
    for user in timed:
        one_round(client, user, timing)
    clock.check_same_backend()
    statements, counts = {}, {}

    def counting(name, request, *args, **kwargs):
        with CaptureQueriesContext(connection) as queries:
            response = request(*args, **kwargs)
        statements[name] = [query["sql"] for query in queries.captured_queries]
        counts[name] = len(queries)
        return response

    one_round(client, chosen[-1], counting)
    scans = sequential_scans(sql for name in REQUESTS for sql in statements[name])
    cpu = {name: statistics.median(values) for name, values in samples.items()}
    return {
        "cpu": cpu,
        "relative": {name: cpu[name] / cpu[BARE] for name in REQUESTS},
        "statements": counts,
        "sequential scans": scans,
        "learners measured": len(timed),
    }


def main():
    options = parse_arguments()
    configure(options)
    from django.core.management import call_command
    from django.utils import timezone

    from problems.loader import load_bank

    call_command("migrate", verbosity=0)
    load_bank()
    now = timezone.now()
    results, filled = [], 0
    for size in sorted(options.sizes):
        started = time.perf_counter()
        rows = fill(filled, size, options.reviews, now)
        seconds = time.perf_counter() - started
        filled = size
        figures = measure(size, options.sample)
        figures.update(size=size, fill_seconds=seconds, rows=rows, bytes=database_size())
        results.append(figures)
        print(
            f"{size:,} learners: filled {rows['learners']:,} more in {seconds:.0f} s "
            f"({rows['reviews']:,} reviews, {rows['attempts']:,} attempts, "
            f"{rows['parts']:,} parts); database {figures['bytes'] / 1e9:.2f} GB",
            flush=True,
        )
        for name in REQUESTS:
            print(
                f"  {name:<20} {figures['cpu'][name]:6.2f} ms  "
                f"{figures['relative'][name]:5.2f} x the bare view  "
                f"{figures['statements'][name]:>2} statements"
            )
        print(f"  {BARE:<20} {figures['cpu'][BARE]:6.2f} ms")
        print(f"  sequential scans of growing tables: {figures['sequential scans'] or 'none'}")
    if len(results) > 1:
        small, large = results[0], results[-1]
        print(
            f"ratio {large['size']:,} / {small['size']:,} learners: CPU median, and CPU median "
            "as a multiple of the bare view's in the same run"
        )
        for name in REQUESTS:
            print(
                f"  {name:<20} {large['cpu'][name] / small['cpu'][name]:.2f}   "
                f"{large['relative'][name] / small['relative'][name]:.2f}"
            )
    if options.json:
        Path(options.json).write_text(json.dumps(results, indent=1, default=str))
    if not options.keep:
        from django.db import connections

        connections.close_all()
        with admin() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{options.pg_database}" WITH (FORCE)')
    return 0


if __name__ == "__main__":
    sys.exit(main())
