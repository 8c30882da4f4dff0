"""The order of the practice queue, and when the next card comes if nothing is left.

Order of a session:

1. **Due reviews**: cards whose due instant has passed, most overdue first (or, if the learner
   prefers, lowest predicted recall first), at most the daily review cap minus the reviews of due
   cards already done today.
2. **New cards**: never reviewed, in plan order (``new_rank``), at most the daily new-card limit
   minus the new cards already introduced today.
3. **Re-drills**: SM-2 cards that scored below 4 today. SM-2 repeats them "after each repetition
   session of a given day", so they come last, the one reviewed longest ago first; they are not
   capped, because leaving a failed card unrepaired is what SM-2's same-day rule forbids.

Two rules keep a failed card from coming back over and over, and a buried card away:

- **Not twice in a row while another card waits**: the card of the learner's latest review goes
  to the end of the queue (``recent_keys``).
- **Never three times in a row**: a card reviewed twice in a row that is the only one left waits
  ``REPEAT_PAUSE`` after its last review, and the page says when it is back.
- A card held back (buried until the next learner day: ``held_until``) is not in the queue until
  then; a suspended card is not passed in at all.

The caller counts what was done today over the learner day (``days.day_start`` of today to that
of tomorrow) and passes the counts in; nothing here reads the clock.
"""

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from typing import Literal

from trainer.srs.days import next_day_start, require_utc
from trainer.srs.interface import CardState, Scheduler

QueueOrder = Literal["overdue", "recall"]
REPEAT_PAUSE = timedelta(minutes=10)
"""How long a card reviewed twice in a row waits when it is the only one left: FSRS's (and
Anki's) relearning step, long enough for the answer to leave short-term memory."""


@dataclass(frozen=True)
class QueueCard:
    """What the queue needs to know about one card.

    Attributes:
        key: the caller's identifier for the card (a primary key, a problem number).
        due: UTC instant from which the card is due; ``None`` for a new card.
        redrill_until: while an SM-2 re-drill is pending, the end of that learner day.
        predicted_recall: recall now, in [0, 1]; needed only for the ``"recall"`` order.
        new_rank: position of a new card in the learner's plan (lower comes first).
        last_reviewed_at: UTC instant of the card's latest review; ``None`` for a new card.
        held_until: the card is held back (buried) until this UTC instant; ``None``: not held.
    """

    key: Hashable
    due: datetime | None
    redrill_until: datetime | None = None
    predicted_recall: float | None = None
    new_rank: int = 0
    last_reviewed_at: datetime | None = None
    held_until: datetime | None = None


def queue_card(
    key: Hashable,
    scheduler: Scheduler,
    state: CardState,
    now: datetime,
    *,
    due: datetime | None = None,
    new_rank: int = 0,
    last_reviewed_at: datetime | None = None,
    held_until: datetime | None = None,
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
        last_reviewed_at=None if last_reviewed_at is None else require_utc(last_reviewed_at),
        held_until=None if held_until is None else require_utc(held_until),
    )


@dataclass(frozen=True)
class PracticeQueue:
    """The cards to practise now, in order, and when more become available.

    Attributes:
        keys: every card to practise now, in order (due, then new, then re-drills; the card
            just reviewed last).
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
    recent_keys: Sequence[Hashable] = (),
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
        recent_keys: the cards of the learner's latest reviews, newest first (two are enough).
    """
    moment = require_utc(now)
    due, new, redrill, later = _split(cards, moment)
    due = _sort_due(due, order)
    new = sorted(new, key=lambda card: card.new_rank)
    redrill = sorted(redrill, key=_reviewed_before)
    review_room = max(0, review_cap - reviews_done_today)
    new_room = max(0, new_limit - new_done_today)
    waiting = [_available_at(card) for card in later]
    if len(due) > review_room or len(new) > new_room:
        waiting.append(next_day_start(moment, learner_tz))
    shown = due[:review_room] + new[:new_room] + redrill
    last = recent_keys[0] if recent_keys else None
    just_reviewed = [card for card in shown if card.key == last]
    if just_reviewed and len(shown) > 1:
        shown = [card for card in shown if card.key != last] + just_reviewed
    elif just_reviewed and len(recent_keys) > 1 and recent_keys[1] == last:
        reviewed_at = just_reviewed[0].last_reviewed_at or moment
        if moment < reviewed_at + REPEAT_PAUSE:
            shown = []
            waiting.append(reviewed_at + REPEAT_PAUSE)
    keys = tuple(card.key for card in shown)
    return PracticeQueue(
        keys=keys,
        due_keys=tuple(card.key for card in due[:review_room] if card.key in keys),
        new_keys=tuple(card.key for card in new[:new_room] if card.key in keys),
        redrill_keys=tuple(card.key for card in redrill if card.key in keys),
        due_total=len(due),
        next_at=min(waiting, default=None),
    )


def _reviewed_before(card: QueueCard) -> tuple[bool, datetime | None]:
    return (card.last_reviewed_at is not None, card.last_reviewed_at)


def _available_at(card: QueueCard) -> datetime:
    """When a card not available now becomes available: due, and no longer held."""
    moments = [moment for moment in (card.due, card.held_until) if moment is not None]
    return max(moments)


def _split(
    cards: Iterable[QueueCard], now: datetime
) -> tuple[list[QueueCard], list[QueueCard], list[QueueCard], list[QueueCard]]:
    """Due now, new, pending re-drill, and later (held back, or due later; a re-drill takes
    precedence over the due date)."""
    due, new, redrill, later = [], [], [], []
    for card in cards:
        if card.held_until is not None and now < card.held_until:
            later.append(card)
        elif card.redrill_until is not None and now < card.redrill_until:
            redrill.append(card)
        elif card.due is None:
            new.append(card)
        elif card.due <= now:
            due.append(card)
        else:
            later.append(card)
    return due, new, redrill, later


def _due(card: QueueCard) -> datetime:
    """The due instant of a card `_split` put among the due ones (they all have one)."""
    if card.due is None:
        raise ValueError("a new card has no due date to sort by")
    return card.due


def _sort_due(cards: list[QueueCard], order: QueueOrder) -> list[QueueCard]:
    if order == "overdue":
        return sorted(cards, key=_due)
    if order == "recall":
        if any(card.predicted_recall is None for card in cards):
            raise ValueError("the 'recall' order needs predicted_recall on every due card")
        return sorted(cards, key=lambda card: (card.predicted_recall or 0.0, _due(card)))
    raise ValueError(f"unknown queue order {order!r}")
