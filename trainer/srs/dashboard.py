"""Pure numbers for the dashboard: reviews per day (the heatmap), the streak, the weakest cards.

Days are learner days (``days.learner_day``); the caller passes the review instants and today.
"""

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
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


RECENT_REVIEWS = 3
"""Reviews of a card whose scores say how it went lately (the latest counts most)."""
WEAK_BELOW = 0.9
"""Strength under which a card is listed as weak: a card remembered and answered right lately is
not weak, however it ranks among strong ones."""


def recent_score(scores: Sequence[float]) -> float:
    """The mean of the last ``RECENT_REVIEWS`` scores (oldest first in ``scores``), weighted
    3:2:1 from the latest back, so one failure just now weighs more than two old successes."""
    latest = list(reversed(scores[-RECENT_REVIEWS:]))
    if not latest:
        raise ValueError("a card with no review has no recent score")
    weights = range(len(latest), 0, -1)
    return sum(w * s for w, s in zip(weights, latest, strict=True)) / sum(weights)


def weakest(
    recall: Mapping[Hashable, float],
    scores: Mapping[Hashable, Sequence[float]],
    count: int = 5,
) -> list[Hashable]:
    """The ``count`` weakest reviewed cards, weakest first: by strength, predicted recall times
    the recent score (``recent_score``), below ``WEAK_BELOW`` only. Recall alone is not enough:
    just after a review every card is at 100%, the one just failed included.

    Pass reviewed cards only: a new card's predicted recall is 0, and it is new, not weak.
    Ties keep the mapping's order.
    """
    strength = {key: recall[key] * recent_score(scores[key]) for key in recall if scores.get(key)}
    weak = [key for key in strength if strength[key] < WEAK_BELOW]
    return sorted(weak, key=lambda key: strength[key])[:count]
