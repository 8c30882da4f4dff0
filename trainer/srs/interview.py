"""Interview-date mode, and the 30-day forecast of reviews.

Neither SM-2 nor FSRS knows about a deadline: they space reviews for recall over the long run.
Interview mode plans, for each problem, the review days before the interview (day D) so that:

1. **Enough**: the problem has at least ``minimum_successful_reviews`` successful reviews before
   D. A successful review is the first review of a learner day with quality >= 3; a failed one
   (q < 3) starts the count again, so the count is the current run of successes.
2. **Never later than the day before**: every planned review falls on or before D - 1, and on or
   after today (tomorrow if the problem was already reviewed today: a second review the same day
   is a same-day repetition that the schedulers do not count).
3. **No shorter spacing than needed**: the plan is the scheduler's own chain of reviews (each
   review on the day the scheduler makes it due, assuming it passes with quality 4). Only when
   that chain gives too few reviews before D does the calendar force shorter spacing
   (``compressed``): the needed reviews keep the chain's proportions, scaled down so that the
   last one falls on D - 1, and the first one may come before its due day. Both shorten a gap,
   the gap from the previous review to the first planned one and the gaps within the chain, so
   the first day is chosen to shorten the worse of the two as little as possible. A new card has
   no previous gap and starts at once. With fewer days left than reviews needed there is one
   review a day and ``shortfall`` says how many are missing.
4. **As close to the interview as the spacing allows**: a compressed plan ends on D - 1. A plan
   that needed no compression keeps the scheduler's chain; if predicted recall on D would then
   fall below ``target_recall`` (0.95 by default: everyday scheduling aims at 0.9, the day of the
   interview deserves better), one last review is added on D - 1 (``refresher``).

Simulated reviews happen at local noon (``days.planning_instant``); recall on the day is
predicted at noon of D, with the scheduler's own model (FSRS retrievability; for SM-2 the
exponential forgetting curve of ``sm2.sm2_recall``). The plan is a pure function of the states,
logs and dates, so the caller recomputes it whenever the learner has reviewed something, and
shows ``next_review`` as the card's due day.
"""

import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta, tzinfo
from fractions import Fraction

from trainer.srs.days import day_start, learner_day, planning_instant
from trainer.srs.interface import CardState, ReviewOutcome, ReviewRecord, Scheduler
from trainer.srs.sm2 import PASSING_QUALITY

DEFAULT_MINIMUM_SUCCESSFUL_REVIEWS = 3
DEFAULT_TARGET_RECALL = 0.95
PLANNING_QUALITY = 4
"""Simulated reviews pass with q = 4 (FSRS Good): no same-day re-drill, no change of ease."""
MAX_SAME_DAY_STEPS = 32
MAX_DAYS_AHEAD = 2 * 366
"""Interview mode plans for an interview at most this many days away (the settings form refuses
a later date); a date stored further away is ignored rather than planned towards, since planning
towards the year 9990 would run the schedulers' due days past the calendar's end."""


def plans_for(interview_day: date | None, today: date) -> bool:
    """Whether interview mode plans towards ``interview_day`` (it is coming, and near enough)."""
    return interview_day is not None and today < interview_day <= today + timedelta(
        days=MAX_DAYS_AHEAD
    )


"""Bound on simulated same-day steps (FSRS learning steps); py-fsrs defaults need 1."""


@dataclass(frozen=True)
class InterviewCard:
    """A card as interview mode sees it: its stored state and its review log.

    The state must be the one the log leads to (``scheduler.replay(history).state``): the log
    says which days already had a review, the state what the scheduler made of them.
    """

    state: CardState
    history: Sequence[ReviewRecord] = ()


@dataclass(frozen=True)
class CardPlan:
    """The plan of one card before the interview.

    Attributes:
        review_days: planned review days, increasing, all in [first allowed day, D - 1].
        successful_reviews: current run of successful review days in the log.
        successful_reviews_on_day: that run plus the planned reviews (assumed to pass).
        compressed: the calendar forced spacing shorter than the scheduler's own.
        refresher: a last review was added on D - 1 to reach the target recall.
        shortfall: reviews still missing for the minimum (0 when the plan reaches it).
        recall_on_day: predicted recall at noon on the interview day, after the plan.
        state_on_day: the card's predicted state on the interview day.
    """

    review_days: tuple[date, ...]
    successful_reviews: int
    successful_reviews_on_day: int
    compressed: bool
    refresher: bool
    shortfall: int
    recall_on_day: float
    state_on_day: CardState

    @property
    def next_review(self) -> date | None:
        """The adjusted due day (the first planned review), or ``None`` if none is planned."""
        return self.review_days[0] if self.review_days else None


def successful_streak(history: Iterable[ReviewRecord], learner_tz: tzinfo) -> int:
    """Number of learner days, counted back from the last, whose first review had q >= 3."""
    first_of_day: dict[date, ReviewRecord] = {}
    for record in sorted(history, key=lambda record: record.reviewed_at):
        first_of_day.setdefault(learner_day(record.reviewed_at, learner_tz), record)
    streak = 0
    for day in sorted(first_of_day, reverse=True):
        if first_of_day[day].quality < PASSING_QUALITY:
            break
        streak += 1
    return streak


def simulate_day(
    scheduler: Scheduler, outcome: ReviewOutcome, day: date, quality: int = PLANNING_QUALITY
) -> ReviewOutcome:
    """Review a card on ``day`` with ``quality``, then any same-day steps it asks for.

    The review happens at local noon, or at the card's due instant if that is later the same day
    (an FSRS learning step), so simulated reviews never go back in time.
    """
    tz = scheduler.learner_tz
    moment = planning_instant(day, tz)
    if outcome.due is not None and learner_day(outcome.due, tz) == day:
        moment = max(moment, outcome.due)
    result = scheduler.review(outcome.state, quality, moment)
    for _ in range(MAX_SAME_DAY_STEPS):
        if result.due is None or learner_day(result.due, tz) != day:
            return result
        moment = max(moment, result.due)
        result = scheduler.review(result.state, quality, moment)
    raise RuntimeError(f"card still due the same day after {MAX_SAME_DAY_STEPS} simulated steps")


def _following_day(scheduler: Scheduler, outcome: ReviewOutcome, day: date) -> date:
    """The day after ``day`` on which the simulated card is due next."""
    if outcome.due is None:
        raise RuntimeError("a reviewed card has no due date")
    return max(learner_day(outcome.due, scheduler.learner_tz), day + timedelta(days=1))


def scheduler_chain(
    scheduler: Scheduler,
    outcome: ReviewOutcome,
    first_day: date,
    last_day: date | None = None,
    count: int | None = None,
) -> tuple[list[date], ReviewOutcome]:
    """The scheduler's own review days from ``first_day``: each review passes, the next one on
    the day it falls due; stop after ``last_day`` or after ``count`` reviews."""
    days: list[date] = []
    day = first_day
    while (last_day is None or day <= last_day) and (count is None or len(days) < count):
        days.append(day)
        outcome = simulate_day(scheduler, outcome, day)
        day = _following_day(scheduler, outcome, day)
    return days, outcome


def simulate_days(
    scheduler: Scheduler, outcome: ReviewOutcome, days: Iterable[date]
) -> ReviewOutcome:
    """The card after passing reviews on each of ``days``."""
    for day in days:
        outcome = simulate_day(scheduler, outcome, day)
    return outcome


def squeeze_days(offsets: Sequence[int], first: date, last: date) -> list[date]:
    """Place reviews at ``offsets`` [days from the first review] into [first, last]: unchanged if
    they fit, else scaled down so the last lands on ``last``; always on distinct days, and one a
    day from ``first`` if there are more reviews than days."""
    window = (last - first).days
    if len(offsets) > window + 1:
        return [first + timedelta(days=index) for index in range(window + 1)]
    scale = min(Fraction(1), _scale(offsets, window))
    positions = [math.floor(offset * scale) for offset in offsets]
    for index in range(1, len(positions)):
        positions[index] = max(positions[index], positions[index - 1] + 1)
    for index in range(len(positions) - 2, -1, -1):
        positions[index] = min(positions[index], positions[index + 1] - 1)
    return [first + timedelta(days=position) for position in positions]


def _scale(offsets: Sequence[int], window: int) -> Fraction:
    """Factor by which the chain's gaps must shrink to fit ``window`` days (>= 1: they fit)."""
    span = offsets[-1] - offsets[0]
    return Fraction(window, span) if span > 0 else Fraction(window + 1)


def _first_day(
    offsets: Sequence[int], earliest: date, start: date, last: date, previous: date | None
) -> date:
    """The first review day when the calendar forces compression (module docstring, rule 3).

    Every candidate day ``s`` from ``earliest`` to ``start`` that leaves a day for each review
    (``earliest`` if none does) shortens two things: the gap from the previous review to ``s``
    (by ``(s - previous) / (start - previous)``) and the chain's gaps (by ``_scale``). The day
    that shortens the worse of the two least wins (the later day on a tie), so the compression
    is spread as evenly as the calendar allows.
    """
    best_day, best_ratio = earliest, Fraction(-1)
    day = earliest
    latest = min(start, last - timedelta(days=len(offsets) - 1))
    while day <= latest:
        ratio = min(Fraction(1), _scale(offsets, (last - day).days))
        if previous is not None and start > previous:
            ratio = min(ratio, Fraction((day - previous).days, (start - previous).days))
        if ratio >= best_ratio:
            best_day, best_ratio = day, ratio
        day += timedelta(days=1)
    return best_day


def _review_days(
    scheduler: Scheduler,
    outcome: ReviewOutcome,
    earliest: date,
    last: date,
    needed: int,
    previous: date | None,
) -> tuple[list[date], bool, ReviewOutcome]:
    """Rules 1–3 of the module docstring: the days, whether the calendar compressed them, and
    the card after passing them."""
    start = earliest
    if outcome.due is not None:
        start = max(earliest, learner_day(outcome.due, scheduler.learner_tz))
    days, after = scheduler_chain(scheduler, outcome, start, last)
    if len(days) >= needed:
        return days, False, after
    chain, _ = scheduler_chain(scheduler, outcome, start, count=needed)
    offsets = [(day - start).days for day in chain]
    days = squeeze_days(offsets, _first_day(offsets, earliest, start, last, previous), last)
    return days, True, simulate_days(scheduler, outcome, days)


def plan_card(
    scheduler: Scheduler,
    card: InterviewCard,
    *,
    today: date,
    interview_day: date,
    minimum_successful_reviews: int = DEFAULT_MINIMUM_SUCCESSFUL_REVIEWS,
    target_recall: float = DEFAULT_TARGET_RECALL,
) -> CardPlan:
    """Plan one card's reviews before ``interview_day`` (module docstring, rules 1–4)."""
    tz = scheduler.learner_tz
    last = interview_day - timedelta(days=1)
    reviewed_days = {learner_day(record.reviewed_at, tz) for record in card.history}
    previous = max(reviewed_days, default=None)
    earliest = today + timedelta(days=1) if today in reviewed_days else today
    have = successful_streak(card.history, tz)
    needed = max(0, minimum_successful_reviews - have)
    current = scheduler.outcome(card.state)
    days: list[date] = []
    compressed, on_day = False, current
    if earliest <= last:
        days, compressed, on_day = _review_days(
            scheduler, current, earliest, last, needed, previous
        )
    recall_instant = planning_instant(interview_day, tz)
    recall = scheduler.predicted_recall(on_day.state, recall_instant)
    refresher = recall < target_recall and earliest <= last and (not days or days[-1] < last)
    if refresher:
        days.append(last)
        on_day = simulate_day(scheduler, on_day, last)
        recall = scheduler.predicted_recall(on_day.state, recall_instant)
    return CardPlan(
        review_days=tuple(days),
        successful_reviews=have,
        successful_reviews_on_day=have + len(days),
        compressed=compressed,
        refresher=refresher,
        shortfall=max(0, needed - len(days)),
        recall_on_day=recall,
        state_on_day=on_day.state,
    )


def plan_interview(
    scheduler: Scheduler,
    cards: Mapping[Hashable, InterviewCard],
    *,
    today: date,
    interview_day: date,
    minimum_successful_reviews: int = DEFAULT_MINIMUM_SUCCESSFUL_REVIEWS,
    target_recall: float = DEFAULT_TARGET_RECALL,
) -> dict[Hashable, CardPlan]:
    """Plan every card before ``interview_day``; keys are the caller's card keys."""
    if minimum_successful_reviews < 0 or not 0 <= target_recall <= 1:
        raise ValueError("need minimum_successful_reviews >= 0 and target_recall in [0, 1]")
    return {
        key: plan_card(
            scheduler,
            card,
            today=today,
            interview_day=interview_day,
            minimum_successful_reviews=minimum_successful_reviews,
            target_recall=target_recall,
        )
        for key, card in cards.items()
    }


def forecast_reviews(
    scheduler: Scheduler, states: Iterable[CardState], *, today: date, days: int = 30
) -> dict[date, int]:
    """Cards to review on each of the ``days`` learner days from ``today``.

    Each card is counted once on every day it is due, overdue cards on ``today``, a pending
    SM-2 re-drill on ``today``; every review is assumed to pass with q = 4, so the forecast is the
    load of a learner who keeps up. New cards (never reviewed) are not counted: how many start
    is the learner's new-card limit.
    """
    counts = {today + timedelta(days=index): 0 for index in range(days)}
    last = today + timedelta(days=days - 1)
    today_start = day_start(today, scheduler.learner_tz)
    for state in states:
        outcome = scheduler.outcome(state)
        if outcome.due is None:
            continue
        day = max(today, learner_day(outcome.due, scheduler.learner_tz))
        if outcome.redrill_until is not None and outcome.redrill_until > today_start:
            day = today
        while day <= last:
            counts[day] += 1
            outcome = simulate_day(scheduler, outcome, day)
            day = _following_day(scheduler, outcome, day)
    return counts
