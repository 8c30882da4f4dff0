"""Daily practice: which card is next, drawing its variant, grading, scheduling.

Views call these; they hold the rules. Every write happens in one transaction, so an attempt and
its review are saved together or not at all, and a second submission of the same attempt (two
tabs, a double click) finds it already submitted and applies nothing.
"""

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from typing import Any, cast

from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Q

from problems import attempts
from problems.engine import EngineError
from problems.models import Attempt, Problem, ScenarioVersion
from problems.variants import attempt_variant, new_seed, version_by_id
from trainer.curriculum import load_curriculum
from trainer.practice import statements
from trainer.practice.models import Card, LearnerProfile, Review
from trainer.practice.statements import Row
from trainer.srs import (
    CardState,
    InterviewCard,
    ReviewOutcome,
    ReviewRecord,
    Scheduler,
    SelfRating,
    build_queue,
    day_start,
    default_rating,
    easy_allowed,
    interval_text,
    learner_day,
    make_scheduler,
    next_day_start,
    plan_card,
    plans_for,
    queue_card,
    rated_quality,
    review_quality,
)
from trainer.srs.queue import PracticeQueue as SrsPracticeQueue
from trainer.srs.queue import QueueCard, QueueOrder

# SM-2: a quality below 3 restarts the repetitions, a lapse.
LAPSE_BELOW = 3


class PracticeError(Exception):
    """A request that cannot be carried out; the message is for the learner."""


class NotFound(PracticeError):
    """Not the learner's, or not there at all: the two look the same (a 404)."""


def get_profile(user: User) -> LearnerProfile:
    """The learner's profile: usually already loaded with the user by the auth backend."""
    try:
        return user.learner_profile
    except LearnerProfile.DoesNotExist:
        profile, _ = LearnerProfile.objects.get_or_create(user=user)
        user.learner_profile = profile
        return profile


def create_profile(sender: object, user: User, time_zone: str, **kwargs: Any) -> LearnerProfile:
    """A new account's profile, in the time zone its browser reported at sign-up."""
    profile, _ = LearnerProfile.objects.update_or_create(
        user=user, defaults={"timezone": time_zone}
    )
    user.learner_profile = profile
    return profile


def mark_mock(user: User | int, until: datetime | None) -> None:
    """Set (a mock interview started, running until `until`, its deadline with the grace) or
    clear (None: it ended) the learner's running-mock mark; the mock's start and end call it in
    their transaction."""
    if not LearnerProfile.objects.filter(user=user).update(mock_until=until) and until:
        LearnerProfile.objects.get_or_create(user=user, defaults={"mock_until": until})


def mock_running(user: User, now: datetime) -> bool:
    """The learner's mock interview may be running now: False means certainly not."""
    try:
        until = user.learner_profile.mock_until
    except LearnerProfile.DoesNotExist:
        return True  # no profile loaded: the caller asks the mocks themselves
    return until is not None and now <= until


def scheduler_for(profile: LearnerProfile) -> Scheduler:
    return make_scheduler(profile.scheduler, learner_tz=profile.tz)


def today_start(profile: LearnerProfile, now: datetime) -> datetime:
    return day_start(learner_day(now, profile.tz), profile.tz)


# Introducing cards.


def plan_order() -> list[int]:
    """Problem numbers in the order the 24-hour plan reaches them; authored problems after."""
    return list(load_curriculum().problems_in_plan_order())


def introduce(user: User, numbers: Iterable[int], now: datetime) -> int:
    """Create the learner's cards for these problem numbers (those with a published scenario
    and no card yet), ranked in plan order. Returns how many were created."""
    order = {number: rank for rank, number in enumerate(plan_order())}
    existing = set(Card.objects.filter(user=user).values_list("problem__number", flat=True))
    problems = (
        Problem.objects.filter(
            number__in=numbers, scenarios__versions__in=ScenarioVersion.objects.published()
        )
        .exclude(number__in=existing)
        .distinct()
    )
    state = scheduler_for(get_profile(user)).new_state().to_dict()
    cards = [
        Card(
            user=user,
            problem=problem,
            rank=order.get(problem.number, 1000 + problem.number),
            state=state,
            introduced_at=now,
        )
        for problem in problems
    ]
    Card.objects.bulk_create(cards, ignore_conflicts=True)
    return len(cards)


def practice_now(user: User, number: int, now: datetime) -> Card:
    """Open a question of problem `number` now, whatever the schedule says (the learner chose
    it): the card is created if needed, and practice shows this question next (a graded answer
    still waiting for its rating is left as it was rated: by the automatic grade)."""
    introduce(user, [number], now)
    card = (
        Card.objects.filter(user=user, problem__number=number)
        .select_related("problem", "open_attempt")
        .first()
    )
    if card is None:
        raise PracticeError(f"Problem {number} is not in the bank yet, so it cannot be practised.")
    _settle_pending(user)
    open_attempt(card, now)
    return card


def introduce_all(user: User, now: datetime) -> int:
    numbers = Problem.objects.values_list("number", flat=True)
    return introduce(user, list(numbers), now)


# The queue.


# What the queue and a question's header never show. Loading them with every card made the
# practice page's queue about 1 ms slower (Python and PostgreSQL), of about 6 (bench/load).
PROBLEM_LONG_TEXTS = (
    "problem__concepts",
    "problem__tradeoffs",
    "problem__model_answer",
    "problem__self_check",
)


def learner_cards(user: User) -> list[Card]:
    """Every card of the learner with what the queue and the question on screen need, in one
    query: the problem (without its long texts) and the open attempt with its version (without
    its definition, which only compiling a version not yet compiled reads)."""
    return list(
        Card.objects.filter(user=user)
        .select_related("problem", "open_attempt__version")
        .defer(*PROBLEM_LONG_TEXTS, "open_attempt__version__definition")
    )


@dataclass
class UndoOffer:
    """The learner's latest review, which Undo would take back: its id and its problem."""

    pk: int
    problem_number: int


@dataclass
class PracticeQueue:
    """What the practice page needs: the card to show, and the day's numbers.

    `card` is the card on screen: a graded answer waiting for its rating (its `open_attempt` is
    submitted), else a question already drawn, else the queue's first card. `undo` is the
    learner's latest review when it can be undone (see `undo`), else None."""

    card: Card | None
    due_total: int
    new_left: int
    redrills: int
    next_at: datetime | None
    done_today: int
    cards_total: int
    undo: UndoOffer | None = None


def _card_row(card: Card) -> Row:
    """An ORM card as a row of `statements.CARDS`."""
    attempt = card.open_attempt
    return {
        "id": card.pk,
        "problem_id": card.problem_id,
        "number": card.problem.number,
        "rank": card.rank,
        "state": card.state,
        "due_at": card.due_at,
        "last_reviewed_at": card.last_reviewed_at,
        "suspended": card.suspended,
        "buried_until": card.buried_until,
        "open_attempt_id": card.open_attempt_id,
        "started_at": attempt.started_at if attempt is not None else None,
        "submitted_at": attempt.submitted_at if attempt is not None else None,
    }


def _undoable(review: Row | None, rows_by_id: dict[int, Row]) -> bool:
    """The latest review can be undone: a practice review, already rated or moved on from."""
    if review is None or review["kind"] == Review.Kind.MOCK or review["attempt_id"] is None:
        return False
    row = rows_by_id.get(review["card_id"])
    return row is not None and row["open_attempt_id"] != review["attempt_id"]


def learner_queue(
    profile: LearnerProfile,
    cards: Sequence[QueueCard],
    now: datetime,
    *,
    done_today: Mapping[str, int],
    recent_keys: Sequence[int],
) -> SrsPracticeQueue:
    """The order of the learner's unsuspended `cards` now, under their daily limits and queue
    order: the practice page's and the home page's "due now" alike. `done_today` counts today's
    reviews by kind (re-drills count towards neither limit); `recent_keys`, the cards of the
    latest reviews, newest first."""
    return build_queue(
        cards,
        now,
        learner_tz=profile.tz,
        new_limit=profile.daily_new_limit,
        new_done_today=done_today.get(Review.Kind.NEW, 0),
        review_cap=profile.daily_review_cap,
        reviews_done_today=done_today.get(Review.Kind.DUE, 0),
        order=cast(QueueOrder, profile.queue_order),
        recent_keys=recent_keys,
    )


def practice_queue(
    user: User, profile: LearnerProfile, now: datetime, cards: list[Card] | None = None
) -> PracticeQueue:
    """The learner's queue now; `cards` may be passed when the caller has them already (with
    their problems and open attempts), else the cards are read as plain rows and only the one on
    screen is loaded."""
    scheduler = scheduler_for(profile)
    if cards is None:
        rows = statements.CARDS.rows(user.pk)
        by_id = None
    else:
        rows = [_card_row(card) for card in cards]
        by_id = {card.pk: card for card in cards}
    counts = dict.fromkeys(Review.Kind.values, 0)
    recent = []
    for row in statements.REVIEWS_TODAY_AND_LATEST.rows(
        user.pk, today_start(profile, now), user.pk
    ):
        if row["what"] == "today":
            counts[row["kind"]] = row["count_or_id"]
        else:
            recent.append({**row, "id": row["count_or_id"]})
    recent.sort(key=lambda row: (row["reviewed_at"], row["id"]), reverse=True)
    active = [row for row in rows if not row["suspended"]]
    queue = learner_queue(
        profile,
        [
            queue_card(
                row["id"],
                scheduler,
                scheduler.state_from_dict(row["state"]),
                now,
                due=row["due_at"],
                new_rank=row["rank"],
                last_reviewed_at=row["last_reviewed_at"],
                held_until=row["buried_until"],
            )
            for row in active
        ],
        now,
        done_today=counts,
        recent_keys=[review["card_id"] for review in recent],
    )
    rows_by_id = {row["id"]: row for row in rows}
    shown = _card_on_screen(active) or (cast(int, queue.keys[0]) if queue.keys else None)
    latest = recent[0] if recent else None
    return PracticeQueue(
        card=_card_shown(shown, by_id),
        due_total=queue.due_total,
        new_left=len(queue.new_keys),
        redrills=len(queue.redrill_keys),
        next_at=queue.next_at,
        done_today=sum(counts.values()),
        cards_total=len(rows),
        undo=(
            UndoOffer(latest["id"], rows_by_id[latest["card_id"]]["number"])
            if latest is not None and _undoable(latest, rows_by_id)
            else None
        ),
    )


def _card_shown(card_id: int | None, cards_by_id: dict[int, Card] | None) -> Card | None:
    """The card on screen with what the question needs: its problem (without its long texts)
    and its open attempt with its version (without its definition)."""
    if card_id is None:
        return None
    if cards_by_id is not None:
        return cards_by_id[card_id]
    (row,) = statements.CARD_SHOWN.rows(card_id)
    card, problem, attempt, version = (table.load(row) for table in statements.CARD_SHOWN_TABLES)
    card.problem = problem
    if attempt is not None:
        attempt.version = version
    card.open_attempt = attempt
    return cast(Card, card)


def _card_on_screen(rows: list[Row]) -> int | None:
    """A graded answer waiting for its rating comes first, then a question already drawn, so a
    reload shows either again; that includes one the learner chose (practice_now) although the
    schedule did not ask for it yet. Returns the card's id, or None."""
    graded = [row for row in rows if row["submitted_at"] is not None]
    if graded:
        return max(graded, key=lambda row: row["submitted_at"])["id"]
    drawn = [row for row in rows if row["open_attempt_id"] is not None]
    return max(drawn, key=lambda row: row["started_at"])["id"] if drawn else None


# Drawing a variant for a card.


def pick_version(user_id: int, problem: Problem) -> ScenarioVersion:
    """A published version of one of the problem's scenarios, a different scenario from last
    time when there is a choice, so a learner meets every setting of the problem. One statement
    reads the published versions' ids and the learner's last one; the versions themselves are
    the process's (`version_by_id`), so a version published since is loaded once."""
    rows = statements.PUBLISHED_AND_LAST.rows(user_id, problem.pk, problem.pk)
    if not rows:
        raise PracticeError(f"Problem {problem.number} has no published scenario yet.")
    last = rows[0]["last_version_id"]
    chosen = random.choice([row for row in rows if row["id"] != last] or rows)
    return version_by_id(chosen["id"], chosen["content_hash"])


def open_attempt(card: Card, now: datetime) -> Attempt:
    """The attempt on screen for this card: the open one, or a new draw."""
    attempt = card.open_attempt
    if attempt is not None and attempt.submitted_at is None:
        return attempt
    version = pick_version(card.user_id, card.problem)
    values = {
        "user_id": card.user_id,
        "version_id": version.pk,
        "seed": new_seed(),
        "key_version_id": None,
        "purpose": Attempt.Purpose.PRACTICE,
        "started_at": now,
        "submitted_at": None,
        "score": None,
        "regrade_notice": "",
        "regrade_unseen": False,
    }
    (row,) = statements.NEW_ATTEMPT.rows(
        values["user_id"],
        values["version_id"],
        values["seed"],
        values["purpose"],
        values["started_at"],
        values["regrade_unseen"],
    )
    attempt = statements.instance(Attempt, {"id": row["id"], **values})
    attempt.version = version
    statements.SHOW_ATTEMPT.execute(attempt.pk, card.pk)
    card.open_attempt = attempt
    return attempt


def get_own_attempt(user: User, attempt_id: int) -> Attempt | None:
    """The learner's own attempt, or None: another learner's attempt does not exist for them."""
    return (
        Attempt.objects.filter(pk=attempt_id, user=user)
        .select_related("version__scenario__problem")
        .first()
    )


# Submitting answers.


@dataclass
class Submission:
    """The result of submitting: graded parts, or parse errors that cost nothing."""

    attempt: Attempt
    parts: list[attempts.PartOutcome] = field(default_factory=list)
    parse_errors: dict[str, str] = field(default_factory=dict)
    review: Review | None = None

    @property
    def accepted(self) -> bool:
        return not self.parse_errors


def submit(user: User, attempt_id: int, answers: dict[str, str], now: datetime) -> Submission:
    """Grade and record an attempt, then schedule its card (not for "another variant", which
    never touches the schedule). Idempotent per attempt."""
    with transaction.atomic():
        # The attempt's row alone is locked; the version's definition is read only to compile a
        # version the process has not compiled yet.
        attempt = _attempt_to_answer(user, attempt_id)
        if attempt is None or attempt.purpose not in PRACTISED:
            raise NotFound("This practice question does not exist.")
        if attempt.submitted_at is not None:
            return Submission(
                attempt,
                parts=attempts.stored_outcomes(attempt),
                review=Review.objects.filter(attempt=attempt).first(),
            )
        try:
            graded = attempts.grade(attempt, answers)
        except EngineError as error:
            raise PracticeError(f"This question cannot be graded: {error}") from None
        if graded.parse_errors:
            return Submission(attempt, parts=graded.parts, parse_errors=graded.parse_errors)
        _store_answer(attempt, graded, now)
        if attempt.purpose == Attempt.Purpose.FREE:
            return Submission(attempt, parts=graded.parts)
        problem = attempt.version.scenario.problem
        rows = statements.CARD_TO_REVIEW.rows(user.pk, problem.pk)
        card = statements.CARD_TO_REVIEW_TABLES[0].load(rows[0]) if rows else None
        review = None
        if card is not None:
            card.user = user  # its owner, as filtered: apply_review need not load it again
            card.problem = problem
            _settle_pending(user, keep=card.pk)
            review = apply_review(
                card,
                attempt,
                graded.score,
                incomplete=graded.incomplete,
                elapsed=min(
                    (now - attempt.started_at).total_seconds(), attempts.MAX_ELAPSED_SECONDS
                ),
                now=now,
                awaiting_rating=True,
            )
        return Submission(attempt, parts=graded.parts, review=review)


PRACTISED = (Attempt.Purpose.PRACTICE, Attempt.Purpose.FREE)


def _attempt_to_answer(user: User, attempt_id: int) -> Attempt | None:
    """The learner's attempt, its row locked, with its version (without its definition, which
    only compiling a version the process has not compiled yet reads), scenario and problem, and
    the learner's report on it."""
    rows = statements.ATTEMPT_TO_ANSWER.rows(attempt_id, user.pk)
    if not rows:
        return None
    attempt, version, scenario, problem, report = (
        table.load(rows[0]) for table in statements.ATTEMPT_TO_ANSWER_TABLES
    )
    scenario.problem = problem
    version.scenario = scenario
    attempt.version = version
    # `attempt.report` answers from this row (None: it raises DoesNotExist, as a query would).
    Attempt.report.related.set_cached_value(attempt, report)
    return cast(Attempt, attempt)


def _store_answer(attempt: Attempt, graded: attempts.GradedAttempt, now: datetime) -> None:
    """`attempts.save_grades` for a practice answer, in two constant statements: the attempt is
    locked and not submitted, so no part of it is stored yet (a mock's are, and a regrade's)."""
    values: list[object] = []
    for part in graded.parts:
        fields = attempts.grade_fields(part)
        values += [attempt.pk, part.key, part.text]
        values += [fields[name] for name in attempts.GRADE_FIELDS]
    if graded.parts:
        statements.new_part_answers(len(graded.parts)).execute(*values)
    statements.SUBMIT_ATTEMPT.execute(graded.score, now, attempt.pk)
    attempt.score = graded.score
    attempt.submitted_at = now


def _settle_pending(user: User, keep: int | None = None) -> None:
    """Graded answers still waiting for a rating keep their automatic grade: the learner moved
    on (answered another card, or chose one). At most one answer waits at a time."""
    statements.SETTLE_PENDING.execute(user.pk, keep or 0)


def _kind_of(
    card: Card, outcome_state_before: CardState, scheduler: Scheduler, now: datetime
) -> str:
    if card.last_reviewed_at is None:
        return Review.Kind.NEW
    before = scheduler.outcome(outcome_state_before)
    if before.redrill_until is not None and now < before.redrill_until:
        return Review.Kind.REDRILL
    due = card.due_at or before.due
    if due is not None and due <= now:
        return Review.Kind.DUE
    return Review.Kind.EXTRA


def apply_review(
    card: Card,
    attempt: Attempt,
    score: float | None,
    *,
    incomplete: bool,
    elapsed: float | None,
    now: datetime,
    kind: str | None = None,
    awaiting_rating: bool = False,
) -> Review:
    """Record a review of `card` and move its schedule. The caller holds the transaction.

    `awaiting_rating`: the graded attempt stays on the card (`open_attempt`) until the learner
    rates it or moves on, so a reload of the practice page shows it again."""
    assert score is not None, "a graded attempt has a score"
    profile = get_profile(card.user)
    scheduler = scheduler_for(profile)
    state_before = scheduler.state_from_dict(card.state)
    quality = review_quality(
        score,
        incomplete=incomplete,
        time_taken=elapsed,
        expected_time=card.problem.expected_minutes * 60,
    )
    values = {
        "card_id": card.pk,
        "user_id": card.user_id,
        "attempt_id": attempt.pk,
        "kind": kind or _kind_of(card, state_before, scheduler, now),
        "reviewed_at": now,
        "score": score,
        "incomplete": incomplete,
        "elapsed_seconds": elapsed,
        "automatic_quality": quality,
        "self_rating": None,
        "quality": quality,
        "state_before": card.state,
        "scheduler": scheduler.name,
    }
    (row,) = statements.NEW_REVIEW.rows(*values.values())
    review = statements.instance(Review, {"id": row["id"], **values})
    review.card = card
    review.attempt = attempt
    _reschedule(
        card,
        profile,
        scheduler,
        state_before,
        review,
        first=True,
        lapses=_is_lapse(review, quality),
        on_screen=attempt if awaiting_rating else None,
    )
    return review


def _is_lapse(review: Review, quality: int) -> int:
    """SM-2: a quality below 3 restarts the repetitions; a same-day re-drill is no new lapse."""
    return int(quality < LAPSE_BELOW and review.kind != Review.Kind.REDRILL)


def _reschedule(
    card: Card,
    profile: LearnerProfile,
    scheduler: Scheduler,
    state_before: CardState,
    review: Review,
    *,
    first: bool,
    lapses: int,
    on_screen: Attempt | None = None,
) -> None:
    """Apply `review` to the card from `state_before`; `lapses` is how many lapses it adds (or,
    negative, takes back); `on_screen` is the attempt the practice page shows for the card."""
    outcome = scheduler.review(state_before, review.quality, review.reviewed_at)
    card.state = outcome.state.to_dict()
    card.due_at = _due_with_interview(
        profile, scheduler, outcome, review.reviewed_at, _history(card)
    )
    card.redrill_until = outcome.redrill_until
    card.last_reviewed_at = review.reviewed_at
    if first:
        card.reviews_count += 1
    card.lapses += lapses
    card.open_attempt = on_screen
    statements.RESCHEDULE.execute(
        card.state,
        card.due_at,
        card.redrill_until,
        card.last_reviewed_at,
        card.reviews_count,
        card.lapses,
        card.open_attempt_id,
        card.pk,
    )


def _review_log(card: Card | int) -> list[tuple[int, int, datetime]]:
    """The card's review log, [(review id, quality, reviewed_at)]; `card` may be an id."""
    return list(Review.objects.filter(card=card).values_list("pk", "quality", "reviewed_at"))


def _history(card: Card) -> Callable[[], list[ReviewRecord]]:
    """Reads the card's review log as the interview planner needs it, when it is called (only
    interview mode needs it)."""
    return lambda: _records(_review_log(card))


def _records(
    log: list[tuple[int, int, datetime]], review: Review | None = None, quality: int | None = None
) -> list[ReviewRecord]:
    """ReviewRecords of a review log; `quality` replaces that of `review` (what a rating button
    would make of it)."""
    return [
        ReviewRecord(
            quality if quality is not None and review is not None and pk == review.pk else logged,
            reviewed_at,
        )
        for pk, logged, reviewed_at in log
    ]


def _due_with_interview(
    profile: LearnerProfile,
    scheduler: Scheduler,
    outcome: ReviewOutcome,
    reviewed_at: datetime,
    history: Callable[[], Sequence[ReviewRecord]],
) -> datetime | None:
    """The due instant: the scheduler's, or interview mode's when an interview is coming.
    `history` reads the card's review log (only called in interview mode)."""
    today = learner_day(reviewed_at, profile.tz)
    if profile.interview_date is None or not plans_for(profile.interview_date, today):
        return outcome.due
    plan = plan_card(
        scheduler,
        InterviewCard(outcome.state, tuple(history())),
        today=today,
        interview_day=profile.interview_date,
    )
    if plan.next_review is None:
        return outcome.due
    planned = day_start(plan.next_review, profile.tz)
    return planned if outcome.due is None else min(planned, outcome.due)


# Rating, moving on, undoing.


def _parse_rating(rating: str | int | None) -> SelfRating:
    try:
        return SelfRating(int(rating or ""))
    except (TypeError, ValueError):
        raise PracticeError("Choose Again, Hard, Good or Easy.") from None


def _own_review_for_update(user: User, review_id: int) -> Review:
    """The learner's review with its card, both rows locked in one statement, and the card's
    problem (for its expected time) without its long texts."""
    rows = statements.REVIEW_TO_RATE.rows(review_id, user.pk)
    if not rows:
        raise NotFound("This review does not exist.")
    review, card, problem = (table.load(rows[0]) for table in statements.REVIEW_TO_RATE_TABLES)
    card.problem = problem
    review.card = card
    return cast(Review, review)


def awaiting_rating(review: Review) -> bool:
    """The graded answer of `review` is still on screen for its rating."""
    return review.attempt_id is not None and review.card.open_attempt_id == review.attempt_id


def rate(user: User, review_id: int, rating: str | int | None, now: datetime) -> Review:
    """Apply the learner's rating to a graded answer waiting for one (the rules are in
    trainer/srs/quality.py and the help page): Good keeps the automatic quality, Again and Hard
    cap it, Easy lifts a fully correct answer to 5. A second rating (a double click, another
    tab) changes nothing: Undo reopens an answer for rating."""
    rating = _parse_rating(rating)
    with transaction.atomic():
        review = _own_review_for_update(user, review_id)
        if not awaiting_rating(review):
            if review.self_rating is not None:
                return review
            raise PracticeError(
                "You moved on from this answer, so it kept its automatic grade. Undo brings it "
                "back to rate."
            )
        fully_correct = easy_allowed(review.score, review.incomplete)
        if rating == SelfRating.EASY and not fully_correct:
            raise PracticeError(
                "Easy is only for an answer with every part correct: a wrong or blank part "
                "comes back for a re-drill whatever the rating."
            )
        quality = rated_quality(review.automatic_quality, rating, fully_correct=fully_correct)
        _set_quality(user, review, quality, self_rating=int(rating), on_screen=None)
        return review


def skip(user: User, review_id: int, now: datetime) -> Review:
    """Move on from a graded answer without rating it: it keeps its automatic grade."""
    with transaction.atomic():
        review = _own_review_for_update(user, review_id)
        if awaiting_rating(review):
            Card.objects.filter(pk=review.card_id).update(open_attempt=None)
        return review


def undo(user: User, review_id: int, now: datetime) -> Review:
    """Take back the rating of the learner's latest review (Anki's Ctrl+Z): the card is put
    back as the review log says it was before (`state_before`) with the automatic grade applied,
    and the graded answer is shown again for rating. Only the learner's own latest practice
    review can be undone; the answer itself stays graded, since the solution has been seen."""
    with transaction.atomic():
        review = _own_review_for_update(user, review_id)
        latest = (
            Review.objects.filter(user=user).order_by("-reviewed_at", "-id").values("pk").first()
        )
        if latest is None or latest["pk"] != review.pk:
            raise PracticeError("Only your latest review can be undone.")
        if review.kind == Review.Kind.MOCK or review.attempt_id is None:
            raise PracticeError("A mock interview's answers cannot be undone.")
        if awaiting_rating(review):
            return review
        _set_quality(
            user, review, review.automatic_quality, self_rating=None, on_screen=review.attempt
        )
        return review


def _set_quality(
    user: User, review: Review, quality: int, *, self_rating: int | None, on_screen: Attempt | None
) -> None:
    """Store the review's new quality and re-apply it to the card from the state the log holds
    from before the review. The caller holds the transaction and the locks of the review and its
    card (`_own_review_for_update`)."""
    card = review.card
    lapses = _is_lapse(review, quality) - _is_lapse(review, review.quality)
    review.self_rating = self_rating
    review.quality = quality
    statements.RATE_REVIEW.execute(self_rating, quality, review.pk)
    profile = get_profile(user)
    scheduler = scheduler_for(profile)
    _reschedule(
        card,
        profile,
        scheduler,
        scheduler.state_from_dict(review.state_before),
        review,
        first=False,
        lapses=lapses,
        on_screen=on_screen,
    )


@dataclass
class RatingChoice:
    """One rating button: what it gives and when the card comes back."""

    rating: SelfRating
    quality: int
    interval: str
    default: bool
    allowed: bool

    @property
    def label(self) -> str:
        return self.rating.name.capitalize()


def rating_choices(user: User, review: Review) -> list[RatingChoice]:
    """The four buttons of a graded answer waiting for its rating, each with the interval it
    gives with the learner's scheduler (and interview date); the one that keeps the automatic
    grade is the default."""
    profile = get_profile(user)
    scheduler = scheduler_for(profile)
    state_before = scheduler.state_from_dict(review.state_before)
    fully_correct = easy_allowed(review.score, review.incomplete)
    default = default_rating(review.automatic_quality)
    log = _review_log(review.card_id) if profile.interview_date is not None else []
    choices = []
    for rating in SelfRating:
        quality = rated_quality(review.automatic_quality, rating, fully_correct=fully_correct)
        outcome = scheduler.review(state_before, quality, review.reviewed_at)
        due = _due_with_interview(
            profile,
            scheduler,
            outcome,
            review.reviewed_at,
            partial(_records, log, review, quality),
        )
        choices.append(
            RatingChoice(
                rating=rating,
                quality=quality,
                interval=interval_text(
                    review.reviewed_at,
                    due,
                    profile.tz,
                    repeat_today=outcome.redrill_until is not None,
                ),
                default=rating == default,
                allowed=rating != SelfRating.EASY or fully_correct,
            )
        )
    return choices


# Practising freely: another variant, suspending and burying, a problem's history.


def _own_problem(number: int) -> Problem:
    problem = Problem.objects.filter(number=number).first()
    if problem is None:
        raise NotFound(f"There is no problem {number}.")
    return problem


def another_variant(user: User, number: int, now: datetime) -> Attempt:
    """A new variant of problem `number` that never touches the schedule: graded and shown
    like practice, but no review and no change to the card (Attempt purpose "free")."""
    problem = _own_problem(number)
    version = pick_version(user.pk, problem)
    return Attempt.objects.create(
        user=user,
        version=version,
        seed=new_seed(),
        started_at=now,
        purpose=Attempt.Purpose.FREE,
    )


def _own_card_for_update(user: User, number: int, now: datetime) -> Card:
    """The learner's card of problem `number`, created if the problem has none yet (suspending
    a problem not yet introduced keeps it out of the plan)."""
    problem = _own_problem(number)
    introduce(user, [number], now)
    card = Card.objects.select_for_update().filter(user=user, problem=problem).first()
    if card is None:
        raise PracticeError(f"Problem {number} has no published scenario, so it has no card.")
    return card


def suspend(user: User, number: int, now: datetime, suspended: bool = True) -> Card:
    """Anki's suspend: the card leaves the queue until it is unsuspended; its schedule is kept.
    The question on screen, if any, is put away (a graded one keeps its automatic grade)."""
    with transaction.atomic():
        card = _own_card_for_update(user, number, now)
        card.suspended = suspended
        fields = ["suspended"]
        if suspended:
            card.open_attempt = None
            fields.append("open_attempt")
        card.save(update_fields=fields)
        return card


def bury(user: User, number: int, now: datetime, buried: bool = True) -> Card:
    """Anki's bury: the card leaves the queue until the learner's next day begins."""
    with transaction.atomic():
        card = _own_card_for_update(user, number, now)
        if buried:
            card.buried_until = next_day_start(now, get_profile(user).tz)
            card.open_attempt = None
        else:
            card.buried_until = None
        card.save(update_fields=["buried_until", "open_attempt"])
        return card


def held_cards(user: User, now: datetime) -> list[Card]:
    """The learner's suspended cards and those buried until a later time, by problem number."""
    return list(
        Card.objects.filter(Q(suspended=True) | Q(buried_until__gt=now), user=user)
        .select_related("problem")
        .only("id", "suspended", "buried_until", "problem__number", "problem__title")
        .order_by("problem__number")
    )


HISTORY_PAGE = 10


@dataclass
class HistoryEntry:
    """One earlier attempt on a problem's page: its number among the learner's attempts at the
    problem (1 is the first), the question with its numbers, and each part's answer and
    verdict."""

    number: int
    attempt: Attempt
    text: str
    results: list[attempts.PartOutcome]
    review: Review | None


def problem_page(
    user: User, number: int, now: datetime, page_number: int | str = 1
) -> dict[str, Any]:
    """What the learner's page of a problem shows: the problem, its card, and a page of the
    learner's submitted attempts at it, newest first. The queries do not grow with the history
    (one page of attempts, their answers in one query)."""
    problem = _own_problem(number)
    card = Card.objects.filter(user=user, problem=problem).first()
    attempts_of = (
        Attempt.objects.filter(
            user=user, version__scenario__problem=problem, submitted_at__isnull=False
        )
        .select_related("version__scenario__problem", "key_version__scenario__problem", "review")
        .prefetch_related("answers")
        .order_by("-submitted_at", "-id")
    )
    page = Paginator(attempts_of, HISTORY_PAGE).get_page(page_number)
    entries = []
    for index, attempt in enumerate(page.object_list):
        try:
            variant = attempt_variant(attempt)
            text, results = variant.text, attempts.stored_outcomes(attempt, variant)
        except EngineError:  # a version that no longer compiles: the row stays, unexplained
            text, results = "This version of the question can no longer be shown.", []
        entries.append(
            HistoryEntry(
                number=page.paginator.count - page.start_index() + 1 - index,
                attempt=attempt,
                text=text,
                results=results,
                review=getattr(attempt, "review", None),
            )
        )
    return {"problem": problem, "card": card, "page": page, "entries": entries}


# Settings that recompute the schedule.


@transaction.atomic
def recompute_cards(user: User) -> None:
    """Replay every card of the learner from its review log with the current scheduler (and
    interview date). Used when the learner switches scheduler or sets an interview date."""
    profile = get_profile(user)
    scheduler = scheduler_for(profile)
    reviews: dict[int, list[Review]] = {}
    for review in Review.objects.filter(user=user).order_by("reviewed_at", "id"):
        reviews.setdefault(review.card_id, []).append(review)
    for card in Card.objects.select_for_update().filter(user=user).select_related("problem"):
        history = reviews.get(card.pk, [])
        records = [ReviewRecord(r.quality, r.reviewed_at) for r in history]
        outcome = scheduler.replay(records)
        card.state = outcome.state.to_dict()
        card.redrill_until = outcome.redrill_until
        card.due_at = None
        if history:
            last = history[-1].reviewed_at
            card.due_at = _due_with_interview(
                profile, scheduler, outcome, last, partial(list, records)
            )
        card.save(update_fields=["state", "due_at", "redrill_until"])


def answers_from_post(post: Mapping[str, str]) -> dict[str, str]:
    """The typed answers of a form: fields named part-<key>."""
    return {key[len("part-") :]: value for key, value in post.items() if key.startswith("part-")}
