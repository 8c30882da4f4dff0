"""An instructor in a real browser writes a new problem and scenario at /author/, previews it,
validates it (in-process here: the tests run without Redis) and publishes it; a learner then
practises it."""

import re

import pytest
from playwright.sync_api import expect

from problems.models import ScenarioVersion, ValidationRun
from problems.variants import _compiled
from tests.e2e.helpers import attempt_on_screen, fill_parts, right_answers

pytestmark = pytest.mark.e2e

TITLE = "Cache for a fleet of chat users"


@pytest.fixture(autouse=True)
def fresh_compiled_cache():
    """The live server shares this process's cache of compiled versions, keyed by id; ids repeat
    from one test database to the next."""
    yield
    _compiled.clear()


def test_an_instructor_publishes_a_scenario_that_a_learner_then_practises(
    open_page, instructor, learner, db
):
    author = open_page(instructor, label="instructor")
    page = author.page

    page.goto("/author/")
    page.get_by_role("link", name="New problem").click()
    expect(page.locator("#id_number")).to_have_value("26")
    page.fill("#id_page", "2")
    page.fill("#id_title", TITLE)
    page.fill("#id_tradeoffs", "An FP8 cache holds twice the users.")
    page.fill("#id_model_answer", "Bytes per token times tokens times users.")
    page.get_by_role("button", name="Create the problem").click()
    expect(page).to_have_url(re.compile(r"/author/problems/26/scenarios/new/$"))

    page.fill("#id_key", "fleet")
    page.fill("#id_title", "Many users with long contexts")
    body = page.locator("#id_body")
    expect(body).to_contain_text("kv_bytes_per_token(model, kv_format)")
    # Live validation as the instructor types (htmx, on keyup).
    body.press("End")
    body.press_sequentially(" ")
    expect(page.locator("#check")).to_contain_text("No errors")
    author.screenshot("01-editor")
    page.get_by_role("button", name="Save draft").click()
    expect(page.get_by_role("heading", name=re.compile(r"fleet v1"))).to_be_visible()
    expect(page.locator(".messages")).to_contain_text("Draft v1 saved")

    page.get_by_role("link", name="Preview").click()
    variants = page.locator("article.preview-variant")
    expect(variants).to_have_count(3)
    expect(variants.first.locator(".learner-view .question")).to_contain_text("users, each holding")
    expect(variants.first.locator(".instructor-view")).to_contain_text("kv_total")
    author.screenshot("02-preview")

    page.get_by_role("link", name="fleet v1 (draft)").click()
    page.get_by_role("button", name="Validate").click()
    expect(page).to_have_url(re.compile(r"/author/validations/\d+/$"))
    expect(page.locator("#progress")).to_contain_text("Passed.")
    expect(page.locator("#progress")).to_contain_text("1000 of 1000 seeds checked")
    author.screenshot("03-validated")
    page.get_by_role("link", name="Go to publishing").click()
    page.get_by_role("button", name="Publish v1").click()
    expect(page.locator(".messages")).to_contain_text("v1 is published")
    author.screenshot("04-published")

    version = ScenarioVersion.objects.get(scenario__problem__number=26)
    assert version.status == "published"
    assert ValidationRun.objects.get(version=version).status == "passed"

    learning = open_page(learner, label="learner")
    page = learning.page
    page.goto("/practice/")
    page.get_by_role("button", name="Add all problems now").click()
    expect(page.get_by_role("heading", name=TITLE)).to_be_visible()
    expect(page.locator("#card .question")).to_contain_text("users, each holding")
    attempt = attempt_on_screen(page)
    assert attempt.version == version
    answers = right_answers(attempt)
    fill_parts(page, answers)
    page.locator(f"#part-{list(answers)[-1]}").press("Enter")
    expect(page.locator("li.result.correct")).to_have_count(len(answers))
    page.keyboard.press("s")  # the worked solution (Space would accept the default rating)
    expect(page.locator("#solution")).to_have_attribute("open", "")
    expect(page.locator("#solution")).to_contain_text("An FP8 cache holds twice the users.")
    learning.screenshot("05-learner-practises-it")
    author.assert_clean()
    learning.assert_clean()
