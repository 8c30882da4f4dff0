from tests.practice.helpers import open_attempt_of, right_answers
from trainer.practice.models import Card, Review


def _answer_right(client):
    attempt = open_attempt_of(client)
    client.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    return Review.objects.get(attempt=attempt)


def test_it_lowers_the_quality_and_reschedules(practising):
    review = _answer_right(practising)
    due_before = Card.objects.get().due_at
    response = practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "1"})
    assert response["Location"] == "/practice/"
    review.refresh_from_db()
    assert review.self_rating == 1 and review.quality == 2 and review.automatic_quality == 5
    card = Card.objects.get()
    assert card.redrill_until is not None  # Again: back today
    assert card.due_at <= due_before
    assert card.reviews_count == 1


def test_it_never_raises_the_quality(practising):
    attempt = open_attempt_of(practising)
    practising.post(f"/practice/attempts/{attempt.pk}/answer/", {})
    review = Review.objects.get()
    practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "4"})
    review.refresh_from_db()
    assert review.quality == 0


def test_it_rates_once(practising):
    review = _answer_right(practising)
    practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "3"})
    practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "1"})
    review.refresh_from_db()
    assert review.self_rating == 3 and review.quality == 4


def test_it_moves_on_without_a_rating(practising):
    review = _answer_right(practising)
    response = practising.post(
        f"/practice/reviews/{review.pk}/rate/", {"rating": ""}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert "Nothing due right now" in response.content.decode()
    review.refresh_from_db()
    assert review.self_rating is None and review.quality == 5


def test_it_refuses_a_nonsense_rating(practising):
    review = _answer_right(practising)
    practising.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "9"})
    review.refresh_from_db()
    assert review.self_rating is None and review.quality == 5


def test_it_ignores_another_learners_review(client, practising, other_learner):
    review = _answer_right(practising)
    client.force_login(other_learner)
    response = client.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "1"})
    assert response.status_code == 404
    review.refresh_from_db()
    assert review.self_rating is None
