"""What the dashboard keeps per learner in the cache (trainer/dashboard/services.py) never shows
an out-of-date page: after every kind of change, the page drawn with the entry the previous
views left is the page drawn from nothing, and it shows the change. The clock is frozen, so two
drawings of the same data are the same bytes (recall now, "next card in")."""

from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from problems.models import Attempt
from tests.dashboard.helpers import done_today, history, kept_and_fresh, page, review
from tests.mock.helpers import answer_all, start
from tests.practice.factories import add_history
from tests.practice.helpers import open_attempt_of
from trainer.practice import services
from trainer.practice.models import Card, Review
from trainer.practice.statements import instant


def test_every_change_shows_on_the_page_drawn_from_what_was_kept(six, clock, learner):
    history(six, clock, 4)
    first = kept_and_fresh(six)
    assert done_today(first) == 0 and "4</strong><br>day streak" in first

    latest = review(six, clock, right=True, rating="1")  # a review, rated Again
    after_review = kept_and_fresh(six)
    assert done_today(after_review) == 1 and after_review != first

    six.post(f"/practice/reviews/{latest.pk}/undo/")  # an undo: the answer is back for rating
    kept_and_fresh(six)
    six.post(f"/practice/reviews/{latest.pk}/rate/", {"rating": "3"})  # rated Good instead
    after_rating = kept_and_fresh(six)
    assert Review.objects.get(pk=latest.pk).quality != latest.quality
    assert after_rating != after_review

    number = open_attempt_of(six).version.scenario.problem.number  # the queue's first card
    six.post(f"/practice/problems/{number}/hold/", {"action": "suspend"})  # suspend
    after_suspend = kept_and_fresh(six)
    six.post(f"/practice/problems/{number}/hold/", {"action": "unsuspend"})
    kept_and_fresh(six)
    six.post(f"/practice/problems/{number}/hold/", {"action": "bury"})  # bury
    after_bury = kept_and_fresh(six)
    assert after_suspend != after_rating and after_bury != after_rating
    six.post(f"/practice/problems/{number}/hold/", {"action": "unbury"})
    assert kept_and_fresh(six) == after_rating

    profile = services.get_profile(learner)
    profile.interview_date = (clock[0] + timedelta(days=12)).date()  # an interview date
    profile.save()
    services.recompute_cards(learner)
    assert "12 days to go" in kept_and_fresh(six)
    review(six, clock)  # a review in interview mode: its card's plan is drawn again
    kept_and_fresh(six)

    profile.timezone = "Pacific/Kiritimati"  # UTC+14: already tomorrow there
    profile.save()
    services.recompute_cards(learner)
    assert "11 days to go" in kept_and_fresh(six)

    clock[0] += timedelta(days=1)  # a new day in the learner's zone
    next_day = kept_and_fresh(six)
    assert "10 days to go" in next_day and done_today(next_day) == 0

    profile.scheduler = "fsrs"  # another scheduler
    profile.save()
    services.recompute_cards(learner)
    assert "<th>Stability</th>" in kept_and_fresh(six)


def test_a_regrade_and_a_mock_show_on_the_page(six, clock, learner):
    history(six, clock, 2)
    kept_and_fresh(six)
    attempt = Attempt.objects.filter(user=learner, submitted_at__isnull=False).latest("pk")
    # What a regrade writes on an attempt whose score changed (problems/regrade.py).
    Attempt.objects.filter(pk=attempt.pk).update(
        score=0.25, regrade_unseen=True, key_version=attempt.version
    )
    regraded = kept_and_fresh(six)
    assert "Answers regraded" in regraded and f'href="/practice/attempts/{attempt.pk}/"' in regraded
    six.get(f"/practice/attempts/{attempt.pk}/")  # opened: no longer listed
    assert "Answers regraded" not in kept_and_fresh(six)

    mock = start(six)
    assert "is running" in kept_and_fresh(six)
    answer_all(six, mock)
    six.post(f"/mock/{mock.pk}/finish/")  # a mock's end records reviews of its problems
    ended = kept_and_fresh(six)
    assert "is running" not in ended and f'href="/mock/{mock.pk}/report/"' in ended
    assert done_today(ended) == Review.objects.filter(user=learner, kind="mock").count()


def test_new_cards_and_the_first_view_of_a_new_learner(six, clock, learner):
    Card.objects.filter(user=learner).delete()
    assert "Where to start" in kept_and_fresh(six)
    services.introduce_all(learner, clock[0])
    assert "Where to start" not in kept_and_fresh(six)


def test_a_review_today_does_not_read_the_earlier_ones_again(six, clock):
    history(six, clock, 3)
    six.get("/")
    review(six, clock)
    with CaptureQueriesContext(connection) as queries:
        six.get("/")
    statements = [query["sql"] for query in queries.captured_queries]
    assert not any("ORDER BY reviewed_at, id" in sql for sql in statements)
    clock[0] += timedelta(days=1)
    with CaptureQueriesContext(connection) as queries:
        six.get("/")
    assert (
        sum("ORDER BY reviewed_at, id" in query["sql"] for query in queries.captured_queries) == 1
    )


def test_the_page_is_drawn_without_the_cache_when_it_is_down(six, clock, monkeypatch):
    history(six, clock, 2)
    expected = page(six)

    def down(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    assert page(six) == expected


def test_instants_read_from_either_database_are_aware_utc():
    assert instant("2026-03-10 15:00:00.5") == datetime.fromisoformat("2026-03-10T15:00:00.5+00:00")
    assert instant(None) is None


def test_changes_to_earlier_days_are_seen(six, clock, learner):
    history(six, clock, 2)
    latest = review(six, clock)
    clock[0] += timedelta(hours=10)  # past midnight: the latest review is yesterday's
    before = kept_and_fresh(six)
    six.post(f"/practice/reviews/{latest.pk}/undo/")  # undoing yesterday's review
    kept_and_fresh(six)
    six.post(f"/practice/reviews/{latest.pk}/rate/", {"rating": "1"})
    kept_and_fresh(six)
    add_history(learner, 30)  # reviews written into the past, a month of them
    assert kept_and_fresh(six) != before


def test_a_card_whose_state_alone_changed_is_drawn_again(six, clock, learner):
    history(six, clock, 2)
    kept_and_fresh(six)
    card = Card.objects.filter(user=learner, last_reviewed_at__isnull=False).first()
    Card.objects.filter(pk=card.pk).update(state={**card.state, "easiness_hundredths": 170})
    assert "<td>1.70</td>" in kept_and_fresh(six)
