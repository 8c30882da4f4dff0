"""A new learner in a real browser: sign up, start the plan, practise three cards (a wrong answer
with its misconception named, a parse error that costs nothing, a right answer) with the
keyboard, and find them on the dashboard."""

import re

import pytest
from playwright.sync_api import expect

from problems.models import PartAnswer
from problems.variants import attempt_variant
from tests.e2e.helpers import attempt_on_screen, fill_parts, right_answers
from tests.mock.helpers import add_problem
from trainer.practice.models import LearnerProfile, Review

pytestmark = pytest.mark.e2e


@pytest.fixture
def three_problems(bank_dir, loaded_bank):
    """Problems 1, 3 and 4 of the plan's first block, each with the engine's example scenario."""
    add_problem(bank_dir, 1, page=1)
    add_problem(bank_dir, 4, page=2)


def _problem_number(page):
    text = page.locator("#card .card-head .muted").inner_text()
    return int(text.split("·")[0].replace("Problem", "").strip())


def _submit_with_enter(page, answers):
    """Type the answers, then Enter in the last box (Enter in another box moves to the next)."""
    fill_parts(page, answers)
    page.locator("#card form[data-answer-form] input[type=text]").last.press("Enter")


def test_it_signs_up_starts_the_plan_and_practises_three_cards(open_page, three_problems):
    browser = open_page(label="learner", timezone_id="Europe/Berlin")
    page = browser.page

    page.goto("/accounts/signup/")
    page.fill("#id_username", "newcomer")
    page.fill("#id_password1", "a long pass phrase 7")
    page.fill("#id_password2", "a long pass phrase 7")
    browser.screenshot("01-signup")
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_role("heading", name="Your practice")).to_be_visible()
    # The browser's zone, reported by static/js/app.js at sign-up, is the learner's.
    assert LearnerProfile.objects.get(user__username="newcomer").timezone == "Europe/Berlin"

    page.get_by_role("link", name="Plan", exact=True).click()
    page.get_by_role("button", name="Start the plan").click()
    expect(page.locator(".messages")).to_contain_text("3 problems added to your practice")
    browser.screenshot("02-plan-started")

    page.get_by_role("link", name="Practice", exact=True).click()
    seen = []

    # Card 1: one part wrong by the classic factor of 2 (only K or only V cached).
    expect(page.locator("#card form[data-answer-form]")).to_be_visible()
    seen.append(_problem_number(page))
    attempt = attempt_on_screen(page)
    first_seed = attempt.seed
    variant = attempt_variant(attempt)
    answers = right_answers(attempt)
    answers["kv_per_token"] = f"{variant.answer('kv_per_token') / 2:.6g} KiB"
    _submit_with_enter(page, answers)
    wrong = page.locator("li.result.incorrect")
    expect(wrong).to_have_count(1)
    stored = PartAnswer.objects.get(attempt=attempt, part_key="kv_per_token")
    assert stored.misconception == "kv-missing-factor-2"
    expect(wrong.locator(".feedback")).to_have_text(stored.message.split(" (Your answer:")[0])
    browser.screenshot("03-misconception")
    page.keyboard.press("1")  # Again

    # Card 2: a time typed where a size is asked: shown in place, nothing recorded.
    expect(page.locator("#card form[action*='/answer/']")).to_be_visible()
    seen.append(_problem_number(page))
    attempt = attempt_on_screen(page)
    answers = right_answers(attempt)
    typed = dict(answers, kv_total="3.2 ms")
    _submit_with_enter(page, typed)
    box = page.locator("#part-kv_total")
    expect(box).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#error-kv_total")).to_contain_text("Nothing was recorded")
    expect(box).to_have_value("3.2 ms")
    attempt.refresh_from_db()
    assert attempt.submitted_at is None
    assert not PartAnswer.objects.filter(attempt=attempt).exists()
    assert not Review.objects.filter(attempt=attempt).exists()
    browser.screenshot("04-parse-error")
    _submit_with_enter(page, {"kv_total": answers["kv_total"]})
    expect(page.locator("li.result.correct")).to_have_count(len(answers))
    page.keyboard.press("3")  # Good

    # Card 3: every part right.
    expect(page.locator("#card form[action*='/answer/']")).to_be_visible()
    seen.append(_problem_number(page))
    attempt = attempt_on_screen(page)
    _submit_with_enter(page, right_answers(attempt))
    expect(page.locator("li.result.correct")).to_have_count(len(right_answers(attempt)))
    page.keyboard.press("s")
    expect(page.locator("#solution")).to_have_attribute("open", "")
    browser.screenshot("05-correct-with-solution")
    page.keyboard.press("4")  # Easy

    # The missed card comes back at once, with new numbers, as a re-drill.
    expect(page.locator("#card .card-head")).to_contain_text("1 to re-drill")
    assert _problem_number(page) == seen[0]
    assert attempt_on_screen(page).seed != first_seed

    assert sorted(seen) == [1, 3, 4]
    reviews = list(Review.objects.filter(user__username="newcomer").order_by("reviewed_at"))
    assert [review.self_rating for review in reviews] == [1, 3, 4]
    assert [round(review.score, 2) for review in reviews] == [0.75, 1.0, 1.0]

    page.get_by_role("link", name="Home").click()
    done_today = page.locator(".stats p", has_text="done today").locator("strong")
    expect(done_today).to_have_text("3")
    rows = page.locator("section", has_text="Every problem").locator("tbody tr")
    expect(rows).to_have_count(3)
    for number in seen:
        row = rows.filter(has_text=f"{number} · Problem {number} for tests")
        if number == 3:
            row = rows.filter(has_text="3 · Size the KV cache")
        expect(row.locator("td").nth(-2)).to_have_text("1")
    browser.screenshot("06-dashboard")
    browser.assert_clean()


def test_it_swaps_a_unit_error_in_without_any_inline_style(open_page, loaded_bank, learner):
    """A browser extension (a password manager, a grammar checker) may give the answer boxes a
    style attribute; htmx used to set it again on the swapped-in boxes, which the Content
    Security Policy refuses, four times on a four-part card. The page watcher fails on any."""
    from django.utils import timezone

    from trainer.practice import services

    services.introduce_all(learner, timezone.now())
    browser = open_page(learner)
    page = browser.page
    page.goto("/practice/")
    # Through the CSS object model, which the policy allows, as an extension would.
    page.evaluate(
        """() => document.querySelectorAll("#card input[type=text]")
            .forEach(box => box.style.setProperty("background-image", "none"))"""
    )
    answers = right_answers(attempt_on_screen(page))
    _submit_with_enter(page, dict(answers, kv_total="3.2 ms"))
    expect(page.locator("#error-kv_total")).to_be_visible()
    expect(page.locator("#part-kv_total")).not_to_have_attribute("style", re.compile(".*"))
    browser.assert_clean()
