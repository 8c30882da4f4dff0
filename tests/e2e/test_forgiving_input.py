"""A learner in a real browser types a right number in another unit than the box asks for: the
practice card and the mock both point it out beside the box, charge nothing, and take the same
number once its unit is written."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from problems.models import PartAnswer
from problems.variants import attempt_variant
from tests.e2e.helpers import attempt_on_screen, fill_parts, right_answers
from trainer.mock.models import Mock
from trainer.practice.models import Review

pytestmark = pytest.mark.e2e


def _read_as_bytes(variant):
    """kv_total (asked in TB) typed as the number of bytes, without the unit."""
    return f"{variant.answer('kv_total') * 1e12:.6g}"


def test_a_right_number_in_another_unit_costs_nothing_in_practice(open_page, loaded_bank, learner):
    from trainer.practice import services

    services.introduce_all(learner, timezone.now())
    browser = open_page(learner)
    page = browser.page
    page.goto("/practice/")
    attempt = attempt_on_screen(page)
    variant = attempt_variant(attempt)
    in_bytes = _read_as_bytes(variant)
    fill_parts(page, dict(right_answers(attempt), kv_total=in_bytes))
    page.locator("#card form[data-answer-form] input[type=text]").last.press("Enter")

    error = page.locator("#error-kv_total")
    expect(error).to_be_visible()
    expect(error).to_contain_text(
        f"'{in_bytes}' is read in TB, the unit of this part, but it looks like it is in B"
    )
    expect(error).to_contain_text("(this cost you no attempt)")
    expect(page.locator("#part-kv_total")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#part-kv_total")).to_have_value(in_bytes)
    browser.screenshot("01-hint")
    assert Review.objects.count() == 0 and PartAnswer.objects.count() == 0

    page.fill("#part-kv_total", f"{in_bytes} B")
    page.locator("#part-kv_total").press("Control+Enter")
    expect(page.locator(".verdict.correct").first).to_be_visible()
    expect(page.locator(".verdict.correct")).to_have_count(len(variant.parts))
    browser.screenshot("02-graded")
    assert PartAnswer.objects.get(part_key="kv_total").status == "correct"


def test_a_right_number_in_another_unit_is_pointed_out_in_a_mock(open_page, loaded_bank, learner):
    browser = open_page(learner)
    page = browser.page
    page.goto("/mock/")
    page.get_by_role("button", name="Start a standard mock").click()
    expect(page).to_have_url(re.compile(r"/mock/\d+/problems/1/$"))
    mock = Mock.objects.get(user=learner)
    variant = attempt_variant(mock.items.get(position=1).attempt)
    in_bytes = _read_as_bytes(variant)

    page.fill("#answer-kv_total", in_bytes)
    page.locator("#answer-kv_total").press("Enter")
    part = page.locator("#part-kv_total")
    expect(part).to_contain_text("it looks like it is in B")
    expect(part).to_contain_text("Nothing was recorded")
    browser.screenshot("01-hint")
    assert not PartAnswer.objects.exists()

    page.fill("#answer-kv_total", f"{in_bytes} B")
    page.locator("#answer-kv_total").press("Enter")
    expect(part.locator(".recorded")).to_contain_text(f"Recorded: {in_bytes} B")
    browser.screenshot("02-recorded")
    assert PartAnswer.objects.get().text == f"{in_bytes} B"
