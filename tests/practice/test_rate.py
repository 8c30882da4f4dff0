"""Rating a graded answer, as in Anki: Good keeps the automatic grade, Again and Hard lower it,
Easy lifts a fully correct answer; each button shows when the card would come back."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from problems.models import Attempt
from tests.practice.helpers import open_attempt_of, right_answers, wrong_answers
from trainer.practice import services
from trainer.practice.models import Card, Review
from trainer.srs import learner_day

HX = {"HX-Request": "true"}


def _answer(client, answers_of=right_answers, **extra):
    attempt = open_attempt_of(client)
    client.post(f"/practice/attempts/{attempt.pk}/answer/", answers_of(attempt), **extra)
    return Review.objects.get(attempt=attempt)


def _rate(client, review, rating, **extra):
    return client.post(f"/practice/reviews/{review.pk}/rate/", {"rating": rating}, **extra)


def _schedule():
    card = Card.objects.get()
    return (card.state, card.due_at, card.redrill_until, card.lapses, card.reviews_count)


def _buttons(html):
    """{label: interval} of the rating buttons on a page, and the default's label."""
    found = re.findall(
        r'<button type="submit" name="rating" value="\d"([^>]*)>\s*(\w+) '
        r'<kbd>\d</kbd>\s*<span class="interval">([^<]*)</span>',
        html,
    )
    return {label: interval for _, label, interval in found}, [
        label for attributes, label, _ in found if "data-default" in attributes
    ]


def _use_scheduler(user, name):
    profile = services.get_profile(user)
    profile.scheduler = name
    profile.save()
    services.recompute_cards(user)


@pytest.mark.parametrize("scheduler", ["sm2", "fsrs"])
def test_it_gives_good_after_a_perfect_answer_the_same_schedule_as_the_default(
    practising, carded, scheduler
):
    _use_scheduler(carded, scheduler)
    review = _answer(practising)
    by_default = _schedule()  # the automatic grade, applied when the answer was submitted
    _rate(practising, review, "3")
    review.refresh_from_db()
    assert review.self_rating == 3 and review.quality == review.automatic_quality == 5
    assert _schedule() == by_default


def test_it_lowers_the_quality_with_again_and_reschedules(practising):
    review = _answer(practising)
    due_before = Card.objects.get().due_at
    response = _rate(practising, review, "1")
    assert response["Location"] == "/practice/"
    review.refresh_from_db()
    assert review.self_rating == 1 and review.quality == 2 and review.automatic_quality == 5
    card = Card.objects.get()
    assert card.redrill_until is not None  # Again: back today
    assert card.due_at <= due_before
    assert card.reviews_count == 1 and card.lapses == 1


def test_it_lifts_a_slow_perfect_answer_with_easy(practising):
    attempt = open_attempt_of(practising)
    Attempt.objects.filter(pk=attempt.pk).update(started_at=timezone.now() - timedelta(minutes=12))
    practising.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    review = Review.objects.get()
    assert review.automatic_quality == 4  # 12 minutes for an 8-minute problem
    assert Card.objects.get().redrill_until is None
    _rate(practising, review, "4")
    review.refresh_from_db()
    assert review.quality == 5
    assert Card.objects.get().state["easiness_hundredths"] == 260


def test_it_refuses_easy_for_a_wrong_answer_and_changes_nothing(practising):
    review = _answer(practising, wrong_answers)
    before = _schedule()
    html = _rate(practising, review, "4", headers=HX).content.decode()
    assert "Easy is only for an answer with every part correct" in html
    review.refresh_from_db()
    assert review.self_rating is None and review.quality == review.automatic_quality
    assert _schedule() == before
    assert f"/practice/reviews/{review.pk}/rate/" in html  # still waiting for its rating


def test_it_never_raises_a_blank_answer(practising):
    attempt = open_attempt_of(practising)
    practising.post(f"/practice/attempts/{attempt.pk}/answer/", {})
    review = Review.objects.get()
    _rate(practising, review, "3")
    review.refresh_from_db()
    assert review.quality == 0


def test_it_rates_once(practising):
    review = _answer(practising)
    _rate(practising, review, "3")
    _rate(practising, review, "1")
    review.refresh_from_db()
    assert review.self_rating == 3 and review.quality == 5


def test_it_moves_on_without_a_rating(practising):
    review = _answer(practising)
    response = _rate(practising, review, "", headers=HX)
    assert response.status_code == 200
    assert "Nothing due right now" in response.content.decode()
    review.refresh_from_db()
    assert review.self_rating is None and review.quality == 5
    assert Card.objects.get().open_attempt is None


def test_it_tells_a_stale_tab_that_the_learner_moved_on(practising):
    review = _answer(practising)
    _rate(practising, review, "")
    html = _rate(practising, review, "1", headers=HX).content.decode()
    assert "You moved on from this answer" in html
    review.refresh_from_db()
    assert review.self_rating is None and review.quality == 5


def test_it_refuses_a_nonsense_rating(practising):
    review = _answer(practising)
    _rate(practising, review, "9")
    review.refresh_from_db()
    assert review.self_rating is None and review.quality == 5


def test_it_ignores_another_learners_review(client, practising, other_learner):
    review = _answer(practising)
    client.force_login(other_learner)
    response = _rate(client, review, "1")
    assert response.status_code == 404
    review.refresh_from_db()
    assert review.self_rating is None


def _third_repetition_due(user):
    """The learner's card in its third repetition: 6 days ago, E-Factor 2.5, due now."""
    now = timezone.now()
    last = learner_day(now, services.get_profile(user).tz) - timedelta(days=6)
    Card.objects.update(
        state={
            "scheduler": "sm2",
            "repetitions": 2,
            "easiness_hundredths": 250,
            "interval_days": 6,
            "last_review_day": last.isoformat(),
            "redrill": False,
        },
        due_at=now - timedelta(hours=1),
        last_reviewed_at=now - timedelta(days=6),
    )


def test_it_shows_each_buttons_interval_with_sm2(practising, carded):
    _third_repetition_due(carded)
    attempt = open_attempt_of(practising)
    html = practising.post(
        f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt), headers=HX
    ).content.decode()
    intervals, default = _buttons(html)
    # q 5: EF 2.6, ceil(6 × 2.6) = 16 days; q 3 and 2: back today, then 6 × EF or a fresh start.
    assert intervals == {
        "Again": "today, then 1 d",
        "Hard": "today, then 15 d",
        "Good": "16 d",
        "Easy": "16 d",
    }
    assert default == ["Good"]


def test_it_shows_each_buttons_interval_with_fsrs(practising, carded):
    _use_scheduler(carded, "fsrs")
    attempt = open_attempt_of(practising)
    html = practising.post(f"/practice/attempts/{attempt.pk}/answer/", {}).content.decode()
    intervals, default = _buttons(html)  # nothing answered: quality 0
    assert intervals["Again"] == intervals["Good"] == "1 min"  # FSRS's first learning step
    assert default == ["Again"]
    assert 'value="4" data-key="4"\n            class="secondary"\n            disabled' in html


def test_it_shows_interview_mode_pulling_the_next_review_earlier(practising, carded):
    _third_repetition_due(carded)
    review = _answer(practising)
    assert _buttons(practising.get("/practice/").content.decode())[0]["Good"] == "16 d"
    profile = services.get_profile(carded)
    today = learner_day(timezone.now(), profile.tz)
    profile.interview_date = today + timedelta(days=5)
    profile.save()
    shown = _buttons(practising.get("/practice/").content.decode())[0]["Good"]
    days = int(shown.removesuffix(" d"))
    assert 1 <= days <= 4  # two more reviews before the interview, none on the day
    _rate(practising, review, "3")
    due = Card.objects.get().due_at
    assert learner_day(due, profile.tz) == today + timedelta(days=days)
