"""The one small interface that SM-2 and FSRS both implement.

A scheduler is a plain object built per learner (it knows the learner's timezone and options):

- ``learner_tz``: the learner's timezone, which decides the calendar day of a review.
- ``name``: ``"sm2"`` or ``"fsrs"``, stored with every state so a state is never read by the
  wrong scheduler.
- ``new_state()``: the state of a card that has never been reviewed.
- ``review(state, quality, reviewed_at) -> ReviewOutcome``: apply one graded review.
- ``replay(history) -> ReviewOutcome``: recompute a card from its review log (used when the
  learner switches scheduler: the log, not the old state, is the source of truth).
- ``outcome(state) -> ReviewOutcome``: the schedule implied by a stored state.
- ``predicted_recall(state, at) -> float``: probability of recall at an instant, in [0, 1].
- ``mastery(state, at) -> Mastery``: the numbers the dashboard shows per problem.
- ``state_from_dict(data)``: read a state back from its JSON dict (``state.to_dict()``).

Quality is SM-2's 0–5 scale everywhere (see ``quality.py``); FSRS maps it to its four ratings.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any, Protocol, runtime_checkable

from trainer.srs.days import require_utc

QUALITIES = range(6)
"""SM-2 quality of a response: 0 blackout … 5 perfect (Wozniak 1990)."""


def check_quality(quality: int) -> int:
    """Return ``quality`` if it is an int in 0..5, else raise ``ValueError``."""
    if isinstance(quality, bool) or not isinstance(quality, int) or quality not in QUALITIES:
        raise ValueError(f"quality must be an integer 0..5, got {quality!r}")
    return quality


@runtime_checkable
class CardState(Protocol):
    """A scheduler's per-card state: immutable, and serialisable to a JSON dict."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible dict with a ``"scheduler"`` key naming its scheduler."""
        ...


@dataclass(frozen=True)
class ReviewRecord:
    """One entry of a card's review log: what the scheduler needs to replay it.

    Attributes:
        quality: SM-2 quality 0..5 of the review.
        reviewed_at: when it happened (timezone-aware; normalised to UTC).
    """

    quality: int
    reviewed_at: datetime

    def __post_init__(self) -> None:
        check_quality(self.quality)
        object.__setattr__(self, "reviewed_at", require_utc(self.reviewed_at))


@dataclass(frozen=True)
class ReviewOutcome:
    """A card's state and the schedule it implies.

    Attributes:
        state: the new card state (store ``state.to_dict()``).
        due: UTC instant from which the card is due for its next scheduled review; ``None`` for
            a card never reviewed (a new card).
        repeat_today: the card comes back on the same learner day as its last review (SM-2: it
            scored below 4 and must be re-drilled; FSRS: a learning step lands today).
        redrill_until: SM-2 only: while a same-day re-drill is pending, the UTC instant at which
            the learner's day ends (the re-drill is available until then); else ``None``.
    """

    state: CardState
    due: datetime | None
    repeat_today: bool
    redrill_until: datetime | None


@dataclass(frozen=True)
class Mastery:
    """Per-problem numbers for the dashboard; a field a scheduler does not have is ``None``.

    Attributes:
        scheduler: ``"sm2"`` or ``"fsrs"``.
        interval_days: current interval [days] (last review to due).
        easiness: SM-2 E-Factor (1.3 and up).
        stability_days: days after the last review at which predicted recall falls to 0.9 [days].
        difficulty: FSRS difficulty (1 easiest .. 10 hardest).
        recall: predicted recall at the requested instant, in [0, 1] (0 for a new card).
    """

    scheduler: str
    interval_days: int | None
    easiness: float | None
    stability_days: float | None
    difficulty: float | None
    recall: float


class Scheduler(Protocol):
    """What the practice views, the queue and interview mode need from a scheduler."""

    name: str
    learner_tz: tzinfo

    def new_state(self) -> CardState: ...

    def state_from_dict(self, data: dict[str, Any]) -> CardState: ...

    def review(self, state: CardState, quality: int, reviewed_at: datetime) -> ReviewOutcome: ...

    def replay(self, history: Iterable[ReviewRecord]) -> ReviewOutcome: ...

    def outcome(self, state: CardState) -> ReviewOutcome: ...

    def predicted_recall(self, state: CardState, at: datetime) -> float: ...

    def mastery(self, state: CardState, at: datetime) -> Mastery: ...


def replay_history(scheduler: Scheduler, history: Iterable[ReviewRecord]) -> ReviewOutcome:
    """Fold a review log through ``scheduler`` from a new card, oldest review first.

    The sort is stable, so two reviews logged at the same instant keep their log order.
    """
    outcome = scheduler.outcome(scheduler.new_state())
    for record in sorted(history, key=lambda record: record.reviewed_at):
        outcome = scheduler.review(outcome.state, record.quality, record.reviewed_at)
    return outcome


def check_scheduler_name(data: dict[str, Any], expected: str) -> None:
    """Refuse a state dict written by another scheduler (or by no scheduler)."""
    found = data.get("scheduler") if isinstance(data, dict) else None
    if found != expected:
        raise ValueError(f"state belongs to scheduler {found!r}, not {expected!r}")
