"""A NUL byte in any text a visitor types: PostgreSQL cannot store one ("A string literal
cannot contain NUL (0x00) characters"), so each is refused as a form error and nothing is
stored, instead of a 500. SQLite stores NULs, so these matter on the PostgreSQL pass; each test
checks the same refusal on both."""

import pytest
from django.utils import timezone

from problems.models import PartAnswer, VariantReport
from tests.author.conftest import editor_body, example_scenario
from tests.mock.helpers import HX, answer, start, variants_of
from tests.practice.helpers import open_attempt_of, right_answers
from trainer.practice import services

pytestmark = pytest.mark.django_db

NUL = "\x00"


@pytest.fixture
def answered(client, loaded_bank, learner):
    """The learner, logged in, with one graded practice attempt."""
    services.introduce_all(learner, timezone.now())
    client.force_login(learner)
    attempt = open_attempt_of(client)
    assert client.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    return attempt


@pytest.mark.parametrize("headers", [{}, HX])
def test_it_refuses_a_variant_report_holding_a_nul(client, answered, headers):
    url = f"/practice/attempts/{answered.pk}/report/"
    response = client.post(url, {"message": f"The key{NUL} is wrong"}, headers=headers)
    assert response.status_code in (200, 302)
    html = client.get(response["Location"]).content.decode() if not headers else ""
    html += response.content.decode()
    assert "Null characters are not allowed" in html
    assert not VariantReport.objects.exists()


def test_it_refuses_a_practice_answer_holding_a_nul(client, loaded_bank, learner):
    services.introduce_all(learner, timezone.now())
    client.force_login(learner)
    attempt = open_attempt_of(client)
    answers = {name: text + NUL for name, text in right_answers(attempt).items()}
    response = client.post(f"/practice/attempts/{attempt.pk}/answer/", answers)
    assert response.status_code in (200, 422)
    assert not PartAnswer.objects.filter(attempt=attempt).exists()
    attempt.refresh_from_db()
    assert attempt.submitted_at is None


@pytest.mark.parametrize("headers", [{}, HX])
def test_it_refuses_a_design_answer_holding_a_nul(capstone, headers):
    client, mock = capstone
    client.post(f"/mock/{mock.pk}/problems/1/design/", {"design_answer": "first draft"})
    response = client.post(
        f"/mock/{mock.pk}/problems/1/design/", {"design_answer": f"Peak{NUL}"}, headers=headers
    )
    assert response.status_code in (302, 422)
    html = response.content.decode()
    if not headers:
        html = client.get(response["Location"]).content.decode()
    assert "Null characters are not allowed" in html
    assert mock.items.get(position=1).design_answer == "first draft"


def test_it_refuses_a_mock_answer_holding_a_nul(capstone):
    client, mock = capstone
    item, variant = variants_of(mock)[0]
    part = variant.parts[0]
    response = answer(client, mock, item.position, part.key, variant.key_text(part.key) + NUL)
    assert response.status_code in (200, 422)
    assert not PartAnswer.objects.filter(attempt=item.attempt).exists()


def test_it_checks_a_definition_holding_a_nul_without_a_500(client, loaded_bank, instructor):
    client.force_login(instructor)
    body = editor_body(example_scenario()).replace("\n", f"\n{NUL}", 1)
    response = client.post("/author/check/", {"key": "k", "title": "t", "body": body})
    assert response.status_code == 200
    assert "cannot contain" in response.content.decode() or "#x0000" in response.content.decode()


@pytest.fixture
def capstone(client, capstone_bank, learner):
    client.force_login(learner)
    return client, start(client, "capstone")


@pytest.fixture
def capstone_bank(bank_dir, loaded_bank):
    from tests.mock.helpers import add_problem

    add_problem(bank_dir, 25, page=10, scenario_keys=("chat-fleet", "agentic"), minutes=20)
