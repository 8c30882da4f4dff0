"""A Celery worker killed (SIGKILL) in the middle of a task: the task runs again and its effects
are not duplicated. The authoring tasks are acknowledged late, rejected (so requeued) when their
worker process is lost, and idempotent.

- A pool process killed under a prefork worker: the worker requeues the task at once and a new
  pool process runs it again; a regrade continues after the batches it had committed, and every
  attempt's change is recorded once.
- A whole worker killed: its unacknowledged message stays in Redis; once the visibility timeout
  has passed, the next worker to start takes it back and runs it again; the validation starts
  over and ends with one report.
"""

import os
import signal
import time

import pytest
from django.utils import timezone

from problems import attempts as problem_attempts
from problems import authoring, jobs, regrade
from problems.models import Attempt, AuthoringLog, PartAnswer, Regrade, ValidationRun
from problems.variants import attempt_variant
from tests.author.conftest import example_scenario

pytestmark = pytest.mark.redis

TRUE_TOTAL = "kv_per_token * context * users"
WRONG_TOTAL = "kv_per_token * context"  # the key that forgot the users
ATTEMPTS = 3 * regrade.BATCH
VALIDATION_SEEDS = 6000
VISIBILITY_TIMEOUT = 3  # for the worker that takes the lost message back


def _wait(condition, timeout, what, worker):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"{what} within {timeout} s:\n" + "".join(worker.output[-40:]))


def _problem(instructor):
    return authoring.create_problem(
        instructor,
        {
            "number": 26,
            "page": 2,
            "title": "Regraded under fire",
            "concepts": "",
            "tradeoffs": [],
            "model_answer": "",
            "self_check": [],
            "expected_minutes": 5,
        },
        timezone.now(),
    )


def _publish(instructor, version):
    """Publish with a passing validation on record (these tests are not about validating)."""
    ValidationRun.objects.create(
        version=version,
        content_hash=version.content_hash,
        seeds=authoring.MIN_PUBLISH_SEEDS,
        total=authoring.MIN_PUBLISH_SEEDS,
        done=authoring.MIN_PUBLISH_SEEDS,
        status="passed",
        created_at=timezone.now(),
        finished_at=timezone.now(),
    )
    jobs.publish(instructor, version, timezone.now())
    version.refresh_from_db()
    return version


def _answered_attempts(users, version, count):
    """`count` submitted attempts whose kv_total is the true total, graded by `version`'s wrong
    key (so incorrect), as submitting them would have stored them."""
    now = timezone.now()
    attempts = Attempt.objects.bulk_create(
        [
            Attempt(user=users[seed % len(users)], version=version, seed=seed, started_at=now)
            for seed in range(1, count + 1)
        ]
    )
    for attempt in attempts:
        env = attempt_variant(attempt).env
        answers = {
            "kv_per_token": attempt_variant(attempt).key_text("kv_per_token"),
            "kv_total": f"{env['kv_per_token'] * env['context'] * env['users'] / 1e12:.6g} TB",
        }
        graded = problem_attempts.grade(attempt, answers)
        assert not graded.parse_errors
        problem_attempts.save_grades(attempt, graded, submitted_at=now)
    return attempts


def test_a_regrade_whose_pool_process_is_killed_runs_again_and_records_each_change_once(
    workers, instructor, learner, other_learner
):
    problem = _problem(instructor)
    wrong = example_scenario()
    wrong["parts"][1]["answer"] = WRONG_TOTAL
    v1 = _publish(
        instructor, authoring.create_scenario(instructor, problem, wrong, "", timezone.now())
    )
    draft = authoring.start_draft(instructor, v1.scenario, timezone.now())
    fixed = {**draft.definition, "parts": [dict(part) for part in draft.definition["parts"]]}
    fixed["parts"][1]["answer"] = TRUE_TOTAL
    v2 = _publish(instructor, authoring.save_draft(instructor, draft, fixed, "", timezone.now()))
    attempts = _answered_attempts([learner, other_learner], v1, ATTEMPTS)
    assert set(PartAnswer.objects.filter(part_key="kv_total").values_list("status", flat=True)) == {
        "incorrect"
    }
    item = Regrade.objects.create(
        corrected=v1, key_version=v2, requested_by=instructor, created_at=timezone.now()
    )

    worker = workers(pool="prefork")
    (child,) = worker.children()
    result = worker.send("problems.tasks.regrade_attempts", item.pk)

    def part_way():
        item.refresh_from_db()
        return item.status == "running" and 0 < item.attempts_changed < ATTEMPTS

    _wait(part_way, 60, "the regrade did not commit a first batch", worker)
    worker_lost = time.monotonic()
    os.kill(child, signal.SIGKILL)
    committed = item.attempts_changed

    assert result.get(timeout=120) == {"status": "done", "changed": ATTEMPTS}
    assert worker.children() != [child]  # a new pool process ran it again
    assert time.monotonic() - worker_lost < 60
    assert any("WorkerLostError" in line for line in worker.output)
    item.refresh_from_db()
    assert item.status == "done" and committed < ATTEMPTS
    assert item.attempts_changed == item.attempts_checked == ATTEMPTS
    changed = [change["attempt"] for change in item.changes]
    assert sorted(changed) == sorted(attempt.pk for attempt in attempts)  # each once
    assert item.parts_changed == ATTEMPTS
    assert AuthoringLog.objects.filter(action="regrade").count() == 1
    assert set(PartAnswer.objects.filter(part_key="kv_total").values_list("status", flat=True)) == {
        "correct"
    }
    assert PartAnswer.objects.count() == ATTEMPTS * len(fixed["parts"])
    scores = set(Attempt.objects.values_list("score", flat=True))
    assert scores == {0.5}  # two of four parts right, where the wrong key had one
    assert Attempt.objects.filter(key_version=v2, regrade_notice__contains="corrected").count() == (
        ATTEMPTS
    )


def test_a_validation_whose_worker_is_killed_is_taken_back_and_run_again(workers, instructor):
    problem = _problem(instructor)
    version = authoring.create_scenario(instructor, problem, example_scenario(), "", timezone.now())
    run = ValidationRun.objects.create(
        version=version,
        content_hash=version.content_hash,
        seeds=VALIDATION_SEEDS,
        total=VALIDATION_SEEDS,
        requested_by=instructor,
        created_at=timezone.now(),
    )
    short = {
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "CELERY_TASK_TIME_LIMIT": str(VISIBILITY_TIMEOUT - 1),
    }
    first = workers(pool="solo", env=short)
    first.send("problems.tasks.validate_version", run.pk)

    def part_way():
        run.refresh_from_db()
        return run.status == "running" and 0 < run.done < VALIDATION_SEEDS

    _wait(part_way, 60, "the validation did not start", first)
    first_start = run.started_at
    first.kill()
    run.refresh_from_db()
    assert run.status == "running" and run.done < VALIDATION_SEEDS

    time.sleep(VISIBILITY_TIMEOUT)  # the message is unacknowledged for longer than the timeout
    second = workers(pool="solo", env=short)

    def finished():
        run.refresh_from_db()
        return run.finished

    _wait(finished, 120, "the validation was not run again", second)
    assert run.status == "passed"
    assert run.started_at > first_start  # started over, from seed 0
    assert run.done == run.total == VALIDATION_SEEDS
    assert run.report["seeds_checked"] == VALIDATION_SEEDS and run.report["ok"] is True
    assert ValidationRun.objects.count() == 1
    received = [line for line in second.output if "validate_version" in line and "eceived" in line]
    assert len(received) == 1, received
