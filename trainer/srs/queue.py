"""The order of the practice queue, and when the next card comes if nothing is left.

Order of a session:

1. **Due reviews**: cards whose due instant has passed, most overdue first (or, if the learner
   prefers, lowest predicted recall first), at most the daily review cap minus the reviews of due
   cards already done today.
2. **New cards**: never reviewed, in plan order (``new_rank``), at most the daily new-card limit
   minus the new cards already introduced today.
3. **Re-drills**: SM-2 cards that scored below 4 today. SM-2 repeats them "after each repetition
   session of a given day", so they come last; they are not capped, because leaving a failed
   card unrepaired is what SM-2's same-day rule forbids.

The caller counts what was done today over the learner day (``days.day_start`` of today to that
of tomorrow) and passes the counts in; nothing here reads the clock.
"""

from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Literal

from trainer.srs.days import next_day_start, require_utc
from trainer.srs.interface import CardState, Scheduler

QueueOrder = Literal["overdue", "recall"]


@dataclass(frozen=True)
class QueueCard:
    """What the queue needs to know about one card.

    Attributes:
        key: the caller's identifier for the card (a primary key, a problem number).
        due: UTC instant from which the card is due; ``None`` for a new card.
        redrill_until: while an SM-2 re-drill is pending, the end of that learner day.
        predicted_recall: recall now, in [0, 1]; needed only for the ``"recall"`` order.
        new_rank: position of a new card in the learner's plan (lower comes first).
    """

    key: Hashable
    due: datetime | None
    redrill_until: datetime | None = None
    predicted_recall: float | None = None
    new_rank: int = 0


def queue_card(
    key: Hashable,
    scheduler: Scheduler,
    state: CardState,
    now: datetime,
    *,
    due: datetime | None = None,
    new_rank: int = 0,
) -> QueueCard:
    """A ``QueueCard`` from a stored state; ``due`` overrides the scheduler's due date (as
    interview mode does)."""
    outcome = scheduler.outcome(state)
    return QueueCard(
        key=key,
        due=outcome.due if due is None else require_utc(due),
        redrill_until=outcome.redrill_until,
        predicted_recall=scheduler.predicted_recall(state, now),
        new_rank=new_rank,
    )


@dataclass(frozen=True)
class PracticeQueue:
    """The cards to practise now, in order, and when more become available.

    Attributes:
        keys: every card to practise now, in order (due, then new, then re-drills).
        due_keys: the due reviews, after the cap.
        new_keys: the new cards, after the limit.
        redrill_keys: the pending same-day re-drills.
        due_total: cards due now before the cap (the dashboard's "due now").
        next_at: the earliest UTC instant after ``now`` at which a card not in ``keys`` becomes
            available (a future due date, or the next learner day when a limit held cards
            back); ``None`` if no card will ever become available.
    """

    keys: tuple[Hashable, ...]
    due_keys: tuple[Hashable, ...]
    new_keys: tuple[Hashable, ...]
    redrill_keys: tuple[Hashable, ...]
    due_total: int
    next_at: datetime | None


def build_queue(
    cards: Iterable[QueueCard],
    now: datetime,
    *,
    learner_tz: tzinfo,
    new_limit: int,
    new_done_today: int,
    review_cap: int,
    reviews_done_today: int,
    order: QueueOrder = "overdue",
) -> PracticeQueue:
    """Order the practice queue at ``now`` (module docstring).

    Args:
        cards: every card of the learner, new ones included.
        now: the current instant (timezone-aware).
        learner_tz: the learner's timezone (the daily limits reset at its midnight).
        new_limit: new cards allowed per learner day.
        new_done_today: new cards already introduced today.
        review_cap: reviews of due cards allowed per learner day.
        reviews_done_today: reviews of due cards already done today (re-drills excluded).
        order: ``"overdue"`` (earliest due first) or ``"recall"`` (lowest predicted recall
            first, then earliest due).
    """
    moment = require_utc(now)
    due, new, redrill, later = _split(cards, moment)
    due = _sort_due(due, order)
    new = sorted(new, key=lambda card: card.new_rank)
    review_room = max(0, review_cap - reviews_done_today)
    new_room = max(0, new_limit - new_done_today)
    waiting = [card.due for card in later if card.due is not None]
    if len(due) > review_room or len(new) > new_room:
        waiting.append(next_day_start(moment, learner_tz))
    due_keys = tuple(card.key for card in due[:review_room])
    new_keys = tuple(card.key for card in new[:new_room])
    redrill_keys = tuple(card.key for card in redrill)
    return PracticeQueue(
        keys=due_keys + new_keys + redrill_keys,
        due_keys=due_keys,
        new_keys=new_keys,
        redrill_keys=redrill_keys,
        due_total=len(due),
        next_at=min(waiting, default=None),
    )


def _split(
    cards: Iterable[QueueCard], now: datetime
) -> tuple[list[QueueCard], list[QueueCard], list[QueueCard], list[QueueCard]]:
    """Due now, new, pending re-drill, and due later (a re-drill takes precedence)."""
    due, new, redrill, later = [], [], [], []
    for card in cards:
        if card.redrill_until is not None and now < card.redrill_until:
            redrill.append(card)
        elif card.due is None:
            new.append(card)
        elif card.due <= now:
            due.append(card)
        else:
            later.append(card)
    return due, new, redrill, later


def _sort_due(cards: list[QueueCard], order: QueueOrder) -> list[QueueCard]:
    if order == "overdue":
        return sorted(cards, key=lambda card: card.due)
    if order == "recall":
        if any(card.predicted_recall is None for card in cards):
            raise ValueError("the 'recall' order needs predicted_recall on every due card")
        return sorted(cards, key=lambda card: (card.predicted_recall, card.due))
    raise ValueError(f"unknown queue order {order!r}")
