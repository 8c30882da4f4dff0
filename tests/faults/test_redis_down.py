"""Redis stopped while learners practise. Production keeps the cache, the Celery broker and the
results in Redis, and the sessions and the rate limits in the database, so: log-ins, practice
pages and grading go on, nothing anyone did is lost, and a validation an
instructor asks for meanwhile is kept "queued" and done once Redis is back (the sweep beat runs
sends it again)."""

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from problems import authoring, tasks
from problems.models import Attempt, Regrade, ScenarioVersion, ValidationRun
from problems.tasks import STALLED_AFTER
from problems.variants import attempt_variant
from tests.author.conftest import example_scenario
from tests.faults.conftest import Visitor, attempt_id_on
from tests.mock.helpers import add_problem
from trainer.celery import app
from trainer.practice import services
from trainer.practice.models import Review

# A request may wait for the broker's retries (under a second), never for long.
SLOW = 5.0


def _practise_one(visitor):
    """Open the next question, answer it right and rate it: the practice loop."""
    status, body, seconds = visitor.get("/practice/")
    assert status == 200 and seconds < SLOW, (status, seconds)
    attempt_id = attempt_id_on(body)
    variant = attempt_variant(Attempt.objects.get(pk=attempt_id))
    answers = {f"part-{part.key}": variant.key_text(part.key) for part in variant.parts}
    status, body, seconds = visitor.post(f"/practice/attempts/{attempt_id}/answer/", answers)
    assert status == 200 and seconds < SLOW, (status, seconds)
    assert body.count('class="verdict correct"') == len(variant.parts)
    review_id = int(re.search(r"/practice/reviews/(\d+)/rate/", body).group(1))
    status, _, seconds = visitor.post(f"/practice/reviews/{review_id}/rate/", {"rating": "3"})
    assert status == 302 and seconds < SLOW, (status, seconds)
    return review_id


@pytest.fixture
def draft(instructor):
    problem = authoring.create_problem(
        instructor,
        {
            "number": 26,
            "page": 2,
            "title": "Validated while Redis is down",
            "concepts": "",
            "tradeoffs": [],
            "model_answer": "",
            "self_check": [],
            "expected_minutes": 5,
        },
        timezone.now(),
    )
    return authoring.create_scenario(instructor, problem, example_scenario(), "", timezone.now())


@pytest.mark.redis
def test_practice_goes_on_without_redis_and_queued_work_is_done_when_it_returns(
    own_redis, app_server, worker, loaded_bank, bank_dir, learner, other_learner, draft
):
    add_problem(bank_dir, 1, page=1)
    add_problem(bank_dir, 4, page=2)
    add_problem(bank_dir, 6, page=3)
    services.introduce_all(learner, timezone.now())
    learner_visitor = Visitor(app_server).log_in("learner", "correct horse 1")
    reviews = [_practise_one(learner_visitor)]

    own_redis.stop()

    # Log-ins work (the limiter counts nothing and lets people in), and so does a wrong password.
    other = Visitor(app_server)
    status, body, seconds = other.post(
        "/accounts/login/", {"username": "other", "password": "wrong"}
    )
    assert status == 200 and "Please enter a correct username" in body and seconds < SLOW
    other.log_in("other", "correct horse 2")
    assert other.get("/")[0] == 200

    # Practice and grading go on; each answer is recorded.
    reviews += [_practise_one(learner_visitor), _practise_one(learner_visitor)]
    assert sorted(Review.objects.values_list("pk", flat=True)) == sorted(reviews)
    assert Review.objects.filter(self_rating=3).count() == 3

    # An instructor asks for a validation: the request succeeds, the run waits "queued".
    author = Visitor(app_server).log_in("instructor", "correct horse 3")
    status, body, seconds = author.post(f"/author/versions/{draft.pk}/validate/", {"seeds": 1000})
    assert status == 302 and seconds < SLOW, (status, body, seconds)
    run = ValidationRun.objects.get(version=draft)
    assert run.status == "queued"
    status, body, _ = author.get(f"/author/validations/{run.pk}/")
    assert status == 200 and "queued" in body

    own_redis.start()

    # Five minutes later beat's sweep finds the run still queued and sends it again.
    ValidationRun.objects.filter(pk=run.pk).update(created_at=run.created_at - timedelta(minutes=6))
    sweep = worker.send("problems.tasks.requeue_stalled")
    assert sweep.get(timeout=60) == {"validations": [run.pk], "regrades": []}
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        run.refresh_from_db()
        if run.finished:
            break
        time.sleep(0.1)
    assert run.status == "passed", (run.status, "".join(worker.output[-30:]))
    assert run.done == run.total == 1000 and run.report["seeds_checked"] == 1000
    received = [line for line in worker.output if "problems.tasks.validate_version" in line]
    assert sum("received" in line for line in received) == 1, received
    status, body, _ = author.get(f"/author/validations/{run.pk}/")
    assert status == 200 and "Passed." in body
    # Learners carried on throughout.
    assert _practise_one(learner_visitor)


@pytest.mark.django_db
def test_the_sweep_sends_again_only_work_queued_for_longer_than_it_should_be(
    draft, loaded_bank, django_capture_on_commit_callbacks
):
    now = timezone.now()
    old, young = now - STALLED_AFTER - timedelta(seconds=1), now - timedelta(seconds=30)

    def run(status, created_at):
        return ValidationRun.objects.create(
            version=draft,
            content_hash=draft.content_hash,
            seeds=1000,
            total=1000,
            status=status,
            created_at=created_at,
        )

    lost, waiting, running = run("queued", old), run("queued", young), run("running", old)
    published = ScenarioVersion.objects.get(status="published")
    regrade = Regrade.objects.create(corrected=published, key_version=published, created_at=old)
    fresh = Regrade.objects.create(corrected=published, key_version=published, created_at=young)

    # The tests run tasks in-process: what the sweep sends runs at once.
    sent = tasks.requeue(now - STALLED_AFTER)
    assert sent == {"validations": [lost.pk], "regrades": [regrade.pk]}
    statuses = dict(ValidationRun.objects.values_list("pk", "status"))
    assert statuses == {lost.pk: "passed", waiting.pk: "queued", running.pk: "running"}
    assert Regrade.objects.get(pk=regrade.pk).status == "error"  # it ran: a version cannot
    assert Regrade.objects.get(pk=fresh.pk).status == "queued"  # correct itself
    assert tasks.requeue(now - STALLED_AFTER) == {"validations": [], "regrades": []}


def test_beat_runs_the_sweep_more_often_than_work_counts_as_stalled():
    entry = app.conf.beat_schedule["requeue-stalled"]
    assert entry["task"] == "problems.tasks.requeue_stalled"
    assert entry["schedule"] <= STALLED_AFTER.total_seconds()
    assert "problems.tasks.requeue_stalled" in app.tasks
