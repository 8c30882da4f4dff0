"""A problem's page for the learner: their earlier answers (question with its numbers, answers,
verdicts, a link to each), paginated, and the controls to practise it freely."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from problems.models import Attempt, PartAnswer, ScenarioVersion
from problems.variants import variant_of
from tests.practice.helpers import move_on, open_attempt_of, right_answers, wrong_answers


def _answer(client, answers_of):
    attempt = open_attempt_of(client)
    client.post(f"/practice/attempts/{attempt.pk}/answer/", answers_of(attempt))
    move_on(client)
    return attempt


def _add_attempts(user, count):
    """`count` graded attempts of problem 3, one a day back from yesterday, each part right."""
    version = ScenarioVersion.objects.get(scenario__problem__number=3)
    now = timezone.now()
    made = Attempt.objects.bulk_create(
        [
            Attempt(
                user=user,
                version=version,
                seed=1000 + n,
                started_at=now - timedelta(days=n + 1),
                submitted_at=now - timedelta(days=n + 1),
                score=1.0,
            )
            for n in range(count)
        ]
    )
    PartAnswer.objects.bulk_create(
        [
            PartAnswer(attempt=attempt, part_key=part.key, text="1", status="correct", score=1.0)
            for attempt in made
            for part in variant_of(version, attempt.seed).parts
        ]
    )


def test_it_lists_the_learners_answers_with_their_numbers_and_verdicts(practising):
    first = _answer(practising, wrong_answers)
    second = _answer(practising, right_answers)
    html = practising.get("/practice/problems/3/").content.decode().replace("&#x27;", "'")
    for number, attempt in ((1, first), (2, second)):
        assert f'<a href="/practice/attempts/{attempt.pk}/">Answer {number}</a>' in html
        variant = variant_of(attempt.version, attempt.seed)
        assert variant.text.splitlines()[0][:60] in html  # the question with its numbers
        for part in variant.parts:
            assert variant.key_text(part.key) in html
    assert html.index(f"/practice/attempts/{second.pk}/") < html.index(
        f"/practice/attempts/{first.pk}/"
    )
    assert 'class="verdict incorrect"' in html and 'class="verdict correct"' in html
    assert str(first.seed) not in html and str(second.seed) not in html


def test_it_shows_only_the_learners_own_answers(client, practising, other_learner):
    attempt = _answer(practising, right_answers)
    client.force_login(other_learner)
    html = client.get("/practice/problems/3/").content.decode()
    assert f"/practice/attempts/{attempt.pk}/" not in html
    assert "You have not answered this problem yet" in html


def test_it_paginates_in_the_same_number_of_queries(practising, carded):
    _add_attempts(carded, 3)
    practising.get("/practice/problems/3/")  # compiles the version once

    def count(page):
        with CaptureQueriesContext(connection) as queries:
            response = practising.get(f"/practice/problems/3/?page={page}")
        assert response.status_code == 200
        return len(queries), response.content.decode()

    small, _ = count(1)
    _add_attempts(carded, 40)
    large, html = count(2)
    assert large == small
    assert "Page 2 of 5" in html and "Answer 33" in html and "Answer 24" in html


def test_it_refuses_a_page_that_is_not_a_number_gracefully(practising):
    assert practising.get("/practice/problems/3/?page=x").status_code == 200
    assert practising.get("/practice/problems/3/?page=999").status_code == 200


def test_it_says_a_problem_that_does_not_exist_is_missing(practising):
    assert practising.get("/practice/problems/99/").status_code == 404


def test_it_needs_login(client, loaded_bank):
    response = client.get("/practice/problems/3/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
