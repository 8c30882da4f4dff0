"""Pure numbers for the dashboard: reviews per day (the heatmap), the streak, the weakest cards.

Days are learner days (``days.learner_day``); the caller passes the review instants and today.
"""

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from datetime import date, datetime, timedelta, tzinfo

from trainer.srs.days import learner_day


def reviews_per_day(
    reviewed_at: Iterable[datetime], learner_tz: tzinfo, *, first_day: date, last_day: date
) -> dict[date, int]:
    """Number of reviews on each learner day from ``first_day`` to ``last_day`` inclusive,
    zeros included (a year of these is the heatmap); reviews outside the range are ignored."""
    counted = Counter(learner_day(moment, learner_tz) for moment in reviewed_at)
    length = (last_day - first_day).days + 1
    return {
        first_day + timedelta(days=index): counted[first_day + timedelta(days=index)]
        for index in range(max(0, length))
    }


def streak(review_days: Iterable[date], today: date) -> int:
    """Consecutive learner days with at least one review, ending today, or yesterday if there
    has been no review yet today (the streak is not broken before the day is over)."""
    reviewed = set(review_days)
    day = today if today in reviewed else today - timedelta(days=1)
    count = 0
    while day in reviewed:
        count += 1
        day -= timedelta(days=1)
    return count


def weakest(recall: Mapping[Hashable, float], count: int = 5) -> list[Hashable]:
    """The ``count`` keys with the lowest predicted recall, lowest first (ties: mapping order).

    Pass reviewed cards only: a new card's predicted recall is 0, and it is new, not weak.
    """
    return sorted(recall, key=lambda key: recall[key])[:count]
