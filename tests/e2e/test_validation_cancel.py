"""An instructor cancels a long validation from its progress page in a real browser: with
htmx the progress region turns to "Cancelled" in place, and the run's thread stops; without
JavaScript the same button is a plain form. An instructor with validations waiting is told why
another cannot start."""

import re
import time

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from problems import authoring, background
from problems.models import ValidationRun
from problems.variants import _compiled
from tests.author.conftest import example_scenario
from tests.e2e.conftest import CSP_LISTENER, TIMEOUT_MS, VIEWPORT

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The suite runs validations inline (tests/conftest.py); here they run in the server's thread,
# as without Redis in production, so that there is a run to cancel.
IN_A_THREAD = background.start

Status = ValidationRun.Status


@pytest.fixture(autouse=True)
def fresh_compiled_cache():
    yield
    _compiled.clear()


@pytest.fixture
def draft(instructor):
    values = {"number": 26, "page": 2, "title": "Authored", "concepts": "", "tradeoffs": []}
    values.update(model_answer="", self_check=[], expected_minutes=6)
    problem = authoring.create_problem(instructor, values, timezone.now())
    return authoring.create_scenario(instructor, problem, example_scenario(), "", timezone.now())


def test_an_instructor_cancels_a_running_validation(open_page, instructor, draft, monkeypatch):
    monkeypatch.setattr(background, "start", IN_A_THREAD)
    author = open_page(instructor)
    page = author.page
    page.goto(f"/author/versions/{draft.pk}/")
    page.fill("#id_seeds", str(authoring.MAX_VALIDATION_SEEDS))
    page.get_by_role("button", name="Validate").click()
    expect(page).to_have_url(re.compile(r"/author/validations/\d+/$"))
    progress = page.locator("#progress")
    expect(progress).to_contain_text(re.compile(r"[1-9]\d* of 20000 seeds checked"))
    author.screenshot("01-running")
    page.get_by_role("button", name="Cancel the validation").click()
    expect(progress).to_contain_text("Cancelled: stopped by instructor.")
    expect(page.get_by_role("button", name="Cancel the validation")).to_have_count(0)
    author.screenshot("02-cancelled")
    run = ValidationRun.objects.get()
    assert run.status == Status.CANCELLED
    stopped_at = run.done
    time.sleep(2)
    run.refresh_from_db()
    assert run.done == stopped_at < run.seeds
    expect(progress).not_to_have_attribute("hx-trigger", "every 1s")


def test_the_cancel_button_works_without_javascript(browser, live_server, instructor, draft):
    from django.conf import settings
    from django.test import Client

    run = ValidationRun.objects.create(
        version=draft,
        content_hash=draft.content_hash,
        seeds=20_000,
        total=20_000,
        done=3_050,
        status=Status.RUNNING,
        requested_by=instructor,
        created_at=timezone.now(),
        started_at=timezone.now(),
    )
    context = browser.new_context(
        base_url=live_server.url, viewport=VIEWPORT, java_script_enabled=False
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(CSP_LISTENER)
    client = Client()
    client.force_login(instructor)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    cookie = {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}
    context.add_cookies([cookie])
    try:
        page = context.new_page()
        page.goto(f"/author/validations/{run.pk}/")
        expect(page.locator("#progress")).to_contain_text("3050 of 20000 seeds checked")
        page.get_by_role("button", name="Cancel the validation").click()
        expect(page).to_have_url(re.compile(rf"/author/validations/{run.pk}/$"))
        expect(page.locator("#progress")).to_contain_text("Cancelled: stopped by instructor.")
    finally:
        context.close()
    run.refresh_from_db()
    assert run.status == Status.CANCELLED


def test_an_instructor_with_validations_waiting_is_told_why(open_page, instructor, draft):
    for _ in range(authoring.MAX_RUNS_PER_AUTHOR):
        ValidationRun.objects.create(
            version=draft,
            content_hash=draft.content_hash,
            seeds=1000,
            total=1000,
            requested_by=instructor,
            created_at=timezone.now(),
        )
    author = open_page(instructor)
    page = author.page
    page.goto(f"/author/versions/{draft.pk}/")
    page.get_by_role("button", name="Validate").click()
    expect(page.locator(".messages")).to_contain_text(
        f"You have {authoring.MAX_RUNS_PER_AUTHOR} validations queued or running"
    )
    author.screenshot("capped")
    assert ValidationRun.objects.count() == authoring.MAX_RUNS_PER_AUTHOR


def test_a_cancel_that_comes_too_late_says_so(open_page, instructor, draft):
    """The run finished between two refreshes of the page: the button still shows, and the
    answer replaces the progress region with the result and why nothing was cancelled."""
    run = ValidationRun.objects.create(
        version=draft,
        content_hash=draft.content_hash,
        seeds=1000,
        total=1000,
        done=500,
        status=Status.RUNNING,
        requested_by=instructor,
        created_at=timezone.now(),
        started_at=timezone.now(),
    )
    author = open_page(instructor)
    page = author.page
    page.goto(f"/author/validations/{run.pk}/")
    # The page's refreshes find nothing new from here on (204: htmx leaves the region as it is).
    page.route(
        re.compile(rf".*/author/validations/{run.pk}/$"),
        lambda route: (
            route.fulfill(status=204) if route.request.method == "GET" else route.continue_()
        ),
    )
    ValidationRun.objects.filter(pk=run.pk).update(
        status=Status.PASSED, done=1000, finished_at=timezone.now()
    )
    page.get_by_role("button", name="Cancel the validation").click()
    progress = page.locator("#progress")
    expect(progress).to_contain_text(f"Validation #{run.pk} has already finished.")
    expect(progress).to_contain_text("Passed.")
    author.screenshot("too-late")
    run.refresh_from_db()
    assert run.status == Status.PASSED
