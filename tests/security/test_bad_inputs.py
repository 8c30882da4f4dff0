"""Inputs that used to give a 500: each gets a clear answer and changes nothing."""

from datetime import date, timedelta

import pytest
from django.utils import timezone

from problems.models import Problem, ScenarioVersion
from tests.author.conftest import editor_body, example_scenario
from tests.practice.helpers import open_attempt_of, right_answers
from trainer.mock.models import Mock
from trainer.practice import services
from trainer.practice.models import LearnerProfile

pytestmark = pytest.mark.django_db

SUPERSCRIPT_TWO = "\u00b2"  # "²".isdigit() is True, int("²") raises ValueError
HUGE_INTEGER = "9" * 5000  # over Python's 4,300-digit limit for int() of a decimal string


def test_it_refuses_a_superscript_page_for_a_mock(client, loaded_bank, learner):
    client.force_login(learner)
    response = client.post("/mock/start/", {"format": "drill", "page": SUPERSCRIPT_TWO})
    assert response.status_code == 302
    assert not Mock.objects.exists()
    page = client.get(response["Location"]).content.decode()
    assert "page" in page.lower()


def test_it_ignores_a_superscript_problem_in_the_live_check(client, loaded_bank, instructor):
    client.force_login(instructor)
    definition = example_scenario()
    response = client.post(
        "/author/check/",
        {
            "problem": SUPERSCRIPT_TWO,
            "key": definition["key"],
            "title": definition["title"],
            "body": editor_body(definition),
        },
    )
    assert response.status_code == 200


def _huge_integer_body():
    return editor_body(example_scenario()) + f"\nexpected_minutes_typo: {HUGE_INTEGER}\n"


def test_it_reports_a_huge_yaml_integer_in_the_live_check(client, loaded_bank, instructor):
    client.force_login(instructor)
    response = client.post(
        "/author/check/", {"key": "k", "title": "t", "body": _huge_integer_body()}
    )
    assert response.status_code == 200
    assert "digits" in response.content.decode()


def test_it_reports_a_huge_yaml_integer_in_the_editor(client, loaded_bank, instructor):
    client.force_login(instructor)
    number = Problem.objects.get().number
    response = client.post(
        f"/author/problems/{number}/scenarios/new/",
        {"key": "huge", "title": "Huge", "body": _huge_integer_body(), "action": "save"},
    )
    assert response.status_code == 200
    assert "digits" in response.content.decode()


def test_it_rejects_a_huge_yaml_integer_in_an_import(client, loaded_bank, instructor):
    client.force_login(instructor)
    document = f"number: {HUGE_INTEGER}\npage: 1\ntitle: x\nscenarios: []\n"
    response = client.post("/author/import/", {"text": document})
    assert response.status_code in (200, 400)
    assert "digits" in response.content.decode()


def test_it_refuses_an_interview_date_in_year_9990(client, loaded_bank, learner):
    services.introduce_all(learner, timezone.now())
    client.force_login(learner)
    response = client.post(
        "/practice/settings/",
        {
            "scheduler": "sm2",
            "timezone": "UTC",
            "daily_new_limit": 5,
            "daily_review_cap": 100,
            "queue_order": LearnerProfile._meta.get_field("queue_order").default,
            "interview_date": "9990-01-01",
        },
    )
    assert response.status_code == 200
    assert "interview date" in response.content.decode().lower()
    assert LearnerProfile.objects.get(user=learner).interview_date is None


def test_it_keeps_serving_a_learner_whose_interview_is_far_away(client, loaded_bank, learner):
    """A date stored before the form was bounded (or by the admin) must not break the pages:
    the schedulers cap their intervals, so no due day overflows."""
    services.introduce_all(learner, timezone.now())
    LearnerProfile.objects.filter(user=learner).update(interview_date=date(9990, 1, 1))
    client.force_login(learner)
    assert client.get("/").status_code == 200
    attempt = open_attempt_of(client)
    response = client.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    assert response.status_code == 200
    assert client.get("/").status_code == 200


def test_sm2_intervals_stop_at_the_maximum():
    from trainer.srs import sm2

    state = sm2.Sm2State()
    day = date(2030, 1, 1)
    for _ in range(60):
        state = sm2.sm2_step(state, 5, day)
        day = state.due_day
    assert state.interval_days == sm2.MAXIMUM_INTERVAL_DAYS
    assert day - date(2030, 1, 1) < timedelta(days=60 * sm2.MAXIMUM_INTERVAL_DAYS + 1)


UNBUILDABLE_YAML = ["2026-02-30", "!!int abc", "!!float abc", "2026-01-01 10:00:00 +99:00"]


def _body_with(value):
    body = editor_body(example_scenario())
    return body + f"\nwhen: {value}\n", body.count("\n") + 2


@pytest.mark.parametrize("value", UNBUILDABLE_YAML)
def test_it_names_the_line_of_a_yaml_value_that_cannot_be_built_in_the_live_check(
    client, loaded_bank, instructor, value
):
    client.force_login(instructor)
    body, line = _body_with(value)
    response = client.post("/author/check/", {"key": "k", "title": "t", "body": body})
    assert response.status_code == 200
    assert f"line {line}, column 7" in response.content.decode()


@pytest.mark.parametrize("value", UNBUILDABLE_YAML)
def test_it_names_the_line_of_a_yaml_value_that_cannot_be_built_in_the_editor(
    client, loaded_bank, instructor, value
):
    client.force_login(instructor)
    number = Problem.objects.get().number
    body, line = _body_with(value)
    response = client.post(
        f"/author/problems/{number}/scenarios/new/",
        {"key": "dated", "title": "Dated", "body": body, "action": "save"},
    )
    assert response.status_code == 200
    assert f"line {line}, column 7" in response.content.decode()
    assert not ScenarioVersion.objects.filter(scenario__key="dated").exists()


@pytest.mark.parametrize("value", UNBUILDABLE_YAML)
def test_it_rejects_an_import_with_a_yaml_value_that_cannot_be_built(
    client, loaded_bank, instructor, value
):
    client.force_login(instructor)
    document = f"number: 26\npage: 1\ntitle: x\nwhen: {value}\nscenarios: []\n"
    response = client.post("/author/import/", {"text": document})
    assert response.status_code in (200, 400)
    assert "line 4, column 7" in response.content.decode()
    assert not Problem.objects.filter(number=26).exists()
