"""Dashboard numbers and learner days, on concrete calendars."""

from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.srs import (
    day_start,
    learner_day,
    next_day_start,
    recent_score,
    reviews_per_day,
    streak,
    weakest,
)
from trainer.srs.dashboard import WEAK_BELOW

TODAY = date(2025, 3, 12)


def test_reviews_per_day_counts_learner_days_with_zeros():
    new_york = timezone(timedelta(hours=-5))
    moments = [
        datetime(2025, 3, 10, 3, 0, tzinfo=UTC),  # 9 March, 22:00 in New York
        datetime(2025, 3, 10, 15, 0, tzinfo=UTC),
        datetime(2025, 3, 10, 16, 0, tzinfo=UTC),
        datetime(2025, 3, 12, 4, 59, tzinfo=UTC),  # 11 March, 23:59
        datetime(2025, 1, 1, 12, 0, tzinfo=UTC),  # outside the range
    ]
    counts = reviews_per_day(moments, new_york, first_day=date(2025, 3, 9), last_day=TODAY)
    assert counts == {
        date(2025, 3, 9): 1,
        date(2025, 3, 10): 2,
        date(2025, 3, 11): 1,
        date(2025, 3, 12): 0,
    }
    year = reviews_per_day([], UTC, first_day=TODAY - timedelta(days=364), last_day=TODAY)
    assert len(year) == 365 and set(year.values()) == {0}


def test_streak_counts_back_from_today_or_yesterday():
    days = {TODAY - timedelta(days=n) for n in (1, 2, 3, 5)}
    assert streak(days, TODAY) == 3  # nothing yet today: the streak still stands
    assert streak(days | {TODAY}, TODAY) == 4
    assert streak(days, TODAY + timedelta(days=1)) == 0  # yesterday (the 12th) was missed
    assert streak(set(), TODAY) == 0


def test_weakest_are_the_lowest_recall_first_when_scores_agree():
    recall = {"kv-cache": 0.97, "moe": 0.62, "speculative": 0.81, "cost": 0.62}
    scores = {key: [1.0] for key in recall}
    assert weakest(recall, scores, 3) == ["moe", "cost", "speculative"]


def test_weakest_puts_a_card_just_failed_first_and_leaves_strong_cards_out():
    recall = {1: 1.0, 3: 1.0, 4: 1.0, 5: 1.0, 6: 0.99, 8: 1.0}
    scores = {1: [1.0], 3: [1.0, 1.0], 4: [1.0], 5: [1.0], 6: [1.0], 8: [1.0, 1.0, 0.25]}
    assert weakest(recall, scores, 5) == [8]


def test_recent_score_weighs_the_latest_most():
    assert recent_score([1.0]) == 1.0
    assert recent_score([0.0, 1.0, 1.0, 0.25]) == pytest.approx((3 * 0.25 + 2 + 1) / 6)
    assert recent_score([1.0, 0.0]) < recent_score([0.0, 1.0])


@given(
    st.dictionaries(
        st.integers(0, 30),
        st.tuples(st.floats(0, 1), st.lists(st.floats(0, 1), min_size=1, max_size=6)),
        max_size=25,
    ),
    st.integers(1, 10),
)
def test_weakest_lists_only_weak_cards_weakest_first(cards, count):
    recall = {key: value[0] for key, value in cards.items()}
    scores = {key: value[1] for key, value in cards.items()}
    chosen = weakest(recall, scores, count)
    strength = [recall[key] * recent_score(scores[key]) for key in chosen]
    assert len(chosen) <= count and strength == sorted(strength)
    assert all(value < WEAK_BELOW for value in strength)
    left_out = set(cards) - set(chosen)
    if len(chosen) < count:  # every weak card made the list
        assert all(recall[key] * recent_score(scores[key]) >= WEAK_BELOW for key in left_out)


def test_learner_day_boundaries_follow_daylight_saving():
    new_york = ZoneInfo("America/New_York")  # clocks go forward on 9 March 2025
    assert day_start(date(2025, 3, 8), new_york) == datetime(2025, 3, 8, 5, 0, tzinfo=UTC)
    assert day_start(date(2025, 3, 10), new_york) == datetime(2025, 3, 10, 4, 0, tzinfo=UTC)
    assert next_day_start(datetime(2025, 3, 9, 12, tzinfo=UTC), new_york) == datetime(
        2025, 3, 10, 4, 0, tzinfo=UTC
    )
    assert learner_day(datetime(2025, 3, 10, 3, 59, tzinfo=UTC), new_york) == date(2025, 3, 9)


def test_naive_instants_are_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        learner_day(datetime(2025, 3, 10, 12), UTC)
