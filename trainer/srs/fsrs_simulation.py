"""Simulated reviews drawn from the FSRS forgetting curve: the workload a desired retention costs,
the retention that costs least per card remembered, and synthetic review logs of learners whose
true parameters are known (to test and time the fitting).

The simulated learner reviews with the app's own scheduler (``FsrsScheduler``: py-fsrs with the
learner-day count, learning steps and midnight due dates), and remembers as FSRS predicts: a
review ``t`` learner days after the last one succeeds with probability
``R(t) = (1 + factor * t / S) ** -decay`` of the card's true memory state. A review the same day
as the last one always succeeds (R = 1 at t = 0): re-drills and learning steps come minutes after
the solution was shown. A successful review is rated Hard, Good or Easy with fixed weights; a
failed one is Again. Every simulated review of a problem costs that problem's expected minutes,
whatever the rating: each review, re-drill included, is a whole problem with fresh numbers.

Randomness comes from ``random.Random`` with a seed the caller passes, so every figure can be
recomputed. Workload figures are means over several simulated runs.
"""

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo

import fsrs_rs_python

from trainer.srs.days import day_start, learner_day, planning_instant
from trainer.srs.fsrs_items import CardReview
from trainer.srs.fsrs_scheduler import DEFAULT_PARAMETERS, FsrsScheduler, FsrsState
from trainer.srs.interface import ReviewOutcome

RETENTION_RANGE = (0.70, 0.97)
"""Desired retentions a learner may choose: above 0.97 the workload grows steeply for little more
recall, below 0.70 too much is forgotten between reviews."""
DEFAULT_DESIRED_RETENTION = 0.9
WORKLOAD_DAYS = 30
"""Days the workload is simulated for when there is no interview date sooner."""
OPTIMAL_RETENTION_DAYS = 365
"""Days simulated to find the optimal retention (Anki's default): over 30 days every retention
looks cheap, because the reviews a low retention costs later are not due yet."""

FIRST_RATING_WEIGHTS = (0.24, 0.094, 0.495, 0.171)
"""Chance of Again, Hard, Good, Easy at a card's first review (fsrs-rs's simulator default)."""
PASS_RATING_WEIGHTS = (0.224, 0.631, 0.145)
"""Chance of Hard, Good, Easy when a review succeeds (fsrs-rs's simulator default)."""
QUALITY_FOR_RATING = {1: 1, 2: 3, 3: 4, 4: 5}
"""The SM-2 quality the scheduler is given for each FSRS rating (inverse of
``fsrs_scheduler.RATING_FOR_QUALITY``; Again is quality 1)."""
MAX_SAME_DAY_STEPS = 32
"""Bound on simulated same-day steps of one card (the default steps need at most a few)."""
FIRST_REVIEW_HOUR = 8
LAST_REVIEW_HOUR = 22
"""Simulated learners review between these local hours, at a random minute."""


def check_retention(desired_retention: float) -> float:
    """Return ``desired_retention`` if it is within ``RETENTION_RANGE``, else raise."""
    low, high = RETENTION_RANGE
    if not low <= desired_retention <= high:
        raise ValueError(f"desired retention must be {low} to {high}, got {desired_retention}")
    return desired_retention


def _state(outcome: ReviewOutcome) -> FsrsState:
    if not isinstance(outcome.state, FsrsState):
        raise TypeError(f"the simulation needs FSRS states, got {type(outcome.state).__name__}")
    return outcome.state


def _rating(rng: random.Random, recalled: bool, first: bool) -> int:
    if first:
        return rng.choices((1, 2, 3, 4), FIRST_RATING_WEIGHTS)[0]
    if not recalled:
        return 1
    return rng.choices((2, 3, 4), PASS_RATING_WEIGHTS)[0]


def _review_day(
    scheduler: FsrsScheduler,
    truth: FsrsScheduler,
    outcome: ReviewOutcome,
    true_outcome: ReviewOutcome,
    moment: datetime,
    rng: random.Random,
) -> tuple[ReviewOutcome, ReviewOutcome, list[tuple[datetime, int]]]:
    """One card's reviews on one learner day: the review at ``moment``, then every same-day step
    the scheduler asks for, a few minutes after it falls due. Returns both outcomes and the
    ``(instant, rating)`` of each review."""
    day = learner_day(moment, scheduler.learner_tz)
    done = []
    for _ in range(MAX_SAME_DAY_STEPS):
        first = _state(true_outcome).last_review is None
        recall = truth.predicted_recall(true_outcome.state, moment)
        rating = _rating(rng, rng.random() < recall, first)
        quality = QUALITY_FOR_RATING[rating]
        outcome = scheduler.review(outcome.state, quality, moment)
        true_outcome = truth.review(true_outcome.state, quality, moment)
        done.append((moment, rating))
        if outcome.due is None or learner_day(outcome.due, scheduler.learner_tz) != day:
            return outcome, true_outcome, done
        moment = max(moment, outcome.due) + timedelta(minutes=rng.randint(0, 20))
        if learner_day(moment, scheduler.learner_tz) != day:
            return outcome, true_outcome, done
    raise RuntimeError(f"card still due the same day after {MAX_SAME_DAY_STEPS} steps")


def _due_before(outcome: ReviewOutcome, instant: datetime) -> bool:
    return outcome.due is not None and outcome.due < instant


def _random_time(day: date, learner_tz: tzinfo, rng: random.Random) -> datetime:
    """A random instant of ``day`` between ``FIRST_REVIEW_HOUR`` and ``LAST_REVIEW_HOUR``."""
    minute = rng.randint(FIRST_REVIEW_HOUR * 60, LAST_REVIEW_HOUR * 60 - 1)
    return datetime.combine(day, time(minute // 60, minute % 60), tzinfo=learner_tz).astimezone(UTC)


def simulate_review_log(
    true_parameters: Sequence[float],
    *,
    cards: int,
    days: int,
    first_day: date,
    learner_tz: tzinfo,
    rng: random.Random,
    scheduling_parameters: Sequence[float] = DEFAULT_PARAMETERS,
    desired_retention: float = DEFAULT_DESIRED_RETENTION,
    new_cards_per_day: int = 5,
    skip_chance: float = 0.2,
) -> list[CardReview]:
    """A synthetic review log of one learner who forgets as FSRS with ``true_parameters`` says.

    The learner is scheduled by the app's FSRS with ``scheduling_parameters`` (the defaults, as a
    new learner is), introduces ``new_cards_per_day`` new cards a day until
    ``cards`` have been seen, and on each day reviews every due card at a random hour, except
    that each due card is put off to another day with chance ``skip_chance`` (so reviews come at
    various recall probabilities, as real ones do, and the fit sees the curve's shape).

    Args:
        true_parameters: the learner's true 21 FSRS parameters (they decide recall).
        cards: cards in the learner's deck (card ids 0 .. cards - 1).
        days: learner days simulated, from ``first_day``.
        first_day: the first learner day.
        learner_tz: the learner's timezone.
        rng: the source of randomness.
        scheduling_parameters: the parameters the scheduler uses.
        desired_retention: the scheduler's desired retention.
        new_cards_per_day: new cards introduced per day [cards/day].
        skip_chance: chance that a due card is put off on a given day.

    Returns:
        The reviews, oldest first, with the ratings the scheduler applied.
    """
    scheduler = FsrsScheduler(
        learner_tz,
        desired_retention=desired_retention,
        parameters=scheduling_parameters,
    )
    truth = FsrsScheduler(
        learner_tz, desired_retention=desired_retention, parameters=true_parameters
    )
    outcomes = [scheduler.outcome(scheduler.new_state()) for _ in range(cards)]
    true_outcomes = list(outcomes)
    introduced = 0
    log: list[CardReview] = []
    for offset in range(days):
        day = first_day + timedelta(days=offset)
        end_of_day = day_start(day + timedelta(days=1), learner_tz)
        today = [
            card
            for card in range(introduced)
            if _due_before(outcomes[card], end_of_day) and rng.random() >= skip_chance
        ]
        fresh = range(introduced, min(cards, introduced + new_cards_per_day))
        introduced = fresh.stop
        for card in [*today, *fresh]:
            moment = _random_time(day, learner_tz, rng)
            last = _state(true_outcomes[card]).last_review
            if last is not None:
                moment = max(moment, last)
            outcomes[card], true_outcomes[card], done = _review_day(
                scheduler, truth, outcomes[card], true_outcomes[card], moment, rng
            )
            log.extend(CardReview(card, instant, rating) for instant, rating in done)
    return sorted(log, key=lambda review: review.reviewed_at)


@dataclass(frozen=True)
class WorkloadCard:
    """A card as the workload simulation sees it.

    Attributes:
        state: its FSRS state under the learner's scheduler (``FsrsState()`` for a new card).
        expected_minutes: the problem's expected time per review [min].
    """

    state: FsrsState
    expected_minutes: float


@dataclass(frozen=True)
class Workload:
    """Simulated reviews and minutes per learner day, means over the runs.

    Attributes:
        desired_retention: the retention simulated.
        days: the learner days, consecutive.
        reviews_per_day: mean reviews on each day, re-drills and learning steps included
            [reviews/day].
        minutes_per_day: mean minutes of review on each day [min/day].
    """

    desired_retention: float
    days: tuple[date, ...]
    reviews_per_day: tuple[float, ...]
    minutes_per_day: tuple[float, ...]


def workload_days(today: date, interview_day: date | None = None) -> tuple[date, date]:
    """First and last day of the workload: ``WORKLOAD_DAYS`` days from today, or until the day
    before an interview that comes sooner (the interview day itself has no reviews)."""
    last = today + timedelta(days=WORKLOAD_DAYS - 1)
    if interview_day is not None and today < interview_day:
        last = min(last, interview_day - timedelta(days=1))
    return today, last


def simulate_workload(
    cards: Sequence[WorkloadCard],
    *,
    parameters: Sequence[float],
    desired_retention: float,
    learner_tz: tzinfo,
    first_day: date,
    last_day: date,
    new_cards_per_day: int,
    runs: int = 40,
    seed: int = 0,
) -> Workload:
    """Reviews and minutes per day a learner's cards will cost at ``desired_retention``.

    Each run reviews every card on the day it falls due (at local noon, same-day steps when they
    fall due) with the learner's scheduler at ``desired_retention``, and draws recall from the
    forgetting curve of ``parameters`` (the learner's own: the best estimate of how they
    forget). New cards are introduced in the order given, ``new_cards_per_day`` a day.

    Args:
        cards: the learner's cards (suspended ones left out by the caller).
        parameters: the learner's 21 FSRS parameters.
        desired_retention: within ``RETENTION_RANGE``.
        learner_tz: the learner's timezone.
        first_day, last_day: the days simulated, inclusive (``workload_days``).
        new_cards_per_day: the learner's daily limit of new cards [cards/day].
        runs: simulated runs averaged.
        seed: seed of the first run (run ``k`` uses ``seed + k``).
    """
    check_retention(desired_retention)
    scheduler = FsrsScheduler(
        learner_tz, desired_retention=desired_retention, parameters=parameters
    )
    length = (last_day - first_day).days + 1
    days = tuple(first_day + timedelta(days=index) for index in range(max(0, length)))
    reviews = [0.0] * len(days)
    minutes = [0.0] * len(days)
    for run in range(runs):
        rng = random.Random(seed + run)
        outcomes = [scheduler.outcome(card.state) for card in cards]
        waiting = [index for index, card in enumerate(cards) if card.state.last_review is None]
        for index, day in enumerate(days):
            end_of_day = day_start(day + timedelta(days=1), learner_tz)
            due = [
                card for card, outcome in enumerate(outcomes) if _due_before(outcome, end_of_day)
            ]
            fresh, waiting = waiting[:new_cards_per_day], waiting[new_cards_per_day:]
            for card in [*due, *fresh]:
                moment = planning_instant(day, learner_tz)
                for later in (_state(outcomes[card]).last_review, outcomes[card].due):
                    moment = moment if later is None else max(moment, later)
                outcomes[card], _, done = _review_day(
                    scheduler, scheduler, outcomes[card], outcomes[card], moment, rng
                )
                reviews[index] += len(done)
                minutes[index] += len(done) * cards[card].expected_minutes
    return Workload(
        desired_retention,
        days,
        tuple(count / runs for count in reviews),
        tuple(total / runs for total in minutes),
    )


def optimal_retention(
    cards: Sequence[WorkloadCard],
    *,
    parameters: Sequence[float],
    learner_tz: tzinfo,
    now: datetime,
    new_cards_per_day: int,
    days: int = OPTIMAL_RETENTION_DAYS,
) -> float:
    """The desired retention that costs the fewest minutes per card remembered after ``days``
    days, by fsrs-rs's simulator (Anki's "optimal retention"), within ``RETENTION_RANGE``.

    Every review costs the mean expected minutes of the cards (fsrs-rs's simulator has one cost
    per rating, not per card). fsrs-rs searches 0.70 to 0.95.

    Args:
        cards: the learner's cards (at least one).
        parameters: the learner's 21 FSRS parameters.
        learner_tz: the learner's timezone (decides how many days ago each card was reviewed).
        now: the current instant (timezone-aware).
        new_cards_per_day: the learner's daily limit of new cards [cards/day].
        days: days simulated.
    """
    if not cards:
        raise ValueError("optimal retention needs at least one card")
    seconds = 60 * sum(card.expected_minutes for card in cards) / len(cards)
    config = fsrs_rs_python.default_simulator_config()
    config.deck_size = len(cards)
    config.learn_span = days
    config.learn_limit = new_cards_per_day
    config.max_cost_perday = float("inf")
    config.state_rating_costs = [[seconds] * 4] * 3
    today = learner_day(now, learner_tz)
    existing = []
    for index, card in enumerate(cards):
        state = card.state
        if state.last_review is None or state.stability is None or state.difficulty is None:
            continue
        simulated = fsrs_rs_python.Card()
        simulated.id = index
        simulated.stability = state.stability
        simulated.difficulty = state.difficulty
        simulated.last_date = -float((today - learner_day(state.last_review, learner_tz)).days)
        due_day = today if state.due is None else learner_day(state.due, learner_tz)
        simulated.due = float((due_day - today).days)
        simulated.interval = simulated.due - simulated.last_date
        simulated.lapses = 0
        simulated.desired_retention = DEFAULT_DESIRED_RETENTION
        simulated.parameters = list(parameters)
        existing.append(simulated)
    found = fsrs_rs_python.optimal_retention(config, list(parameters), existing)
    low, high = RETENTION_RANGE
    return round(min(high, max(low, found)), 2)


@dataclass(frozen=True)
class RetentionWorkloads:
    """The workload at the learner's chosen retention and at the suggested optimal one."""

    chosen: Workload
    optimal: Workload


def retention_workloads(
    cards: Sequence[WorkloadCard],
    *,
    parameters: Sequence[float],
    desired_retention: float,
    learner_tz: tzinfo,
    now: datetime,
    interview_day: date | None,
    new_cards_per_day: int,
    runs: int = 40,
) -> RetentionWorkloads:
    """Workload for the next ``WORKLOAD_DAYS`` days (or until the interview) at the chosen
    retention and at ``optimal_retention`` (the chart beside the retention setting)."""
    first, last = workload_days(learner_day(now, learner_tz), interview_day)
    best = optimal_retention(
        cards,
        parameters=parameters,
        learner_tz=learner_tz,
        now=now,
        new_cards_per_day=new_cards_per_day,
    )
    workloads = [
        simulate_workload(
            cards,
            parameters=parameters,
            desired_retention=retention,
            learner_tz=learner_tz,
            first_day=first,
            last_day=last,
            new_cards_per_day=new_cards_per_day,
            runs=runs,
        )
        for retention in (desired_retention, best)
    ]
    return RetentionWorkloads(*workloads)
