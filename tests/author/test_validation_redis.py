"""A validation through Redis and a real Celery worker: the task is sent when the request's
transaction commits, the worker saves its progress every 50 seeds, and the report arrives."""

import time

import pytest
from django.db import transaction
from django.utils import timezone

from problems import authoring, jobs, tasks
from problems.models import ValidationRun
from tests.author.conftest import example_scenario

pytestmark = pytest.mark.redis

SEEDS = 4000  # long enough (a few seconds) to watch the progress move


@pytest.fixture
def through_worker(celery_worker, monkeypatch, settings):
    """Send what the service enqueues to the real worker instead of running it in-process."""
    settings.CELERY_TASK_ALWAYS_EAGER = False  # as with REDIS_URL set: a broker takes the task
    sent = []

    def delay_on_commit(run_id):
        transaction.on_commit(
            lambda: sent.append(celery_worker.send("problems.tasks.validate_version", run_id))
        )

    monkeypatch.setattr(tasks.validate_version, "delay_on_commit", delay_on_commit)
    return celery_worker, sent


def test_it_validates_through_redis_with_progress(through_worker, instructor, client):
    problem = authoring.create_problem(
        instructor,
        {
            "number": 26,
            "page": 2,
            "title": "Through the worker",
            "concepts": "",
            "tradeoffs": [],
            "model_answer": "",
            "self_check": [],
            "expected_minutes": 5,
        },
        timezone.now(),
    )
    version = authoring.create_scenario(instructor, problem, example_scenario(), "", timezone.now())
    run = jobs.validate(instructor, version, SEEDS, timezone.now())
    worker, sent = through_worker
    (result,) = sent

    client.force_login(instructor)
    seen, pages = set(), []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        run.refresh_from_db()
        seen.add((run.status, run.done))
        if run.status == "running" and 0 < run.done < SEEDS and not pages:
            pages.append(client.get(f"/author/validations/{run.pk}/", HTTP_HX_REQUEST="true"))
        if run.finished:
            break
        time.sleep(0.01)

    assert result.get(timeout=60) == "passed"
    run.refresh_from_db()
    assert run.status == "passed" and run.done == run.total == SEEDS
    assert run.report["seeds_checked"] == SEEDS and run.report["ok"] is True
    assert run.started_at is not None and run.finished_at >= run.started_at
    moving = sorted(done for status, done in seen if status == "running" and 0 < done < SEEDS)
    assert moving, f"no progress was seen between 0 and {SEEDS}: {sorted(seen)}"
    assert all(done % 50 == 0 for done in moving)
    assert pages and 'hx-trigger="every 1s"' in pages[0].content.decode()
    final = client.get(f"/author/validations/{run.pk}/", HTTP_HX_REQUEST="true").content.decode()
    assert "hx-trigger" not in final and "Passed." in final
    assert any("problems.tasks.validate_version" in line for line in worker.output)


def test_a_redelivered_validation_leaves_a_finished_run_alone(celery_worker, instructor):
    problem = authoring.create_problem(
        instructor,
        {
            "number": 26,
            "page": 2,
            "title": "Twice",
            "concepts": "",
            "tradeoffs": [],
            "model_answer": "",
            "self_check": [],
            "expected_minutes": 5,
        },
        timezone.now(),
    )
    version = authoring.create_scenario(instructor, problem, example_scenario(), "", timezone.now())
    run = ValidationRun.objects.create(
        version=version,
        content_hash=version.content_hash,
        seeds=1000,
        total=1000,
        requested_by=instructor,
        created_at=timezone.now(),
    )
    assert celery_worker.send("problems.tasks.validate_version", run.pk).get(timeout=60) == "passed"
    run.refresh_from_db()
    finished_at = run.finished_at
    assert celery_worker.send("problems.tasks.validate_version", run.pk).get(timeout=60) == "passed"
    run.refresh_from_db()
    assert run.finished_at == finished_at
