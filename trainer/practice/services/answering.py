"""Answering a question: grade the typed answers, store them, record the review and move the
card's schedule, in one transaction. A second submission of the same attempt (two tabs, a double
click) finds it submitted and applies nothing; an unreadable answer costs nothing."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from problems import attempts
from problems.engine import EngineError
from problems.models import Attempt, Problem
from trainer.practice.changes import learner_changed
from trainer.practice.models import Card, Review
from trainer.practice.services.profiles import (
    NotFound,
    PracticeError,
    get_profile,
    scheduler_for,
)
from trainer.practice.services.queue import own_problem, pick_version
from trainer.practice.services.scheduling import is_lapse, reschedule
from trainer.srs import CardState, Scheduler, review_quality

# What practice answers: its own questions and "another variant" (never a mock's attempts).
PRACTISED = (Attempt.Purpose.PRACTICE, Attempt.Purpose.FREE)


def get_own_attempt(user: User, attempt_id: int) -> Attempt | None:
    """The learner's own attempt, or None: another learner's attempt does not exist for them."""
    return (
        Attempt.objects.filter(pk=attempt_id, user=user)
        .select_related("version__scenario__problem")
        .first()
    )


def answers_from_post(post: Mapping[str, str]) -> dict[str, str]:
    """The typed answers of a form: fields named part-<key>."""
    return {key[len("part-") :]: value for key, value in post.items() if key.startswith("part-")}


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
        attempts.submit(attempt, graded, now)
        learner_changed(user.pk)
        if attempt.purpose == Attempt.Purpose.FREE:
            return Submission(attempt, parts=graded.parts)
        problem = attempt.version.scenario.problem
        card = _card_to_review(user, problem)
        review = None
        if card is not None:
            card.user = user  # its owner, as filtered: apply_review need not load it again
            card.problem = problem
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


def _attempt_to_answer(user: User, attempt_id: int) -> Attempt | None:
    """The learner's attempt, its row alone locked, with its version (without its definition,
    which only compiling a version the process has not compiled yet reads), scenario and
    problem, and the learner's report on it (the result shows it)."""
    try:
        return (
            Attempt.objects.select_for_update(of=("self",))
            .select_related("version__scenario__problem", "report")
            .defer("version__definition")
            .get(pk=attempt_id, user=user)
        )
    except Attempt.DoesNotExist:
        return None


def _card_to_review(user: User, problem: Problem) -> Card | None:
    """The learner's card of `problem`, locked. Graded answers of other cards still waiting for
    a rating keep their automatic grade: the learner moved on (read in the same statement, as
    there is rarely one, and put away)."""
    cards = list(
        Card.objects.select_for_update(of=("self",)).filter(
            Q(problem=problem) | Q(open_attempt__submitted_at__isnull=False), user=user
        )
    )
    waiting = [card.pk for card in cards if card.problem_id != problem.pk]
    if waiting:
        Card.objects.filter(pk__in=waiting).update(open_attempt=None)
    return next((card for card in cards if card.problem_id == problem.pk), None)


def _kind_of(card: Card, before: CardState, scheduler: Scheduler, now: datetime) -> str:
    if card.last_reviewed_at is None:
        return Review.Kind.NEW
    outcome = scheduler.outcome(before)
    if outcome.redrill_until is not None and now < outcome.redrill_until:
        return Review.Kind.REDRILL
    due = card.due_at or outcome.due
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
    """Record a review of `card` and move its schedule. The caller holds the transaction and the
    card's row lock (a mock's end feeds its reviews through here too).

    `awaiting_rating`: the graded attempt stays on the card (`open_attempt`) until the learner
    rates it or moves on, so a reload of the practice page shows it again."""
    assert score is not None, "a graded attempt has a score"
    profile = get_profile(card.user)
    scheduler = scheduler_for(profile)
    before = scheduler.state_from_dict(card.state)
    quality = review_quality(
        score,
        incomplete=incomplete,
        time_taken=elapsed,
        expected_time=card.problem.expected_minutes * 60,
    )
    review = Review.objects.create(
        card=card,
        user_id=card.user_id,
        attempt=attempt,
        kind=kind or _kind_of(card, before, scheduler, now),
        reviewed_at=now,
        score=score,
        incomplete=incomplete,
        elapsed_seconds=elapsed,
        automatic_quality=quality,
        quality=quality,
        state_before=card.state,
        scheduler=scheduler.name,
    )
    reschedule(
        card,
        profile,
        scheduler,
        before,
        review,
        first=True,
        lapses=is_lapse(review, quality),
        on_screen=attempt.pk if awaiting_rating else None,
    )
    return review


def another_variant(user: User, number: int, now: datetime) -> Attempt:
    """A new variant of problem `number` that never touches the schedule: graded and shown
    like practice, but no review and no change to the card (Attempt purpose "free")."""
    problem = own_problem(number)
    last = Card.objects.filter(user=user, problem=problem).values_list("last_version", flat=True)
    version = pick_version(problem, last.first())
    return attempts.draw(user.pk, version, Attempt.Purpose.FREE, now)
