"""A mock interview in a real browser, run to its deadline: the countdown, an answer recorded
with Enter, the boxes closed at zero, and the report the page goes to once the grace is over."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from problems.variants import attempt_variant
from tests.mock.helpers import move_deadline
from trainer.mock import services
from trainer.mock.models import Mock

pytestmark = pytest.mark.e2e

SECONDS_LEFT = 6


def test_it_runs_a_mock_to_its_deadline_and_shows_the_report(open_page, loaded_bank, learner):
    browser = open_page(learner)
    page = browser.page

    page.goto("/mock/")
    drill = page.locator("form.mock-format", has_text="Page drill")
    drill.locator("select[name=page]").select_option("2")
    drill.get_by_role("button", name="Start the drill").click()
    expect(page).to_have_url(re.compile(r"/mock/\d+/problems/1/$"))
    mock = Mock.objects.get(user=learner)
    expect(page.locator("[data-countdown]")).to_contain_text(re.compile(r"\d+:\d\d left"))
    browser.screenshot("01-started")

    # Time is driven through the data: the deadline moves to a few seconds from now.
    mock = move_deadline(mock, timezone.now() + timedelta(seconds=SECONDS_LEFT))
    page.reload()
    clock = page.locator("[data-countdown]")
    expect(clock).to_have_text(re.compile(rf"· 0:0[0-{SECONDS_LEFT}] left"))
    expect(clock).to_have_class(re.compile(r"\blow\b"))

    item = mock.items.get(position=1)
    variant = attempt_variant(item.attempt)
    first, second = variant.parts[0].key, variant.parts[1].key
    page.fill(f"#answer-{first}", variant.key_text(first))
    page.locator(f"#answer-{first}").press("Enter")
    expect(page.locator(f"#part-{first} .recorded")).to_have_text(
        f"Recorded: {variant.key_text(first)}"
    )
    # The problem's tab counts the part without a reload (an out-of-band swap).
    expect(page.locator("#mock-nav a[aria-current=page] .muted")).to_have_text(
        f"1/{len(variant.parts)}"
    )
    page.fill(f"#answer-{second}", "1 TB")  # typed, never recorded: time runs out first
    browser.screenshot("02-answered")

    expect(clock).to_have_text("· time is up", timeout=(SECONDS_LEFT + 3) * 1000)
    fields = page.locator("form[data-mock-answer] input, form[data-mock-answer] button")
    assert fields.count() >= 2
    for index in range(fields.count()):
        expect(fields.nth(index)).to_be_disabled()
    browser.screenshot("03-time-is-up")

    # After the grace the page goes to the mock, which the server has ended: the report.
    grace = int(services.GRACE.total_seconds())
    expect(page).to_have_url(re.compile(rf"/mock/{mock.pk}/report/$"), timeout=(grace + 6) * 1000)
    expect(page.get_by_role("heading", name="Mock report")).to_be_visible()
    expect(page.locator("main")).to_contain_text("ended at the deadline")
    results = page.locator("#problem-1 li.result")
    expect(results).to_have_count(len(variant.parts))
    expect(results.nth(0)).to_have_class(re.compile(r"\bcorrect\b"))
    for index in range(1, len(variant.parts)):
        expect(results.nth(index)).to_have_class(re.compile(r"\bblank\b"))
    browser.screenshot("04-report")

    mock.refresh_from_db()
    assert mock.ended_at == mock.deadline and not mock.finished_early
    assert list(item.attempt.answers.exclude(text="").values_list("part_key", flat=True)) == [first]
    browser.assert_clean()
