"""Undo (Anki's Ctrl+Z): the learner's latest rating is taken back, the card is put back as the
review log says, and the graded answer is shown again for rating."""

import threading

import pytest
from django.db import connection
from django.utils import timezone

from tests.mock.helpers import add_problem
from tests.practice.helpers import move_on, open_attempt_of, right_answers, wrong_answers
from trainer.practice import services
from trainer.practice.models import Card, Review

HX = {"HX-Request": "true"}


def _answer(client, answers_of=right_answers):
    attempt = open_attempt_of(client)
    client.post(f"/practice/attempts/{attempt.pk}/answer/", answers_of(attempt))
    return Review.objects.get(attempt=attempt)


def _undo(client, review, **extra):
    return client.post(f"/practice/reviews/{review.pk}/undo/", **extra)


def _schedule(card_id):
    card = Card.objects.get(pk=card_id)
    return (card.state, card.due_at, card.redrill_until, card.lapses, card.reviews_count)


def test_it_takes_back_a_rating_and_shows_the_answer_again(practising):
    review = _answer(practising)
    submitted = _schedule(review.card_id)
    practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "1"})  # Again, by mistake
    assert _schedule(review.card_id) != submitted
    page = practising.get("/practice/").content.decode()
    assert f"/practice/reviews/{review.pk}/undo/" in page and "Ctrl+Z" in page

    html = _undo(practising, review, headers=HX).content.decode()
    review.refresh_from_db()
    assert review.self_rating is None and review.quality == review.automatic_quality == 5
    assert _schedule(review.card_id) == submitted  # lapse taken back too
    assert f"/practice/reviews/{review.pk}/rate/" in html  # the buttons, once more
    assert "/undo/" not in html
    assert f"/practice/reviews/{review.pk}/rate/" in practising.get("/practice/").content.decode()

    practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "3"})
    review.refresh_from_db()
    assert review.self_rating == 3 and review.quality == 5


def test_it_brings_back_an_answer_moved_on_from(practising):
    review = _answer(practising, wrong_answers)
    move_on(practising)
    redrill = open_attempt_of(practising)  # the re-drill already drawn
    response = _undo(practising, review)
    assert response["Location"] == "/practice/"
    assert Card.objects.get().open_attempt_id == review.attempt_id
    assert f"/practice/reviews/{review.pk}/rate/" in practising.get("/practice/").content.decode()
    assert redrill.submitted_at is None


def test_it_undoes_only_the_latest_review(practising, carded, bank_dir):
    add_problem(bank_dir, 1, page=1)
    services.introduce_all(carded, timezone.now())
    first = _answer(practising)
    move_on(practising)
    second = _answer(practising)
    move_on(practising)
    before = _schedule(first.card_id)
    html = _undo(practising, first, headers=HX).content.decode()
    assert "Only your latest review can be undone" in html
    assert _schedule(first.card_id) == before
    assert f"/practice/reviews/{second.pk}/undo/" in html


def test_it_offers_nothing_to_undo_while_an_answer_waits_for_its_rating(practising):
    review = _answer(practising)
    html = practising.get("/practice/").content.decode()
    assert "/undo/" not in html
    _undo(practising, review)  # a stale button: nothing changes
    review.refresh_from_db()
    assert review.quality == 5 and Card.objects.get().open_attempt_id == review.attempt_id


def test_it_does_not_undo_a_mock_interview(practising, carded):
    review = _answer(practising)
    move_on(practising)
    Review.objects.filter(pk=review.pk).update(kind=Review.Kind.MOCK)
    assert "/undo/" not in practising.get("/practice/").content.decode()
    html = _undo(practising, review, headers=HX).content.decode()
    assert "A mock interview" in html
    assert Card.objects.get().open_attempt_id is None


def test_it_undoes_twice_as_once(practising):
    review = _answer(practising)
    practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "2"})
    _undo(practising, review)
    once = _schedule(review.card_id)
    _undo(practising, review)
    assert _schedule(review.card_id) == once


def test_it_hides_another_learners_review(client, practising, other_learner):
    review = _answer(practising)
    practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "1"})
    before = _schedule(review.card_id)
    client.force_login(other_learner)
    assert _undo(client, review).status_code == 404
    assert _undo(client, type(review)(pk=999_999)).status_code == 404
    assert _schedule(review.card_id) == before


def test_it_needs_login(client, practising):
    review = _answer(practising)
    client.logout()
    response = _undo(client, review)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.django_db(transaction=True)
def test_it_applies_concurrent_undos_once(loaded_bank, django_user_model):
    user = django_user_model.objects.create_user("racer", password="a long pass phrase")
    now = timezone.now()
    services.introduce_all(user, now)
    card = Card.objects.get(user=user)
    attempt = services.open_attempt(card, now)
    answers = {key[len("part-") :]: text for key, text in right_answers(attempt).items()}
    review = services.submit(user, attempt.pk, answers, now).review
    services.rate(user, review.pk, 1, now)
    errors = []

    def undo():
        try:
            services.undo(user, review.pk, timezone.now())
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()  # this thread's own connection

    threads = [threading.Thread(target=undo) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    card.refresh_from_db()
    review.refresh_from_db()
    assert review.quality == 5 and review.self_rating is None
    assert card.lapses == 0 and card.reviews_count == 1
    assert card.open_attempt_id == attempt.pk
