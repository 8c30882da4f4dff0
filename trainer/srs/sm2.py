"""SM-2, as SuperMemo published it, in exact integer arithmetic.

Reference: P. A. Wozniak, "Optimization of Learning" (1990), algorithm SM-2, as published at
super-memory.com/english/ol/sm2.htm:

- every item starts with E-Factor EF = 2.5;
- intervals I(1) = 1, I(2) = 6, I(n) = I(n-1) * EF for n > 2 [days], a fraction rounded **up**;
- after each repetition, EF' = EF + (0.1 - (5 - q)(0.08 + (5 - q) * 0.02)), and EF is at least 1.3;
- q < 3 starts the repetitions "from the beginning without changing the E-Factor (i.e. use
  intervals I(1), I(2) etc. as if the item was memorized anew)";
- items that scored below 4 are repeated the same day until they score at least 4.

The text leaves points open. What this module does, and why:

1. **EF is updated on every review, including q < 3.** Step 5 says "after each repetition";
   step 6's "without changing the E-Factor" is read as "without resetting it to 2.5 as for a new
   item", which is the contrast its parenthesis draws. The alternative (freeze EF on a lapse)
   would leave an item that is forgotten again and again at EF 2.5 forever, while EF exists to
   measure exactly that difficulty; a lapse is the strongest evidence of it (q = 0 costs 0.80).
2. **I(n) uses the EF after this review's update.** Within one repetition the text orders the
   steps: assess q, then modify EF; the next interval is fixed at that point, so it uses the
   current EF. It also makes the review's own answer count at once: q = 5 lengthens and q = 3
   shortens the very next interval, rather than one interval later.
3. **Same-day repetitions change nothing but the re-drill flag.** Only the first review of a
   learner day is an SM-2 repetition. Later reviews that day (the re-drills that step 7 demands
   after a score below 4, or any extra practice) leave EF, the repetition count and the interval
   alone; a score below 4 keeps (or sets) the re-drill pending, 4 or 5 clears it. Re-drills
   happen minutes after seeing the solution, so their scores measure short-term memory, and
   letting them move EF would charge one lapse two or three times in a day.
4. **A lapse counts as the first repetition of a fresh start.** "Use intervals I(1), I(2) etc."
   means the intervals after a lapse are 1 day, then 6 days, then 6 * EF. The lapse review is
   the re-memorisation, so it is repetition 1 and sets I(1) = 1. (Many ports set the count to 0
   and so give the interval of 1 day twice, 1, 1, 6, which the text does not say.)
5. SM-2 knows no lateness: I(n) is computed from the previous *scheduled* interval, whenever
   the review actually happened, and a review before its due day counts like any other.

Exact arithmetic: every EF change is a whole number of hundredths (+0.10, 0, -0.14, -0.32,
-0.54, -0.80), so EF is kept as an integer number of hundredths and I(n) = ceil(I(n-1) * EF) is
computed in integers. In binary floating point 2.5 + 4 * 0.1 is 2.9000000000000004 and
50 * that rounds up to 146 days instead of 145.

Days are the learner's calendar days (``days.learner_day``): a card reviewed on day d with
interval I is due from the start of day d + I in the learner's timezone.
"""

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta, tzinfo
from fractions import Fraction
from typing import Any

from trainer.srs.days import day_start, learner_day
from trainer.srs.interface import (
    CardState,
    Mastery,
    ReviewOutcome,
    ReviewRecord,
    check_quality,
    check_scheduler_name,
    replay_history,
)

NAME = "sm2"
INITIAL_EASINESS_HUNDREDTHS = 250
MINIMUM_EASINESS_HUNDREDTHS = 130
PASSING_QUALITY = 3
"""q >= 3 is a correct response and continues the repetitions; q < 3 restarts them."""
SETTLED_QUALITY = 4
"""q >= 4 ends the day's re-drills; q < 4 brings the card back the same day."""
RECALL_AT_INTERVAL = 0.9
"""Assumed recall at the end of an SM-2 interval (see ``sm2_recall``)."""
MAXIMUM_INTERVAL_DAYS = 36500
"""The longest interval [days], as FSRS's default maximum: SM-2 itself has none, and I(n)
grows geometrically, so without one a long run of good reviews (or interview mode planning
towards a far date) would push a due day past the calendar's end (year 9999)."""


@dataclass(frozen=True)
class Sm2State:
    """SM-2 state of one card.

    Attributes:
        repetitions: n, the number of repetitions since the card was (re)memorised; the current
            interval is I(n). 0 for a new card.
        easiness_hundredths: E-Factor in hundredths (250 means EF = 2.50).
        interval_days: current interval I(n) [days]; 0 for a new card.
        last_review_day: learner day of the last SM-2 repetition (first review of that day).
        redrill: the last review scored below 4 on ``last_review_day``, so the card must be
            repeated that same day.
    """

    repetitions: int = 0
    easiness_hundredths: int = INITIAL_EASINESS_HUNDREDTHS
    interval_days: int = 0
    last_review_day: date | None = None
    redrill: bool = False

    @property
    def easiness(self) -> Fraction:
        """E-Factor as an exact fraction."""
        return Fraction(self.easiness_hundredths, 100)

    @property
    def due_day(self) -> date | None:
        """Learner day from which the next repetition is due; ``None`` for a new card."""
        if self.last_review_day is None:
            return None
        return self.last_review_day + timedelta(days=self.interval_days)

    def to_dict(self) -> dict[str, Any]:
        """JSON dict: ``{"scheduler": "sm2", "repetitions", "easiness_hundredths",
        "interval_days", "last_review_day": "YYYY-MM-DD" | None, "redrill"}``."""
        return {
            "scheduler": NAME,
            "repetitions": self.repetitions,
            "easiness_hundredths": self.easiness_hundredths,
            "interval_days": self.interval_days,
            "last_review_day": (
                None if self.last_review_day is None else self.last_review_day.isoformat()
            ),
            "redrill": self.redrill,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Sm2State":
        """Read a state written by ``to_dict``; refuse anything inconsistent."""
        check_scheduler_name(data, NAME)
        last = data["last_review_day"]
        state = cls(
            repetitions=int(data["repetitions"]),
            easiness_hundredths=int(data["easiness_hundredths"]),
            interval_days=int(data["interval_days"]),
            last_review_day=None if last is None else date.fromisoformat(last),
            redrill=bool(data["redrill"]),
        )
        _check_state(state)
        return state


def _check_state(state: Sm2State) -> None:
    if state.easiness_hundredths < MINIMUM_EASINESS_HUNDREDTHS:
        raise ValueError(f"E-Factor below 1.30: {state.easiness_hundredths} hundredths")
    if (state.last_review_day is None) != (state.repetitions == 0):
        raise ValueError("a card has a last review day exactly when it has repetitions")
    if state.repetitions > 0 and state.interval_days < 1:
        raise ValueError("a reviewed card has an interval of at least one day")


def easiness_change_hundredths(quality: int) -> int:
    """100 * (0.1 - (5 - q)(0.08 + (5 - q) * 0.02)), exactly: +10, 0, -14, -32, -54, -80 for
    q = 5 … 0."""
    shortfall = 5 - check_quality(quality)
    return 10 - shortfall * (8 + 2 * shortfall)


def next_easiness_hundredths(easiness_hundredths: int, quality: int) -> int:
    """EF' in hundredths, floored at 1.30."""
    changed = easiness_hundredths + easiness_change_hundredths(quality)
    return max(MINIMUM_EASINESS_HUNDREDTHS, changed)


def interval_days(repetitions: int, previous_interval_days: int, easiness_hundredths: int) -> int:
    """I(n) [days]: 1, 6, then ceil(I(n-1) * EF), in integers so nothing drifts, at most
    ``MAXIMUM_INTERVAL_DAYS``."""
    if repetitions < 1:
        raise ValueError(f"repetitions start at 1, got {repetitions}")
    if repetitions == 1:
        return 1
    if repetitions == 2:
        return 6
    return min(-(-previous_interval_days * easiness_hundredths // 100), MAXIMUM_INTERVAL_DAYS)


def sm2_step(state: Sm2State, quality: int, review_day: date) -> Sm2State:
    """The SM-2 state after a review of quality ``quality`` on learner day ``review_day``.

    The first review of a day is a repetition (EF, n and I change); later reviews the same day
    only set or clear the re-drill flag (module docstring, points 1–4).
    """
    check_quality(quality)
    last = state.last_review_day
    if last is not None and review_day < last:
        raise ValueError(f"review on {review_day} is before the last review on {last}")
    redrill = quality < SETTLED_QUALITY
    if review_day == last:
        return replace(state, redrill=redrill)
    easiness = next_easiness_hundredths(state.easiness_hundredths, quality)
    repetitions = 1 if quality < PASSING_QUALITY else state.repetitions + 1
    interval = interval_days(repetitions, state.interval_days, easiness)
    return Sm2State(repetitions, easiness, interval, review_day, redrill)


def sm2_recall(days_since_review: float, interval: int) -> float:
    """Predicted recall ``days_since_review`` days after a review scheduled with ``interval``.

    Model: exponential forgetting, R(t) = exp(-t / S) (Ebbinghaus 1885; the retrievability curve
    of Wozniak, Gorzelańczyk & Murakowski, "Two components of long-term memory", Acta Neurobiol.
    Exp. 55:301–305, 1995), with the stability S derived from the interval by assuming that
    SM-2's interval ends when recall has fallen to 0.9 (SuperMemo's default forgetting index of
    10%; also FSRS's default desired retention): S = I / ln(1 / 0.9), i.e. R(t) = 0.9 ** (t / I).
    SM-2 itself predicts no recall; this is our assumption, stated so it can be replaced.
    """
    if interval < 1:
        raise ValueError(f"interval must be at least 1 day, got {interval}")
    if days_since_review <= 0:
        return 1.0
    return RECALL_AT_INTERVAL ** (days_since_review / interval)


class Sm2Scheduler:
    """SM-2 for one learner (the timezone decides which calendar day a review falls on)."""

    name = NAME

    def __init__(self, learner_tz: tzinfo = UTC) -> None:
        self.learner_tz = learner_tz

    def new_state(self) -> Sm2State:
        """A card never reviewed: EF 2.5, no repetitions."""
        return Sm2State()

    def state_from_dict(self, data: dict[str, Any]) -> Sm2State:
        """Read an ``Sm2State`` from its JSON dict."""
        return Sm2State.from_dict(data)

    def review(self, state: CardState, quality: int, reviewed_at: datetime) -> ReviewOutcome:
        """Apply one review at the instant ``reviewed_at`` (timezone-aware)."""
        sm2_state = _as_sm2(state)
        day = learner_day(reviewed_at, self.learner_tz)
        return self.outcome(sm2_step(sm2_state, quality, day))

    def replay(self, history: Iterable[ReviewRecord]) -> ReviewOutcome:
        """Recompute a card from its review log."""
        return replay_history(self, history)

    def outcome(self, state: CardState) -> ReviewOutcome:
        """Due from the start of the due day; a pending re-drill lasts until the day ends."""
        sm2_state = _as_sm2(state)
        due_day = sm2_state.due_day
        due = None if due_day is None else day_start(due_day, self.learner_tz)
        redrill_until = None
        if sm2_state.redrill and sm2_state.last_review_day is not None:
            redrill_until = day_start(
                sm2_state.last_review_day + timedelta(days=1), self.learner_tz
            )
        return ReviewOutcome(sm2_state, due, sm2_state.redrill, redrill_until)

    def predicted_recall(self, state: CardState, at: datetime) -> float:
        """Recall on the learner day of ``at`` (``sm2_recall``); 0 for a new card."""
        sm2_state = _as_sm2(state)
        if sm2_state.last_review_day is None:
            return 0.0
        elapsed = (learner_day(at, self.learner_tz) - sm2_state.last_review_day).days
        return sm2_recall(elapsed, sm2_state.interval_days)

    def mastery(self, state: CardState, at: datetime) -> Mastery:
        """Interval and ease, plus the stability and recall of the forgetting-curve model."""
        sm2_state = _as_sm2(state)
        reviewed = sm2_state.last_review_day is not None
        return Mastery(
            scheduler=NAME,
            interval_days=sm2_state.interval_days if reviewed else None,
            easiness=float(sm2_state.easiness),
            stability_days=float(sm2_state.interval_days) if reviewed else None,
            difficulty=None,
            recall=self.predicted_recall(sm2_state, at),
        )


def _as_sm2(state: CardState) -> Sm2State:
    if not isinstance(state, Sm2State):
        raise TypeError(f"SM-2 cannot read a {type(state).__name__}; replay the review log")
    return state
