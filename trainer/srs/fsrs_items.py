"""Review logs as FSRS training items, built the way Anki builds them for its optimizer.

FSRS learns from items: one item per review to be predicted, holding the card's whole history up
to and including that review as ``(rating, days since the previous review)`` pairs. Anki's rules,
followed here:

- **Days are the learner's calendar days.** The gap before a review is the number of learner
  days (``days.learner_day``) since the card's previous review, not 24-hour periods: a review at
  23:00 and the next at 08:00 are one day apart. The scheduler counts the same way
  (``fsrs_scheduler``), so a fitted parameter set means the same thing in both.
- **One prediction per learner day.** Only the first review of a learner day, on a day after the
  card's first review, becomes an item to predict. Later reviews the same day (re-drills,
  learning steps, extra practice) stay in the history with a gap of 0 days: FSRS's short-term
  parameters use them, but recall minutes after seeing the solution says little about memory.
- **Suspended and buried cards are left out**, whole: their schedule was interrupted by the
  learner, not by forgetting (Anki's default optimizer search is ``-is:suspended``).
- **Undone reviews are gone.** Pass the log as it stands: a review whose rating was undone is
  passed with the rating it has now, and a review removed from the log is simply not passed.

Ratings are FSRS's 1 Again, 2 Hard, 3 Good, 4 Easy (``fsrs_scheduler.rating_for_quality`` turns a
stored quality 0..5 into one). Every instant is timezone-aware and normalised to UTC.
"""

from collections import defaultdict
from collections.abc import Collection, Hashable, Iterable
from dataclasses import dataclass
from datetime import datetime, tzinfo

import fsrs_rs_python

from trainer.srs.days import learner_day, require_utc

RATINGS = range(1, 5)
"""FSRS ratings: 1 Again, 2 Hard, 3 Good, 4 Easy."""


@dataclass(frozen=True)
class CardReview:
    """One review from a learner's log, as FSRS needs it.

    Attributes:
        card_id: the card reviewed (unique within one learner's log).
        reviewed_at: when (timezone-aware; normalised to UTC).
        rating: the FSRS rating the scheduler applied, 1..4.
    """

    card_id: Hashable
    reviewed_at: datetime
    rating: int

    def __post_init__(self) -> None:
        if isinstance(self.rating, bool) or self.rating not in RATINGS:
            raise ValueError(f"FSRS rating must be 1..4, got {self.rating!r}")
        object.__setattr__(self, "reviewed_at", require_utc(self.reviewed_at))


@dataclass(frozen=True)
class TrainingItem:
    """One review to predict, with the card's history up to it.

    Attributes:
        card_id: the card.
        reviewed_at: when the predicted review (the last one of ``reviews``) happened (UTC);
            time-series splits sort on it.
        reviews: ``(rating 1..4, days since the card's previous review [learner days])``,
            oldest first; the first review's gap is 0.
    """

    card_id: Hashable
    reviewed_at: datetime
    reviews: tuple[tuple[int, int], ...]

    def to_fsrs(self) -> fsrs_rs_python.FSRSItem:
        """The fsrs-rs item for this history."""
        return fsrs_rs_python.FSRSItem(
            [fsrs_rs_python.FSRSReview(rating, days) for rating, days in self.reviews]
        )


def card_history(reviews: Iterable[CardReview], learner_tz: tzinfo) -> list[tuple[int, int]]:
    """One card's reviews as ``(rating, days since the previous review [learner days])``,
    oldest first (the first gap is 0). Reviews logged at the same instant keep their order."""
    ordered = sorted(reviews, key=lambda review: review.reviewed_at)
    history = []
    previous_day = None
    for review in ordered:
        day = learner_day(review.reviewed_at, learner_tz)
        history.append((review.rating, 0 if previous_day is None else (day - previous_day).days))
        previous_day = day
    return history


def training_items(
    reviews: Iterable[CardReview],
    learner_tz: tzinfo,
    *,
    excluded_card_ids: Collection[Hashable] = (),
) -> list[TrainingItem]:
    """One learner's log as training items, oldest predicted review first (module docstring).

    Args:
        reviews: the learner's reviews, any order, every card mixed.
        learner_tz: the learner's timezone, which decides their days.
        excluded_card_ids: cards to leave out (suspended or buried ones).
    """
    by_card: dict[Hashable, list[CardReview]] = defaultdict(list)
    for review in reviews:
        if review.card_id not in excluded_card_ids:
            by_card[review.card_id].append(review)
    items = []
    for card_id, card_reviews in by_card.items():
        ordered = sorted(card_reviews, key=lambda review: review.reviewed_at)
        history = tuple(card_history(ordered, learner_tz))
        for index in range(1, len(history)):
            if history[index][1] > 0:
                items.append(
                    TrainingItem(card_id, ordered[index].reviewed_at, history[: index + 1])
                )
    return sort_by_time(items)


def sort_by_time(items: Iterable[TrainingItem]) -> list[TrainingItem]:
    """Items in the order their predicted reviews happened (pooling several learners' items
    keeps the time order a time-series split needs); ties keep their order."""
    return sorted(items, key=lambda item: item.reviewed_at)
