"""Time the authoring area's background work through a real Celery worker on Redis.

Run: .venv/bin/python bench/authoring.py   (needs Redis at 127.0.0.1:6379; uses database 14)

Builds a throwaway SQLite database in a temporary directory, loads the real bank
(problems/bank/), starts `celery worker --pool=solo` on it, then measures:

- validation: a `ValidationRun` of 1,000 seeds requested as the web does (enqueued on commit),
  until the worker has written the finished report, for the engine's Problem 3 example and for
  the slowest current scenario of the bank; against `check_scenario` run in-process;
- statistics: `compute_statistics` over synthetic graded attempts spread over every current
  version, and the statistics page reading the summary rows (time and query count);
- regrade: publishing a correction of one version with many attempts, until the worker has
  regraded them all.
"""

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
WORK = Path(tempfile.mkdtemp(prefix="bench-authoring-"))
os.environ.update(
    DEBUG="1",
    DATABASE_URL=f"sqlite:///{WORK / 'bench.sqlite3'}",
    REDIS_URL=REDIS_URL,
    DATA_DIR=str(WORK),
    ALLOWED_HOSTS="testserver,127.0.0.1",
    DJANGO_SETTINGS_MODULE="trainer.settings",
)

import django  # noqa: E402

django.setup()

import redis  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from problems import authoring, jobs, stats  # noqa: E402
from problems.engine import check_scenario, content_hash, load_yaml  # noqa: E402
from problems.loader import load_bank  # noqa: E402
from problems.models import (  # noqa: E402
    Attempt,
    PartAnswer,
    Problem,
    Regrade,
    ScenarioVersion,
    ValidationRun,
)
from problems.variants import compiled_scenario, variant_of  # noqa: E402
from trainer.accounts.roles import make_instructor  # noqa: E402

EXAMPLE = ROOT / "tests" / "engine" / "problem3.yaml"
REPEATS = 5
LEARNERS = 40
ATTEMPTS = 20_000
REGRADE_ATTEMPTS = 2_000


def start_worker():
    command = [sys.executable, "-m", "celery", "-A", "trainer", "worker", "--pool=solo"]
    command += ["--loglevel=WARNING", "--without-gossip", "--without-mingle"]
    process = subprocess.Popen(
        [*command, "--hostname=bench@%h"],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    ready = threading.Event()
    lines = []

    def read():
        for line in process.stdout:
            lines.append(line)
            if " ready." in line:
                ready.set()

    threading.Thread(target=read, daemon=True).start()
    # --loglevel=WARNING hides "ready."; poll the broker with a ping instead.
    from trainer.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if app.control.ping(timeout=0.5):
            return process
    process.terminate()
    raise RuntimeError("worker did not start:\n" + "".join(lines))


def wait_for(predicate, timeout=600, interval=0.005):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(interval)
    raise TimeoutError


def validate_through_worker(actor, version):
    """Seconds from the request to the finished run, and how many progress values were seen."""
    started = time.perf_counter()
    run = jobs.validate(actor, version, 1000, timezone.now())
    seen = set()

    def finished():
        row = ValidationRun.objects.filter(pk=run.pk).values_list("status", "done").get()
        seen.add(row[1])
        return row[0] in ValidationRun.FINISHED

    wait_for(finished)
    elapsed = time.perf_counter() - started
    run.refresh_from_db()
    assert run.status == "passed", run.report
    return elapsed, len(seen - {0, 1000})


def in_process(version):
    scenario = compiled_scenario(version)
    times = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        check_scenario(scenario, 1000)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def synthetic_attempts(versions, users, count, now, wrong_factor=3):
    """Graded attempts: right answers on even seeds, every part off by `wrong_factor` on odd
    seeds."""
    attempts, answers = [], []
    for index in range(count):
        version = versions[index % len(versions)]
        variant = variant_of(version, index)
        typed = {
            part.key: (
                variant.key_text(part.key)
                if index % 2 == 0
                else f"{part.answer * wrong_factor:.4g}"
            )
            for part in variant.parts
        }
        results = variant.grade_all(typed)
        attempt = Attempt(
            user=users[index % len(users)],
            version=version,
            seed=index,
            started_at=now - timezone.timedelta(seconds=30 + index % 600),
            submitted_at=now,
            score=sum(r.score for r in results.values()) / len(results),
        )
        attempts.append(attempt)
        answers.append((attempt, typed, results))
    Attempt.objects.bulk_create(attempts, batch_size=1000)
    PartAnswer.objects.bulk_create(
        [
            PartAnswer(
                attempt=attempt,
                part_key=key,
                text=typed[key],
                status=result.status,
                score=result.score,
                misconception=result.misconception or "",
                message=result.message,
            )
            for attempt, typed, results in answers
            for key, result in results.items()
        ],
        batch_size=2000,
    )


def main():
    redis.Redis.from_url(REDIS_URL).flushdb()
    call_command("migrate", verbosity=0)
    load_bank()
    bank_problems = Problem.objects.count()
    user_model = get_user_model()
    instructor = user_model.objects.create_user("bench-instructor", password="bench password 1")
    make_instructor(instructor)
    learners = [
        user_model.objects.create_user(f"learner-{n}", password="bench password 2")
        for n in range(LEARNERS)
    ]
    now = timezone.now()

    # Validation through the worker.
    fields = {"concepts": "", "tradeoffs": [], "model_answer": "", "self_check": []}
    example = authoring.create_problem(
        instructor,
        {"number": 26, "page": 2, "title": "Bench", "expected_minutes": 5, **fields},
        now,
    )
    example_version = authoring.create_scenario(
        instructor, example, load_yaml(EXAMPLE.read_text())["scenarios"][0], "", now
    )
    current = list(ScenarioVersion.objects.filter(status="published").select_related("scenario"))
    slowest = max(current, key=lambda v: _time(lambda: check_scenario(compiled_scenario(v), 100)))
    worker = start_worker()
    try:
        python = sys.version.split()[0]
        print(f"bank: {bank_problems} problems, {len(current)} current scenarios")
        print(f"Python {python}, SQLite, Redis, celery worker --pool=solo")
        for label, version in (
            ("problem 3 example (dense-gqa)", example_version),
            (f"slowest bank scenario ({version_name(slowest)})", slowest),
        ):
            through = [validate_through_worker(instructor, version) for _ in range(REPEATS)]
            local = in_process(version)
            median = statistics.median(t for t, _ in through)
            shown = statistics.median(n for _, n in through)
            print(f"validate 1,000 seeds, {label}")
            line(f"  through the worker, request to finished report, median of {REPEATS}", median)
            line(f"  check_scenario in-process, median of {REPEATS}", local)
            print(f"  progress values seen by a 5 ms poll: {shown:.0f}")

        # Statistics.
        synthetic_attempts(current, learners, ATTEMPTS, now)
        started = time.perf_counter()
        rows = stats.compute_statistics(timezone.now())
        elapsed = time.perf_counter() - started
        scope = f"{ATTEMPTS:,} attempts, {LEARNERS} learners, {len(current)} scenarios"
        line(f"compute_statistics over {scope}", elapsed)
        print(f"  summary rows written: {rows:,}")
        client = Client()
        client.force_login(instructor)
        busiest = Problem.objects.order_by("number").first()
        times = []
        for _ in range(20):
            with CaptureQueriesContext(connection) as queries:
                started = time.perf_counter()
                response = client.get(f"/author/problems/{busiest.number}/stats/")
                times.append(time.perf_counter() - started)
            assert response.status_code == 200
        line(f"statistics page of problem {busiest.number}, median of 20", statistics.median(times))
        print(f"  queries per statistics page: {len(queries.captured_queries)}")

        # Regrade through the worker.
        target = example_version
        run = jobs.validate(instructor, target, 1000, timezone.now())
        wait_for(lambda: ValidationRun.objects.get(pk=run.pk).finished)
        jobs.publish(instructor, target, timezone.now())
        # Off by 3%: wrong under the 1% tolerance of kv_total, right under the corrected 5%.
        synthetic_attempts([target], learners, REGRADE_ATTEMPTS, now, wrong_factor=1.03)
        draft = authoring.start_draft(instructor, target.scenario, timezone.now())
        definition = dict(draft.definition)
        definition["parts"] = [dict(part) for part in definition["parts"]]
        definition["parts"][1]["tolerance"] = {"relative": 0.05}
        draft = authoring.save_draft(instructor, draft, definition, "wider", timezone.now())
        assert content_hash(definition) == draft.content_hash
        run = jobs.validate(instructor, draft, 1000, timezone.now())
        wait_for(lambda: ValidationRun.objects.get(pk=run.pk).finished)
        started = time.perf_counter()
        result = jobs.publish(instructor, draft, timezone.now(), [target.pk])
        regrade_id = result.regrades[0].pk
        wait_for(lambda: Regrade.objects.get(pk=regrade_id).status == "done")
        elapsed = time.perf_counter() - started
        done = Regrade.objects.get(pk=regrade_id)
        line(
            f"regrade {done.attempts_checked:,} attempts through the worker, publish to done",
            elapsed,
        )
        print(f"  attempts whose grade changed: {done.attempts_changed}")
    finally:
        worker.terminate()
        worker.wait(30)


def line(label, seconds):
    print(f"{label:<72} {seconds * 1000:9.1f} ms")


def version_name(version):
    return f"{version.scenario.problem.number}/{version.scenario.key}"


def _time(function):
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


if __name__ == "__main__":
    main()
