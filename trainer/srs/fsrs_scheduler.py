"""FSRS (FSRS-6) through the ``fsrs`` package (py-fsrs 6.3.2), behind the same interface as SM-2.

Quality to rating (``RATING_FOR_QUALITY``): SM-2's q < 3 is an incorrect response, which is
FSRS's Again; q = 3 ("correct, recalled with serious difficulty") is Hard; q = 4 ("correct after
a hesitation") is Good; q = 5 ("perfect") is Easy. The self-rating caps in ``quality.py`` are the
inverse of this table, so a learner who presses Hard gets Hard.

Choices, and why:

- **No fuzz.** py-fsrs fuzzes intervals with ``random()`` by default. A fuzzed schedule could not
  be recomputed from the review log (switching scheduler would move every due date at random),
  and interview-mode planning would not be reproducible. With a deck of a few dozen problems the
  clustering that fuzz prevents does not arise.
- The package's default parameters, desired retention 0.9 and learning steps (1 min, 10 min) and
  relearning step (10 min): a new card answered Good comes back 10 minutes later, an Again comes
  back the same day. These are the package's answer to SM-2's same-day re-drill.
- **Day-scale due dates start at the learner's midnight.** When FSRS schedules a card one or more
  days ahead, it is due from the start of that learner day rather than from the minute of the
  last review (as SM-2, and Anki, count days); same-day steps keep their exact minute.
- **Elapsed time is counted in learner days**, as Anki counts it and as the fitted parameters
  (``fsrs_items``) were learnt: a review at 08:00 after one at 20:00 the evening before is one
  day later, not a same-day review. py-fsrs counts 24-hour periods from the last review's
  instant, so it is handed the last review moved back to the same time of day, whole learner
  days before the review (``_day_counted``); the stored state keeps the real instant.
- Every instant handed to py-fsrs is converted to ``datetime.UTC``: py-fsrs refuses any other
  ``tzinfo``, even another UTC object. Card ids are fixed at 0 and new cards get an explicit due
  date, because ``fsrs.Card()`` would otherwise read the clock and sleep 1 ms.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Any

import fsrs

from trainer.srs.days import day_start, learner_day, require_utc
from trainer.srs.interface import (
    CardState,
    Mastery,
    ReviewOutcome,
    ReviewRecord,
    check_quality,
    check_scheduler_name,
    replay_history,
)

NAME = "fsrs"
RATING_FOR_QUALITY = {
    0: fsrs.Rating.Again,
    1: fsrs.Rating.Again,
    2: fsrs.Rating.Again,
    3: fsrs.Rating.Hard,
    4: fsrs.Rating.Good,
    5: fsrs.Rating.Easy,
}
PHASES = {
    "learning": fsrs.State.Learning,
    "review": fsrs.State.Review,
    "relearning": fsrs.State.Relearning,
}
DEFAULT_PARAMETERS: tuple[float, ...] = tuple(fsrs.scheduler.DEFAULT_PARAMETERS)
"""py-fsrs's 21 FSRS-6 parameters, fitted by its authors on many Anki users' reviews."""
_PHASE_NAMES = {value: key for key, value in PHASES.items()}
STABILITY_MAX_DAYS = 36500.0
"""Stability cap [days] of fsrs-rs (and so of Anki and of the fitted parameters); py-fsrs has
none, and a stability past it would make the two disagree on every later review."""
_NEVER = datetime(1970, 1, 1, tzinfo=UTC)
"""Due date handed to py-fsrs for a new card; py-fsrs only writes ``due``, never reads it."""


def rating_for_quality(quality: int) -> fsrs.Rating:
    """The FSRS rating for an SM-2 quality 0..5 (module docstring)."""
    return RATING_FOR_QUALITY[check_quality(quality)]


@dataclass(frozen=True)
class FsrsState:
    """FSRS state of one card (py-fsrs ``Card`` without its id).

    Attributes:
        phase: ``"learning"``, ``"review"`` or ``"relearning"``.
        step: current (re)learning step, ``None`` in the review phase.
        stability: days until recall falls to 0.9 [days]; ``None`` before the first review.
        difficulty: 1 (easiest) .. 10 (hardest); ``None`` before the first review.
        due: instant py-fsrs scheduled (UTC); ``None`` before the first review.
        last_review: instant of the last review (UTC); ``None`` before the first review.
    """

    phase: str = "learning"
    step: int | None = 0
    stability: float | None = None
    difficulty: float | None = None
    due: datetime | None = None
    last_review: datetime | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON dict: ``{"scheduler": "fsrs", "phase", "step", "stability", "difficulty",
        "due": ISO 8601 | None, "last_review": ISO 8601 | None}``."""
        return {
            "scheduler": NAME,
            "phase": self.phase,
            "step": self.step,
            "stability": self.stability,
            "difficulty": self.difficulty,
            "due": None if self.due is None else self.due.isoformat(),
            "last_review": None if self.last_review is None else self.last_review.isoformat(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "FsrsState":
        """Read a state written by ``to_dict``."""
        check_scheduler_name(data, NAME)
        if data["phase"] not in PHASES:
            raise ValueError(f"unknown FSRS phase {data['phase']!r}")
        return cls(
            phase=data["phase"],
            step=None if data["step"] is None else int(data["step"]),
            stability=None if data["stability"] is None else float(data["stability"]),
            difficulty=None if data["difficulty"] is None else float(data["difficulty"]),
            due=_read_instant(data["due"]),
            last_review=_read_instant(data["last_review"]),
        )

    def to_card(self) -> fsrs.Card:
        """The py-fsrs card for this state."""
        return fsrs.Card(
            card_id=0,
            state=PHASES[self.phase],
            step=self.step,
            stability=self.stability,
            difficulty=self.difficulty,
            due=_NEVER if self.due is None else self.due,
            last_review=self.last_review,
        )

    @classmethod
    def from_card(cls, card: fsrs.Card) -> "FsrsState":
        """The state of a py-fsrs card that has been reviewed."""
        return cls(
            phase=_PHASE_NAMES[card.state],
            step=card.step,
            stability=card.stability,
            difficulty=card.difficulty,
            due=require_utc(card.due),
            last_review=None if card.last_review is None else require_utc(card.last_review),
        )


def _read_instant(text: str | None) -> datetime | None:
    return None if text is None else require_utc(datetime.fromisoformat(text))


class FsrsScheduler:
    """FSRS for one learner: py-fsrs with fuzz off, plus the learner's timezone for days."""

    name = NAME

    def __init__(
        self,
        learner_tz: tzinfo = UTC,
        *,
        desired_retention: float = 0.9,
        parameters: Sequence[float] = DEFAULT_PARAMETERS,
        learning_steps: Sequence[timedelta] = (timedelta(minutes=1), timedelta(minutes=10)),
        relearning_steps: Sequence[timedelta] = (timedelta(minutes=10),),
        maximum_interval_days: int = 36500,
    ) -> None:
        if not 0 < desired_retention < 1:
            raise ValueError(f"desired retention must be in (0, 1), got {desired_retention}")
        self.learner_tz = learner_tz
        self.engine = fsrs.Scheduler(
            parameters=parameters,
            desired_retention=desired_retention,
            learning_steps=tuple(learning_steps),
            relearning_steps=tuple(relearning_steps),
            maximum_interval=maximum_interval_days,
            enable_fuzzing=False,
        )

    def new_state(self) -> FsrsState:
        """A card never reviewed (learning phase, step 0)."""
        return FsrsState()

    def state_from_dict(self, data: dict[str, Any]) -> FsrsState:
        """Read an ``FsrsState`` from its JSON dict."""
        return FsrsState.from_dict(data)

    def review(self, state: CardState, quality: int, reviewed_at: datetime) -> ReviewOutcome:
        """Apply one review of SM-2 quality ``quality`` at ``reviewed_at`` (timezone-aware)."""
        fsrs_state = _as_fsrs(state)
        moment = require_utc(reviewed_at)
        if fsrs_state.last_review is not None and moment < fsrs_state.last_review:
            raise ValueError(
                f"review at {moment} is before the last review at {fsrs_state.last_review}"
            )
        card, _ = self.engine.review_card(
            self._day_counted(fsrs_state, moment),
            rating_for_quality(quality),
            review_datetime=moment,
        )
        if card.stability is not None:
            card.stability = min(card.stability, STABILITY_MAX_DAYS)
        return self.outcome(FsrsState.from_card(card))

    def replay(self, history: Iterable[ReviewRecord]) -> ReviewOutcome:
        """Recompute a card from its review log."""
        return replay_history(self, history)

    def outcome(self, state: CardState) -> ReviewOutcome:
        """Due instant (day-scale dues moved to the learner's midnight) and same-day flag."""
        fsrs_state = _as_fsrs(state)
        if fsrs_state.due is None or fsrs_state.last_review is None:
            return ReviewOutcome(fsrs_state, None, False, None)
        due_day = learner_day(fsrs_state.due, self.learner_tz)
        same_day = due_day == learner_day(fsrs_state.last_review, self.learner_tz)
        due = fsrs_state.due if same_day else day_start(due_day, self.learner_tz)
        return ReviewOutcome(fsrs_state, due, same_day, None)

    def predicted_recall(self, state: CardState, at: datetime) -> float:
        """FSRS retrievability at ``at``, counting whole learner days since the last review."""
        fsrs_state = _as_fsrs(state)
        if fsrs_state.stability is None or fsrs_state.last_review is None:
            return 0.0
        moment = require_utc(at)
        card = self._day_counted(fsrs_state, moment)
        return float(self.engine.get_card_retrievability(card, moment))

    def _day_counted(self, state: FsrsState, at: datetime) -> fsrs.Card:
        """The py-fsrs card for ``state`` whose last review lies exactly as many 24-hour periods
        before ``at`` as there are learner days between them (module docstring)."""
        card = state.to_card()
        if state.last_review is not None:
            days = (
                learner_day(at, self.learner_tz) - learner_day(state.last_review, self.learner_tz)
            ).days
            card.last_review = at - timedelta(days=days)
        return card

    def mastery(self, state: CardState, at: datetime) -> Mastery:
        """Stability, difficulty and recall; the interval is last review to due [days]."""
        fsrs_state = _as_fsrs(state)
        interval = None
        if fsrs_state.due is not None and fsrs_state.last_review is not None:
            due_day = learner_day(fsrs_state.due, self.learner_tz)
            interval = (due_day - learner_day(fsrs_state.last_review, self.learner_tz)).days
        return Mastery(
            scheduler=NAME,
            interval_days=interval,
            easiness=None,
            stability_days=fsrs_state.stability,
            difficulty=fsrs_state.difficulty,
            recall=self.predicted_recall(fsrs_state, at),
        )


def _as_fsrs(state: CardState) -> FsrsState:
    if not isinstance(state, FsrsState):
        raise TypeError(f"FSRS cannot read a {type(state).__name__}; replay the review log")
    return state
