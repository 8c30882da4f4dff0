"""The daily review loop in a real browser, as an Anki user drives it: rating buttons with their
intervals and a default that Space or Enter accepts, Ctrl+Z, a graded card that survives a
reload, Enter that moves between boxes, interleaved re-drills, another variant, suspend and bury,
a problem's history, and reporting a variant to the instructors. Every htmx path here has its
error path too; screenshots at 1280 and 390 px go to test-artifacts/screenshots/."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from problems.models import Attempt, VariantReport
from problems.variants import attempt_variant
from tests.e2e.conftest import CSP_LISTENER, TIMEOUT_MS, Watched
from tests.e2e.helpers import attempt_on_screen, fill_parts, right_answers
from tests.mock.helpers import add_problem
from trainer.practice import services
from trainer.practice.models import Card, Review

pytestmark = pytest.mark.e2e

WIDE = {"width": 1280, "height": 900}
NARROW = {"width": 390, "height": 844}
QUESTION = "#card form[data-answer-form]"
RATING = "#card form.rating"


@pytest.fixture
def two_problems(bank_dir, loaded_bank, learner):
    """Problems 1 and 3 in the learner's reviews, both new."""
    add_problem(bank_dir, 1, page=1)
    services.introduce_all(learner, timezone.now())
    return learner


@pytest.fixture
def one_problem(loaded_bank, learner):
    services.introduce_all(learner, timezone.now())
    return learner


def _both_widths(browser, step):
    """Screenshots of the page as it is, at 1280 and at 390 px."""
    page = browser.page
    for name, size in (("1280", WIDE), ("390", NARROW)):
        page.set_viewport_size(size)
        browser.screenshot(f"{step}-{name}")
    page.set_viewport_size(WIDE)


def _answer(page, answers):
    fill_parts(page, answers)
    page.locator(f"{QUESTION} input[type=text]").last.press("Enter")
    expect(page.locator(RATING)).to_be_visible()


def _wrong(attempt):
    """Every part wrong: 3, 5, 7… times its key, so no later part comes out right by carrying an
    earlier error forward."""
    variant = attempt_variant(attempt)
    return {
        part.key: f"{variant.answer(part.key) * (3 + 2 * index):.6g}"
        for index, part in enumerate(variant.parts)
    }


def _button(page, label):
    return page.locator(f"{RATING} button[name=rating]", has_text=label)


def _problem_number(page):
    text = page.locator("#card .card-head .muted").inner_text()
    return int(text.split("·")[0].replace("Problem", "").strip())


def test_it_rates_with_the_default_and_undoes_with_ctrl_z(open_page, two_problems):
    browser = open_page(two_problems)
    page = browser.page
    page.set_viewport_size(WIDE)
    page.goto("/practice/")
    expect(page.locator(QUESTION)).to_be_visible()
    _both_widths(browser, "01-question")
    first = attempt_on_screen(page)
    _answer(page, right_answers(first))

    # Every button says when the problem comes back; Good, the automatic grade, is marked.
    good = _button(page, "Good")
    expect(good).to_have_attribute("data-default", "")
    expect(good.locator(".interval")).to_have_text("1 d")
    expect(_button(page, "Again").locator(".interval")).to_have_text("today, then 1 d")
    _both_widths(browser, "02-rating")

    page.keyboard.press("Space")  # accepts the default
    expect(page.locator(QUESTION)).to_be_visible()
    review = Review.objects.get(attempt=first)
    assert (review.self_rating, review.quality) == (3, 5)
    expect(page.locator("[data-key=undo]")).to_be_visible()
    _both_widths(browser, "03-next-card-with-undo")

    # Ctrl+Z with the cursor in the next card's empty box: the rating is taken back.
    expect(page.locator(f"{QUESTION} input[type=text]").first).to_be_focused()
    page.keyboard.press("Control+z")
    expect(page.locator(RATING)).to_be_visible()
    expect(page.locator("#card")).to_contain_text(first.version.scenario.problem.title)
    review.refresh_from_db()
    assert review.self_rating is None and review.quality == 5

    page.keyboard.press("2")  # Hard, this time
    expect(page.locator(QUESTION)).to_be_visible()
    review.refresh_from_db()
    assert (review.self_rating, review.quality) == (2, 3)

    # The Undo button does the same, and Enter accepts the default.
    page.locator("[data-key=undo]").click()
    expect(page.locator(RATING)).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator(QUESTION)).to_be_visible()
    review.refresh_from_db()
    assert (review.self_rating, review.quality) == (3, 5)


def test_it_keeps_a_graded_card_on_reload_and_tells_a_stale_tab(open_page, one_problem):
    browser = open_page(one_problem)
    page = browser.page
    page.goto("/practice/")
    attempt = attempt_on_screen(page)
    _answer(page, _wrong(attempt))
    expect(_button(page, "Again")).to_have_attribute("data-default", "")
    expect(_button(page, "Easy")).to_be_disabled()

    page.reload()
    expect(page.locator(RATING)).to_be_visible()
    expect(page.locator("li.result.incorrect").first).to_be_visible()

    # A second tab on the same graded card moves on; the first tab's rating is then refused.
    other = open_page(one_problem, label="other-tab").page
    other.goto("/practice/")
    other.get_by_role("button", name="Next card without rating").click()
    expect(other.locator(QUESTION)).to_be_visible()
    page.keyboard.press("1")
    expect(page.locator("#card .notice.error")).to_contain_text("You moved on from this answer")
    review = Review.objects.get(attempt=attempt)
    assert review.self_rating is None


def test_enter_moves_between_boxes_and_blank_parts_are_asked_about_once(open_page, one_problem):
    browser = open_page(one_problem)
    page = browser.page
    page.goto("/practice/")
    attempt = attempt_on_screen(page)
    keys = list(right_answers(attempt))
    boxes = page.locator(f"{QUESTION} input[type=text]")
    boxes.nth(0).fill(right_answers(attempt)[keys[0]])
    boxes.nth(0).press("Enter")
    expect(boxes.nth(1)).to_be_focused()
    attempt.refresh_from_db()
    assert attempt.submitted_at is None

    boxes.nth(1).press("Control+Enter")  # checks now, but parts are blank: asked first
    warning = page.locator(f"{QUESTION} [data-blank-warning]")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text(f"{len(keys) - 1} of {len(keys)} boxes are empty")
    expect(boxes.nth(1)).to_be_focused()
    browser.screenshot("blank-warning")
    attempt.refresh_from_db()
    assert attempt.submitted_at is None

    boxes.nth(1).press("Control+Enter")  # asked once: this time it is checked as it is
    expect(page.locator(RATING)).to_be_visible()
    expect(page.locator("li.result.blank")).to_have_count(len(keys) - 1)


def test_it_works_without_javascript(browser, live_server, one_problem):
    from django.conf import settings
    from django.test import Client

    context = browser.new_context(
        base_url=live_server.url, viewport=WIDE, java_script_enabled=False
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(CSP_LISTENER)
    client = Client()
    client.force_login(one_problem)
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            }
        ]
    )
    watched = Watched(context.new_page(), "no-javascript")
    page = watched.page
    try:
        page.goto("/practice/")
        attempt = attempt_on_screen(page)
        fill_parts(page, right_answers(attempt))
        page.get_by_role("button", name="Check my answers").click()
        expect(page.locator("li.result.correct")).to_have_count(len(right_answers(attempt)))
        _button(page, "Good").click()
        expect(page.locator("#card")).to_contain_text("Nothing due right now")
        assert Review.objects.get(attempt=attempt).self_rating == 3
        page.get_by_role("button", name=re.compile("Undo your rating")).click()
        expect(page.locator(RATING)).to_be_visible()
        watched.assert_clean()
    finally:
        context.close()


def test_a_failed_card_comes_back_after_the_others_never_three_times_in_a_row(
    open_page, two_problems
):
    browser = open_page(two_problems)
    page = browser.page
    page.goto("/practice/")
    failed = _problem_number(page)
    _answer(page, _wrong(attempt_on_screen(page)))
    page.keyboard.press("1")  # Again
    expect(page.locator(QUESTION)).to_be_visible()
    other = _problem_number(page)
    assert other != failed
    _answer(page, right_answers(attempt_on_screen(page)))
    page.keyboard.press("Space")

    # The re-drill, with new numbers; failed again, it may come back once more at once...
    expect(page.locator("#card .card-head")).to_contain_text("1 to re-drill")
    assert _problem_number(page) == failed
    _answer(page, _wrong(attempt_on_screen(page)))
    page.keyboard.press("1")
    expect(page.locator(QUESTION)).to_be_visible()
    assert _problem_number(page) == failed
    _answer(page, _wrong(attempt_on_screen(page)))
    page.keyboard.press("1")
    # ...but not a third time in a row: it waits ten minutes.
    expect(page.locator("#card")).to_contain_text("Nothing due right now")
    expect(page.locator("#card")).to_contain_text(re.compile(r"due\s(9|10)\sminutes"))


def test_another_variant_and_the_problems_history(open_page, one_problem):
    browser = open_page(one_problem)
    page = browser.page
    page.goto("/practice/")
    scheduled = attempt_on_screen(page)
    _answer(page, _wrong(scheduled))
    card_before = Card.objects.values("state", "due_at").get()

    page.get_by_role("button", name="Another variant of problem 3").click()
    expect(page).to_have_url(re.compile(r"/practice/attempts/\d+/$"))
    free = attempt_on_screen(page)
    assert free.purpose == Attempt.Purpose.FREE
    fill_parts(page, right_answers(free))
    page.locator(f"{QUESTION} input[type=text]").last.press("Enter")
    expect(page.locator("li.result.correct")).to_have_count(len(right_answers(free)))
    expect(page.locator(RATING)).to_have_count(0)
    assert Card.objects.values("state", "due_at").get() == card_before
    assert not Review.objects.filter(attempt=free).exists()

    page.get_by_role("link", name="Your answers to problem 3").first.click()
    entries = page.locator(".history-entry")
    expect(entries).to_have_count(2)
    expect(entries.first).to_contain_text("another variant (not scheduled)")
    expect(entries.nth(1).locator(".verdict.incorrect").first).to_be_visible()
    _both_widths(browser, "history")
    entries.nth(1).get_by_role("link", name="Answer 1").click()
    expect(page).to_have_url(re.compile(rf"/practice/attempts/{scheduled.pk}/$"))

    # The graded scheduled card still waits on /practice/ for its rating.
    page.goto("/practice/")
    expect(page.locator(RATING)).to_be_visible()


def test_suspend_and_bury_and_bring_back(open_page, one_problem):
    browser = open_page(one_problem)
    page = browser.page
    page.goto("/practice/")
    expect(page.locator(QUESTION)).to_be_visible()
    page.get_by_role("button", name="Suspend this problem").click()
    expect(page.locator(".messages")).to_contain_text("Problem 3 is suspended")
    expect(page.locator("#card")).to_contain_text("Nothing due right now")

    page.get_by_role("link", name="Practice settings").click()
    held = page.locator("#held")
    expect(held).to_contain_text("suspended")
    held.get_by_role("button", name="Unsuspend").click()
    expect(page.locator(".messages")).to_contain_text("back in your reviews")

    page.goto("/practice/")
    page.get_by_role("button", name="Bury until tomorrow").click()
    expect(page.locator("#card")).to_contain_text("Nothing due right now")
    page.goto("/practice/problems/3/")
    expect(page.locator(".problem-card")).to_contain_text("Buried")
    page.get_by_role("button", name="Unbury").click()
    page.goto("/practice/")
    expect(page.locator(QUESTION)).to_be_visible()


def test_a_learner_reports_a_variant_and_an_instructor_previews_it(
    open_page, one_problem, instructor
):
    browser = open_page(one_problem, label="learner")
    page = browser.page
    page.goto("/practice/")
    attempt = attempt_on_screen(page)
    _answer(page, _wrong(attempt))

    report = page.locator("#report")
    report.get_by_text("Report a problem with this question").click()
    report.locator("textarea").fill("   ")  # only spaces: the browser sends it, the server refuses
    report.get_by_role("button", name="Send the report").click()
    expect(page.locator("#report-error")).to_contain_text("Say in a few words what looks wrong")
    assert not VariantReport.objects.exists()
    report = page.locator("#report")
    report.locator("textarea").fill("Part 2's key looks three times too big.")
    report.get_by_role("button", name="Send the report").click()
    expect(page.locator("#report")).to_contain_text("You reported a problem with this question")
    _both_widths(browser, "reported")
    assert str(attempt.seed) not in page.content()

    author = open_page(instructor, label="instructor").page
    author.goto("/author/")
    author.get_by_role("link", name="Reports").click()
    entry = author.locator(".report-entry")
    expect(entry).to_contain_text("Part 2's key looks three times too big.")
    expect(entry).to_contain_text(str(attempt.seed))
    entry.get_by_role("link", name="Preview this variant").click()
    expect(author.locator("#id_seed")).to_have_value(str(attempt.seed))
    variant = attempt_variant(attempt)
    keys = author.locator(".instructor-view")
    for part in variant.parts:
        expect(keys).to_contain_text(variant.key_text(part.key))


def test_it_rates_and_undoes_across_a_switch_of_scheduler(open_page, two_problems):
    browser = open_page(two_problems)
    page = browser.page
    page.set_viewport_size(WIDE)
    page.goto("/practice/")
    first = attempt_on_screen(page)
    _answer(page, right_answers(first))

    # The graded answer waits; the learner switches to FSRS in another tab and comes back.
    page.goto("/practice/settings/")
    page.select_option("select[name=scheduler]", "fsrs")
    page.locator("form button[type=submit]", has_text="Save").click()
    expect(page.locator(".messages")).to_contain_text("Saved")
    page.goto("/practice/")
    expect(page.locator(RATING)).to_be_visible()
    _both_widths(browser, "20-rating-after-switch")

    page.keyboard.press("2")  # Hard, rated under FSRS
    expect(page.locator(QUESTION)).to_be_visible()
    review = Review.objects.get(attempt=first)
    assert review.self_rating == 2 and review.scheduler == "fsrs"

    # Back to SM-2, then Ctrl+Z: the rating made under FSRS is taken back under SM-2.
    page.goto("/practice/settings/")
    page.select_option("select[name=scheduler]", "sm2")
    page.locator("form button[type=submit]", has_text="Save").click()
    expect(page.locator(".messages")).to_contain_text("Saved")
    page.goto("/practice/")
    expect(page.locator("[data-key=undo]")).to_be_visible()
    page.locator("[data-key=undo]").click()
    expect(page.locator(RATING)).to_be_visible()
    expect(page.locator("#card")).to_contain_text(first.version.scenario.problem.title)
    _both_widths(browser, "21-undone-after-switch")
    review.refresh_from_db()
    assert (
        review.self_rating is None
        and Card.objects.get(pk=review.card_id).state["scheduler"] == "sm2"
    )
