"""Every practice write moves the learner's data version (what the home page keys its kept numbers
on), in the write's own transaction; a refused request and a page view move nothing."""

import pytest

from tests.practice.helpers import open_attempt_of, right_answers
from tests.practice.test_settings_page import _form
from trainer.practice.changes import learner_version
from trainer.practice.models import Review


def _moves(client, user, action):
    before = learner_version(user.pk)
    action(client)
    return learner_version(user.pk) - before


def _answer(client):
    attempt = open_attempt_of(client)
    client.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    return Review.objects.get(attempt=attempt)


def test_an_answer_a_rating_and_an_undo_each_move_it(practising, carded):
    assert _moves(practising, carded, _answer) == 1
    review = Review.objects.get()
    rate = f"/practice/reviews/{review.pk}/rate/"
    assert _moves(practising, carded, lambda c: c.post(rate, {"rating": "3"})) == 1
    undo = f"/practice/reviews/{review.pk}/undo/"
    assert _moves(practising, carded, lambda c: c.post(undo)) == 1
    assert _moves(practising, carded, lambda c: c.post(rate, {"rating": ""})) == 1  # skip


@pytest.mark.parametrize("action", ["suspend", "unsuspend", "bury", "unbury"])
def test_a_hold_moves_it(practising, carded, action):
    hold = "/practice/problems/3/hold/"
    assert _moves(practising, carded, lambda c: c.post(hold, {"action": action})) == 1


def test_settings_and_extra_practice_move_it(practising, carded):
    settings = lambda c: c.post("/practice/settings/", _form(daily_new_limit=9))  # noqa: E731
    assert _moves(practising, carded, settings) == 1
    practise = lambda c: c.post("/plan/problems/3/practice/")  # noqa: E731
    assert _moves(practising, carded, practise) == 1


def test_another_variant_answered_moves_it(practising, carded):
    practising.post("/practice/problems/3/another/")
    assert _moves(practising, carded, _answer_another) == 1


def _answer_another(client):
    from problems.models import Attempt

    attempt = Attempt.objects.get(purpose=Attempt.Purpose.FREE)
    client.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))


def test_a_page_view_and_a_refused_rating_move_nothing(practising, carded):
    assert _moves(practising, carded, lambda c: c.get("/practice/")) == 0
    review = _answer(practising)
    rate = f"/practice/reviews/{review.pk}/rate/"
    assert _moves(practising, carded, lambda c: c.post(rate, {"rating": "9"})) == 0
