"""Every page passes axe-core with no serious or critical violation, at desktop and phone width,
in the states a learner or an instructor meets (empty, answering, graded, a mock running, its
report); the practice loop is photographed at 1280 and 390 px for a person to look at."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from problems.models import ScenarioVersion
from tests.e2e.accessibility import assert_accessible
from tests.e2e.conftest import PHONE, VIEWPORT
from tests.e2e.helpers import attempt_on_screen, fill_parts, right_answers
from tests.mock.helpers import add_problem
from trainer.mock.models import Mock
from trainer.practice import services

pytestmark = pytest.mark.e2e

WIDTHS = {"1280": VIEWPORT, "390": PHONE}
SCHEMES = {"1280": "light", "390": "dark"}  # the phone run in the dark scheme simple.css has


def _check(browser, url=None, step=None):
    page = browser.page
    if url is not None:
        page.goto(url)
    if step:
        browser.screenshot(step)  # checks the page with axe first
    else:
        assert_accessible(page)


@pytest.mark.parametrize("width", WIDTHS)
def test_it_passes_axe_on_the_public_pages(open_page, db, width):
    browser = open_page(viewport=WIDTHS[width])
    for step, url in [
        ("home", "/"),
        ("login", "/accounts/login/"),
        ("signup", "/accounts/signup/"),
        ("help", "/help/"),
        ("not-found", "/no-such-page/"),
    ]:
        _check(browser, url, step)
    # The one console error a 404 page must give: the browser reports the status.
    browser.problems = [text for text in browser.problems if "status of 404" not in text]


@pytest.mark.parametrize("width", WIDTHS)
def test_it_passes_axe_and_photographs_the_practice_loop(
    open_page, bank_dir, loaded_bank, learner, width
):
    add_problem(bank_dir, 1, page=1)
    browser = open_page(learner, viewport=WIDTHS[width], color_scheme=SCHEMES[width])
    page = browser.page
    _check(browser, "/", "01-dashboard-new")
    services.introduce_all(learner, timezone.now())

    _check(browser, "/practice/", "02-question")
    attempt = attempt_on_screen(page)
    answers = right_answers(attempt)
    fill_parts(page, dict(answers, kv_total="3.2 ms"))
    page.get_by_role("button", name="Check my answers").click()
    expect(page.locator("#error-kv_total")).to_be_visible()
    _check(browser, step="03-unit-error")

    wrong = dict(answers)
    wrong["kv_per_token"] = wrong["kv_per_token"].replace(wrong["kv_per_token"].split()[0], "1", 1)
    fill_parts(page, wrong)
    page.get_by_role("button", name="Check my answers").click()
    expect(page.locator("li.result")).to_have_count(len(answers))
    _check(browser, step="04-graded")
    page.locator("#solution summary").click()
    expect(page.locator("#solution")).to_have_attribute("open", "")
    _check(browser, step="05-solution")
    page.locator("form.rating button[type=submit]").first.click()
    expect(page.locator("#card")).to_be_visible()
    _check(browser, step="06-next")

    _check(browser, f"/practice/attempts/{attempt.pk}/", "07-attempt")
    _check(browser, "/practice/settings/", "08-settings")
    _check(browser, "/accounts/password/")
    _check(browser, "/accounts/password/done/")
    _check(browser, "/", "09-dashboard")
    # Chart labels as rendered: the forecast's are at least 9 px tall at either width.
    heights = page.evaluate(
        """() => [...document.querySelectorAll("svg.chart-wide text")]
            .map(label => label.getBoundingClientRect().height)"""
    )
    assert heights and min(heights) >= 9, heights


def test_it_passes_axe_on_the_plan_pages(open_page, loaded_bank, learner):
    browser = open_page(learner)
    _check(browser, "/plan/", "index")
    for number in range(1, 11):
        _check(browser, f"/plan/pages/{number}/", f"page-{number:02d}" if number == 2 else None)


def test_it_puts_a_plan_demos_result_beside_or_just_below_its_inputs(open_page, learner):
    for width, viewport in WIDTHS.items():
        browser = open_page(learner, label=width, viewport=viewport)
        page = browser.page
        for number in range(1, 11):
            page.goto(f"/plan/pages/{number}/")
            form = page.locator("form.demo-form").bounding_box()
            result = page.locator("#demo").bounding_box()
            beside = result["x"] >= form["x"] + form["width"] and abs(result["y"] - form["y"]) < 40
            below = 0 <= result["y"] - (form["y"] + form["height"]) <= 48
            assert beside if width == "1280" else below, (width, number, form, result)
            if number == 2:
                browser.screenshot("demo")


def test_it_passes_axe_on_a_running_mock_and_its_report(open_page, bank_dir, loaded_bank, learner):
    add_problem(bank_dir, 25, page=10, scenario_keys=("chat-fleet", "agentic"), minutes=20)
    browser = open_page(learner)
    page = browser.page
    _check(browser, "/mock/", "01-index")
    page.get_by_role("button", name=re.compile("Start the rehearsal")).click()
    expect(page).to_have_url(re.compile(r"/mock/\d+/problems/1/$"))
    page.fill("#answer-kv_per_token", "12 parsecs")
    page.locator("#answer-kv_per_token").press("Enter")
    expect(page.locator("#error-kv_per_token")).to_be_visible()
    page.fill("#answer-kv_per_token", "320 KiB")
    page.locator("#answer-kv_per_token").press("Enter")
    expect(page.locator("#part-kv_per_token .recorded")).to_contain_text("Recorded: 320 KiB")
    page.fill("#design-text", "Requirements first: 1M daily users, 10 requests each.")
    page.get_by_role("button", name="Save my design answer").click()
    expect(page.locator("#design-answer [role=status]")).to_contain_text("Saved at")
    _check(browser, step="02-running")
    mock = Mock.objects.get(user=learner)
    page.locator("summary", has_text="Finish early").click()
    page.get_by_role("button", name="Finish now and see the report").click()
    expect(page.get_by_role("heading", name="Mock report")).to_be_visible()
    _check(browser, step="03-report")
    _check(browser, f"/mock/{mock.pk}/report/1/", "04-solution")
    _check(browser, "/mock/", "05-index-after")


def test_it_passes_axe_on_the_authoring_pages(open_page, loaded_bank, instructor):
    browser = open_page(instructor)
    version = ScenarioVersion.objects.select_related("scenario__problem").first()
    number = version.scenario.problem.number
    for step, url in [
        ("index", "/author/"),
        ("problem", f"/author/problems/{number}/"),
        ("version", f"/author/versions/{version.pk}/"),
        ("preview", f"/author/versions/{version.pk}/preview/"),
        ("new-problem", "/author/problems/new/"),
        ("new-scenario", f"/author/problems/{number}/scenarios/new/"),
        ("problem-stats", f"/author/problems/{number}/stats/"),
        ("reference", "/author/reference/"),
        ("import", "/author/import/"),
        ("stats", "/author/stats/"),
    ]:
        _check(browser, url, step)
