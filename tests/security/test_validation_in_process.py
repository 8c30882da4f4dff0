"""Validation without Redis, through gunicorn: the request that asks for a 20,000-seed run
answers at once (it used to run inside the request, past gunicorn's timeout, and end in a 500
with the run "running" for ever), the progress moves, and the run ends."""

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from problems import authoring
from problems.models import ValidationRun
from tests.author.conftest import example_scenario
from tests.faults.conftest import Visitor
from tests.security.server import MultiWorkerServer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def draft(instructor):
    values = {"number": 26, "page": 2, "title": "Authored", "concepts": "", "tradeoffs": []}
    values.update(model_answer="", self_check=[], expected_minutes=6)
    problem = authoring.create_problem(instructor, values, timezone.now())
    return authoring.create_scenario(instructor, problem, example_scenario(), "", timezone.now())


@pytest.fixture
def server(transactional_db, tmp_path):
    server = MultiWorkerServer(tmp_path / "gunicorn.log", timeout=30)
    yield server
    server.stop()


def test_a_long_validation_runs_off_the_request_and_ends(server, draft):
    visitor = Visitor(server).log_in("instructor", "correct horse 3")
    status, _, seconds = visitor.post(
        f"/author/versions/{draft.pk}/validate/", {"seeds": authoring.MAX_VALIDATION_SEEDS}
    )
    assert status == 302 and seconds < 5, (status, seconds)
    run = ValidationRun.objects.get()
    progress, deadline = set(), time.monotonic() + 240
    while time.monotonic() < deadline:
        status, page, _ = visitor.get(f"/author/validations/{run.pk}/")
        assert status == 200
        progress.add(int(re.search(r"(\d+) of \d+ seeds checked", page).group(1)))
        run.refresh_from_db()
        if run.finished:
            break
        time.sleep(0.5)
    assert run.status == ValidationRun.Status.PASSED, (run.status, run.report)
    assert len(progress - {0, run.seeds}) >= 1  # the bar moved in between
    assert "Internal Server Error" not in server.output()


def test_a_run_whose_process_stopped_ends_cancelled(client, draft, instructor, settings):
    """As after a restart mid-run: still "running" past the time limit, it is marked cancelled
    by the next page that shows it, and a new validation may start."""
    long_ago = timezone.now() - timedelta(hours=1)
    run = ValidationRun.objects.create(
        version=draft,
        content_hash=draft.content_hash,
        seeds=20_000,
        total=20_000,
        done=3_050,
        status=ValidationRun.Status.RUNNING,
        created_at=long_ago,
        started_at=long_ago,
    )
    client.force_login(instructor)
    page = client.get(f"/author/validations/{run.pk}/").content.decode()
    run.refresh_from_db()
    assert run.status == ValidationRun.Status.CANCELLED
    assert "stopped before it finished" in page and "every 1s" not in page


def test_no_more_than_two_runs_wait_in_one_server(client, draft, instructor):
    for _ in range(2):
        ValidationRun.objects.create(
            version=draft, content_hash=draft.content_hash, seeds=1000, created_at=timezone.now()
        )
    client.force_login(instructor)
    response = client.post(f"/author/versions/{draft.pk}/validate/", {"seeds": 1000}, follow=True)
    assert "2 validations are queued or running" in response.content.decode()
    assert ValidationRun.objects.count() == 2


def test_a_cancelled_validation_stops_promptly_and_frees_the_thread(server, draft):
    """Cancel a 20,000-seed run from its page: it stops within a few seconds (its next progress
    report), and the worker's one validation thread takes the next run at once."""
    visitor = Visitor(server).log_in("instructor", "correct horse 3")
    visitor.post(
        f"/author/versions/{draft.pk}/validate/", {"seeds": authoring.MAX_VALIDATION_SEEDS}
    )
    run = ValidationRun.objects.get()
    deadline = time.monotonic() + 60
    while run.done == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
        run.refresh_from_db()
    assert run.status == ValidationRun.Status.RUNNING and run.done > 0, (run.status, run.done)
    status, _, _ = visitor.post(f"/author/validations/{run.pk}/cancel/")
    assert status == 302
    cancelled = time.monotonic()
    run.refresh_from_db()
    assert run.status == ValidationRun.Status.CANCELLED
    stopped_at = run.done
    time.sleep(3)
    run.refresh_from_db()
    assert run.done == stopped_at < run.seeds  # no progress after the cancellation was seen
    # The next validation runs in the same thread of whichever worker took the request: it
    # ends long before the cancelled one would have.
    visitor.post(f"/author/versions/{draft.pk}/validate/", {"seeds": authoring.MIN_PUBLISH_SEEDS})
    following = ValidationRun.objects.exclude(pk=run.pk).get()
    while not following.finished and time.monotonic() < cancelled + 120:
        time.sleep(0.5)
        following.refresh_from_db()
    assert following.status == ValidationRun.Status.PASSED, (following.status, following.report)
    print(
        f"cancelled at {stopped_at} of {run.seeds} seeds; the next run ended "
        f"{time.monotonic() - cancelled:.1f} s after the cancellation"
    )
    assert "Internal Server Error" not in server.output()
