"""Another variant: a new draw of any problem, graded and explained, that never touches the
schedule (no review, no change to the card)."""

import re

from django.utils import timezone

from problems.models import Attempt
from tests.practice.helpers import open_attempt_of, right_answers, wrong_answers
from trainer.practice.models import Card, Review

HX = {"HX-Request": "true"}


def _another(client, number=3):
    response = client.post(f"/practice/problems/{number}/another/")
    assert response.status_code == 302, response
    attempt_id = int(re.search(r"/practice/attempts/(\d+)/$", response["Location"]).group(1))
    return Attempt.objects.get(pk=attempt_id)


def _card():
    card = Card.objects.get()
    return (card.state, card.due_at, card.open_attempt_id, card.reviews_count)


def test_it_draws_a_variant_that_does_not_touch_the_schedule(practising):
    scheduled = open_attempt_of(practising)
    before = _card()
    attempt = _another(practising)
    assert attempt.purpose == Attempt.Purpose.FREE and attempt.pk != scheduled.pk
    page = practising.get(f"/practice/attempts/{attempt.pk}/").content.decode()
    assert f"/practice/attempts/{attempt.pk}/answer/" in page
    html = practising.post(
        f"/practice/attempts/{attempt.pk}/answer/", wrong_answers(attempt), headers=HX
    ).content.decode()
    assert 'class="verdict incorrect"' in html
    assert "/rate/" not in html  # nothing to rate: no review
    assert "Another variant of problem 3" in html
    attempt.refresh_from_db()
    assert attempt.submitted_at is not None
    assert Review.objects.count() == 0
    assert _card() == before
    assert open_attempt_of(practising).pk == scheduled.pk  # the scheduled question still waits


def test_it_shows_the_answered_variant_on_reload(practising):
    attempt = _another(practising)
    practising.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    html = practising.get(f"/practice/attempts/{attempt.pk}/").content.decode()
    assert 'class="verdict correct"' in html and "/answer/" not in html


def test_it_works_for_a_problem_not_in_the_learners_reviews(client, learner, loaded_bank):
    client.force_login(learner)
    attempt = _another(client)
    client.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    assert not Card.objects.exists() and not Review.objects.exists()


def test_it_offers_another_variant_on_a_graded_answer(practising):
    attempt = open_attempt_of(practising)
    html = practising.post(
        f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt)
    ).content.decode()
    assert 'action="/practice/problems/3/another/"' in html


def test_it_says_a_problem_that_does_not_exist_is_missing(practising):
    assert practising.post("/practice/problems/99/another/").status_code == 404
    assert not Attempt.objects.filter(purpose=Attempt.Purpose.FREE).exists()


def test_it_keeps_another_learners_variant_to_them(client, practising, other_learner):
    attempt = _another(practising)
    client.force_login(other_learner)
    assert client.get(f"/practice/attempts/{attempt.pk}/").status_code == 404
    answer = client.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    assert answer.status_code == 404


def test_it_waits_while_a_mock_interview_runs(practising, carded):
    from trainer.mock import services as mock_services

    mock_services.start(carded, "drill", timezone.now(), page=2)
    html = practising.post("/practice/problems/3/another/").content.decode()
    assert "A mock interview is running" in html
    assert not Attempt.objects.filter(purpose=Attempt.Purpose.FREE).exists()


def test_it_limits_how_fast_variants_come(practising, settings):
    settings.ANSWER_RATE_LIMIT = 2
    statuses = [practising.post("/practice/problems/3/another/").status_code for _ in range(3)]
    assert statuses == [302, 302, 429]
