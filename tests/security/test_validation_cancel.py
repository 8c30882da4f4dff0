"""A validation can be cancelled from its progress page, by the instructor who asked for it, and
stops at its next progress report; an instructor has at most MAX_RUNS_PER_AUTHOR runs queued or
running, so no one can queue work that would hold the server's validation thread (or the Celery
workers) for hours. The browser's view: tests/e2e/test_validation_cancel.py; a real thread under
gunicorn: test_validation_in_process.py."""

from datetime import timedelta

import pytest
from django.utils import timezone

from problems import authoring
from problems.models import ValidationRun
from tests.author.conftest import example_scenario
from tests.mock.helpers import HX
from trainer.accounts.roles import make_instructor

pytestmark = pytest.mark.django_db

Status = ValidationRun.Status


@pytest.fixture
def draft(instructor):
    values = {"number": 26, "page": 2, "title": "Authored", "concepts": "", "tradeoffs": []}
    values.update(model_answer="", self_check=[], expected_minutes=6)
    problem = authoring.create_problem(instructor, values, timezone.now())
    return authoring.create_scenario(instructor, problem, example_scenario(), "", timezone.now())


@pytest.fixture
def colleague(django_user_model):
    user = django_user_model.objects.create_user("colleague", password="correct horse 4")
    make_instructor(user)
    return user


def _run(draft, instructor, status=Status.RUNNING, seeds=20_000):
    return ValidationRun.objects.create(
        version=draft,
        content_hash=draft.content_hash,
        seeds=seeds,
        total=seeds,
        done=150,
        status=status,
        requested_by=instructor,
        created_at=timezone.now(),
        started_at=timezone.now(),
    )


def test_a_running_validation_stops_at_its_next_progress_report(draft, instructor, monkeypatch):
    run = authoring.request_validation(instructor, draft, 20_000, timezone.now())
    reached = []

    def check(scenario, seeds, progress):
        progress(50, seeds)
        authoring.cancel_validation(instructor, run, timezone.now())
        progress(100, seeds)
        reached.append(100)
        return {"ok": True, "errors": [], "warnings": []}

    monkeypatch.setattr(authoring, "check_scenario", check)
    authoring.run_validation(run.pk)
    assert reached == []
    run.refresh_from_db()
    assert (run.status, run.done) == (Status.CANCELLED, 50)
    assert run.report["message"] == "stopped by instructor."


def test_a_queued_validation_cancelled_never_runs(draft, instructor, monkeypatch):
    run = authoring.request_validation(instructor, draft, 1000, timezone.now())
    authoring.cancel_validation(instructor, run, timezone.now())
    monkeypatch.setattr(authoring, "check_scenario", lambda *args, **kwargs: 1 / 0)
    authoring.run_validation(run.pk)
    run.refresh_from_db()
    assert run.status == Status.CANCELLED


def test_a_cancellation_after_the_last_progress_report_is_kept(draft, instructor, monkeypatch):
    run = authoring.request_validation(instructor, draft, 1000, timezone.now())

    def check(scenario, seeds, progress):
        progress(seeds, seeds)
        authoring.cancel_validation(instructor, run, timezone.now())
        return {"ok": True, "errors": [], "warnings": []}

    monkeypatch.setattr(authoring, "check_scenario", check)
    authoring.run_validation(run.pk)
    run.refresh_from_db()
    assert run.status == Status.CANCELLED  # not "passed": nobody may publish from it


def test_the_instructor_cancels_from_the_progress_page(client, draft, instructor):
    run = _run(draft, instructor)
    client.force_login(instructor)
    page = client.get(f"/author/validations/{run.pk}/").content.decode()
    assert f'action="/author/validations/{run.pk}/cancel/"' in page
    assert f'hx-post="/author/validations/{run.pk}/cancel/"' in page
    response = client.post(f"/author/validations/{run.pk}/cancel/")
    assert response.status_code == 302
    assert response["Location"] == f"/author/validations/{run.pk}/"
    run.refresh_from_db()
    assert run.status == Status.CANCELLED and run.finished_at is not None
    page = client.get(response["Location"]).content.decode()
    assert "Cancelled" in page and "every 1s" not in page and "/cancel/" not in page


def test_the_cancel_button_swaps_the_progress_in_place(client, draft, instructor):
    run = _run(draft, instructor)
    client.force_login(instructor)
    response = client.post(f"/author/validations/{run.pk}/cancel/", headers=HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="progress"')
    assert "Cancelled" in html and "every 1s" not in html


def test_only_who_asked_for_the_validation_cancels_it(client, draft, instructor, colleague):
    run = _run(draft, instructor)
    client.force_login(colleague)
    assert "/cancel/" not in client.get(f"/author/validations/{run.pk}/").content.decode()
    response = client.post(f"/author/validations/{run.pk}/cancel/", follow=True)
    assert "Only instructor, who asked for this validation, can cancel it" in (
        response.content.decode()
    )
    run.refresh_from_db()
    assert run.status == Status.RUNNING


def test_a_learner_cannot_cancel(client, draft, instructor, learner):
    run = _run(draft, instructor)
    client.force_login(learner)
    assert client.post(f"/author/validations/{run.pk}/cancel/").status_code == 403
    run.refresh_from_db()
    assert run.status == Status.RUNNING


def test_a_finished_validation_is_left_as_it_is(client, draft, instructor):
    run = _run(draft, instructor, status=Status.PASSED)
    client.force_login(instructor)
    response = client.post(f"/author/validations/{run.pk}/cancel/", follow=True)
    assert "already finished" in response.content.decode()
    run.refresh_from_db()
    assert run.status == Status.PASSED


def test_a_missing_validation_is_404(client, instructor):
    client.force_login(instructor)
    assert client.post("/author/validations/999/cancel/").status_code == 404


def test_it_caps_the_validations_each_instructor_has_waiting(
    client, draft, instructor, colleague, settings
):
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a broker: no cap of the server's own thread
    for _ in range(authoring.MAX_RUNS_PER_AUTHOR):
        _run(draft, instructor, status=Status.QUEUED)
    client.force_login(instructor)
    response = client.post(f"/author/versions/{draft.pk}/validate/", {"seeds": 1000}, follow=True)
    html = response.content.decode()
    assert f"You have {authoring.MAX_RUNS_PER_AUTHOR} validations queued or running" in html
    assert "cancel one" in html
    assert ValidationRun.objects.count() == authoring.MAX_RUNS_PER_AUTHOR
    # Another instructor's budget is their own.
    problem = draft.scenario.problem
    theirs = authoring.create_scenario(
        colleague, problem, {**example_scenario(), "key": "theirs"}, "", timezone.now()
    )
    assert authoring.request_validation(colleague, theirs, 1000, timezone.now())
    # A cancelled or finished run no longer counts.
    ValidationRun.objects.filter(requested_by=instructor).update(
        status=Status.CANCELLED, finished_at=timezone.now() - timedelta(seconds=1)
    )
    response = client.post(f"/author/versions/{draft.pk}/validate/", {"seeds": 1000})
    assert response.status_code == 302 and "/author/validations/" in response["Location"]


def test_a_cancel_too_late_says_so_in_place(client, draft, instructor):
    run = _run(draft, instructor, status=Status.FAILED)
    client.force_login(instructor)
    response = client.post(f"/author/validations/{run.pk}/cancel/", headers=HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="progress"')
    assert f"Validation #{run.pk} has already finished." in html
    run.refresh_from_db()
    assert run.status == Status.FAILED
