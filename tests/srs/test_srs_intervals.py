"""The intervals the rating buttons show, counted in the learner's days."""

from datetime import UTC, datetime, timedelta, timezone

import pytest

from trainer.srs import interval_text

REVIEWED = datetime(2025, 3, 3, 22, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("due", "text"),
    [
        (REVIEWED + timedelta(minutes=10), "10 min"),
        (REVIEWED + timedelta(seconds=30), "1 min"),
        (REVIEWED, "now"),
        (datetime(2025, 3, 4, tzinfo=UTC), "1 d"),  # tomorrow's midnight, 90 minutes later
        (datetime(2025, 3, 20, tzinfo=UTC), "17 d"),
        (datetime(2025, 5, 3, tzinfo=UTC), "2 mo"),
        (datetime(2026, 9, 3, tzinfo=UTC), "1.5 y"),
        (None, "—"),
    ],
)
def test_it_words_the_interval(due, text):
    assert interval_text(REVIEWED, due, UTC) == text


def test_it_counts_the_learners_days():
    tokyo = timezone(timedelta(hours=9))  # 22:30 UTC is 07:30 the next morning in Tokyo
    due = datetime(2025, 3, 4, 15, 0, tzinfo=UTC)  # 00:00 on the 5th in Tokyo
    assert interval_text(REVIEWED, due, UTC) == "1 d"
    assert interval_text(REVIEWED, due, tokyo) == "1 d"
    assert interval_text(REVIEWED, REVIEWED + timedelta(hours=2), tokyo) == "2 h"


def test_it_says_a_redrill_comes_back_today_first():
    due = datetime(2025, 3, 9, tzinfo=UTC)
    assert interval_text(REVIEWED, due, UTC, repeat_today=True) == "today, then 6 d"


def test_it_refuses_a_naive_instant():
    with pytest.raises(ValueError):
        interval_text(REVIEWED.replace(tzinfo=None), REVIEWED, UTC)
