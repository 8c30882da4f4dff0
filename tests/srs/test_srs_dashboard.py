"""Dashboard numbers and learner days, on concrete calendars."""

from datetime import UTC, date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from trainer.srs import day_start, learner_day, next_day_start, reviews_per_day, streak, weakest

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


def test_weakest_are_the_lowest_recall_first():
    recall = {"kv-cache": 0.97, "moe": 0.62, "speculative": 0.81, "cost": 0.62}
    assert weakest(recall, 3) == ["moe", "cost", "speculative"]


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
