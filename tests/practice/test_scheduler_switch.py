"""Switching scheduler between an answer and its rating, or between a rating and its undo: the
graded answer waiting on screen and the undo go on under the new scheduler, from the review log."""

from tests.practice.helpers import open_attempt_of, right_answers, wrong_answers
from tests.practice.test_settings_page import _form
from trainer.practice.models import Card, Review


def _answer(client, answers_of=right_answers):
    attempt = open_attempt_of(client)
    client.post(f"/practice/attempts/{attempt.pk}/answer/", answers_of(attempt))
    return Review.objects.get(attempt=attempt)


def _switch(client, scheduler):
    assert client.post("/practice/settings/", _form(scheduler=scheduler)).status_code == 302


def test_it_shows_and_rates_a_graded_answer_after_a_switch(practising):
    review = _answer(practising, wrong_answers)
    _switch(practising, "fsrs")
    html = practising.get("/practice/").content.decode()
    assert f"/practice/reviews/{review.pk}/rate/" in html  # the buttons, with FSRS intervals
    response = practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "1"})
    assert response.status_code == 302
    review.refresh_from_db()
    card = Card.objects.get()
    assert review.self_rating == 1
    assert card.state["scheduler"] == "fsrs" and card.due_at is not None


def test_it_undoes_a_rating_made_before_a_switch(practising):
    review = _answer(practising)
    practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "2"})
    _switch(practising, "fsrs")
    switched = Card.objects.get().state
    response = practising.post(f"/practice/reviews/{review.pk}/undo/")
    assert response.status_code == 302
    review.refresh_from_db()
    card = Card.objects.get()
    assert review.self_rating is None and review.quality == review.automatic_quality
    assert card.state["scheduler"] == "fsrs" and card.state != switched
    assert card.open_attempt_id == review.attempt_id
    assert f"/practice/reviews/{review.pk}/rate/" in practising.get("/practice/").content.decode()


def test_the_undone_card_is_the_card_the_new_scheduler_replays(practising):
    review = _answer(practising)
    practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "2"})
    _switch(practising, "fsrs")
    practising.post(f"/practice/reviews/{review.pk}/undo/")
    undone = Card.objects.values("state", "due_at").get()
    _switch(practising, "sm2")
    _switch(practising, "fsrs")  # the whole log replayed under FSRS
    assert Card.objects.values("state", "due_at").get() == undone
