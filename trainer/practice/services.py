"""Daily practice: which card is next, drawing its variant, grading, scheduling.

Views call these; they hold the rules. Every write happens in one transaction, so an attempt and
its review are saved together or not at all, and a second submission of the same attempt (two
tabs, a double click) finds it already submitted and applies nothing.
"""

import random
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Count, Q

from problems import attempts
from problems.engine import EngineError
from problems.models import Attempt, Problem, ScenarioVersion
from problems.variants import new_seed
from trainer.curriculum import load_curriculum
from trainer.practice.models import Card, LearnerProfile, Review
from trainer.srs import (
    InterviewCard,
    ReviewRecord,
    SelfRating,
    build_queue,
    day_start,
    learner_day,
    make_scheduler,
    plan_card,
    queue_card,
    review_quality,
)

# SM-2: a quality below 3 restarts the repetitions, a lapse.
LAPSE_BELOW = 3


class PracticeError(Exception):
    """A request that cannot be carried out; the message is for the learner."""


class NotFound(PracticeError):
    """Not the learner's, or not there at all: the two look the same (a 404)."""


def get_profile(user):
    """The learner's profile: usually already loaded with the user by the auth backend."""
    try:
        return user.learner_profile
    except LearnerProfile.DoesNotExist:
        profile, _ = LearnerProfile.objects.get_or_create(user=user)
        user.learner_profile = profile
        return profile


def create_profile(sender, user, time_zone, **kwargs):
    """A new account's profile, in the time zone its browser reported at sign-up."""
    profile, _ = LearnerProfile.objects.update_or_create(
        user=user, defaults={"timezone": time_zone}
    )
    user.learner_profile = profile
    return profile


def scheduler_for(profile):
    return make_scheduler(profile.scheduler, learner_tz=profile.tz)


def today_start(profile, now):
    return day_start(learner_day(now, profile.tz), profile.tz)


# Introducing cards.


def plan_order():
    """Problem numbers in the order the 24-hour plan reaches them; authored problems after."""
    return list(load_curriculum().problems_in_plan_order())


def introduce(user, numbers, now):
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


def practice_now(user, number, now):
    """Open a question of problem `number` now, whatever the schedule says (the learner chose
    it): the card is created if needed, and practice shows this question next."""
    introduce(user, [number], now)
    card = (
        Card.objects.filter(user=user, problem__number=number)
        .select_related("problem", "open_attempt")
        .first()
    )
    if card is None:
        raise PracticeError(f"Problem {number} is not in the bank yet, so it cannot be practised.")
    open_attempt(card, now)
    return card


def introduce_all(user, now):
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


def learner_cards(user):
    """Every card of the learner with what the queue and the question on screen need, in one
    query: the problem (without its long texts) and the open attempt with its version (without
    its definition, which only compiling a version not yet compiled reads)."""
    return list(
        Card.objects.filter(user=user)
        .select_related("problem", "open_attempt__version")
        .defer(*PROBLEM_LONG_TEXTS, "open_attempt__version__definition")
    )


@dataclass
class PracticeQueue:
    """What the practice page needs: the card to show, and the day's numbers."""

    card: Card | None
    due_total: int
    new_left: int
    redrills: int
    next_at: object
    done_today: int
    cards_total: int


def practice_queue(user, profile, now, cards=None):
    """The learner's queue now; `cards` may be passed when the caller has them already."""
    scheduler = scheduler_for(profile)
    if cards is None:
        cards = learner_cards(user)
    counts = Review.objects.filter(user=user, reviewed_at__gte=today_start(profile, now)).aggregate(
        new=Count("id", filter=Q(kind=Review.Kind.NEW)),
        due=Count("id", filter=Q(kind=Review.Kind.DUE)),
        total=Count("id"),
    )
    queue = build_queue(
        [
            queue_card(
                card.pk,
                scheduler,
                scheduler.state_from_dict(card.state),
                now,
                due=card.due_at,
                new_rank=card.rank,
            )
            for card in cards
        ],
        now,
        learner_tz=profile.tz,
        new_limit=profile.daily_new_limit,
        new_done_today=counts["new"],
        review_cap=profile.daily_review_cap,
        reviews_done_today=counts["due"],
        order=profile.queue_order,
    )
    by_id = {card.pk: card for card in cards}
    # A question already on screen comes first, so a reload shows it again; that includes one
    # the learner chose (practice_now) although the schedule did not ask for it yet.
    open_cards = [
        card
        for card in cards
        if card.open_attempt is not None and card.open_attempt.submitted_at is None
    ]
    if open_cards:
        first = max(open_cards, key=lambda card: card.open_attempt.started_at)
    else:
        first = by_id[queue.keys[0]] if queue.keys else None
    return PracticeQueue(
        card=first,
        due_total=queue.due_total,
        new_left=len(queue.new_keys),
        redrills=len(queue.redrill_keys),
        next_at=queue.next_at,
        done_today=counts["total"],
        cards_total=len(cards),
    )


# Drawing a variant for a card.


def _published_versions(problem):
    return list(
        ScenarioVersion.objects.published()
        .filter(scenario__problem=problem)
        .select_related("scenario__problem")
    )


def pick_version(problem, last_version_id=None):
    """A published version of one of the problem's scenarios, a different scenario from last
    time when there is a choice, so a learner meets every setting of the problem."""
    versions = _published_versions(problem)
    if not versions:
        raise PracticeError(f"Problem {problem.number} has no published scenario yet.")
    fresh = [version for version in versions if version.pk != last_version_id]
    return random.choice(fresh or versions)


def open_attempt(card, now):
    """The attempt on screen for this card: the open one, or a new draw."""
    attempt = card.open_attempt
    if attempt is not None and attempt.submitted_at is None:
        return attempt
    last = (
        Attempt.objects.filter(user_id=card.user_id, version__scenario__problem_id=card.problem_id)
        .order_by("-started_at")
        .values_list("version_id", flat=True)
        .first()
    )
    version = pick_version(card.problem, last)
    attempt = Attempt.objects.create(
        user_id=card.user_id, version=version, seed=new_seed(), started_at=now
    )
    Card.objects.filter(pk=card.pk).update(open_attempt=attempt)
    card.open_attempt = attempt
    return attempt


def get_own_attempt(user, attempt_id):
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
    def accepted(self):
        return not self.parse_errors


def submit(user, attempt_id, answers, now):
    """Grade and record an attempt, then schedule its card. Idempotent per attempt."""
    with transaction.atomic():
        attempt = (
            Attempt.objects.select_for_update()
            .select_related("version__scenario__problem")
            .filter(pk=attempt_id, user=user)
            .first()
        )
        if attempt is None or attempt.purpose != Attempt.Purpose.PRACTICE:
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
        attempts.save_grades(attempt, graded, submitted_at=now)
        card = (
            Card.objects.select_for_update()
            .select_related("problem")
            .filter(user=user, problem=attempt.version.scenario.problem)
            .first()
        )
        review = None
        if card is not None:
            card.user = user  # its owner, as filtered: apply_review need not load it again
            review = apply_review(
                card,
                attempt,
                graded.score,
                incomplete=graded.incomplete,
                elapsed=min(
                    (now - attempt.started_at).total_seconds(), attempts.MAX_ELAPSED_SECONDS
                ),
                now=now,
            )
        return Submission(attempt, parts=graded.parts, review=review)


def _kind_of(card, outcome_state_before, scheduler, now):
    if card.last_reviewed_at is None:
        return Review.Kind.NEW
    before = scheduler.outcome(outcome_state_before)
    if before.redrill_until is not None and now < before.redrill_until:
        return Review.Kind.REDRILL
    due = card.due_at or before.due
    if due is not None and due <= now:
        return Review.Kind.DUE
    return Review.Kind.EXTRA


def apply_review(card, attempt, score, *, incomplete, elapsed, now, kind=None):
    """Record a review of `card` and move its schedule. The caller holds the transaction."""
    profile = get_profile(card.user)
    scheduler = scheduler_for(profile)
    state_before = scheduler.state_from_dict(card.state)
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
        kind=kind or _kind_of(card, state_before, scheduler, now),
        reviewed_at=now,
        score=score,
        incomplete=incomplete,
        elapsed_seconds=elapsed,
        automatic_quality=quality,
        quality=quality,
        state_before=card.state,
        scheduler=scheduler.name,
    )
    lapses = int(quality < LAPSE_BELOW and review.kind != Review.Kind.REDRILL)
    _reschedule(card, profile, scheduler, state_before, review, first=True, lapses=lapses)
    return review


def _reschedule(card, profile, scheduler, state_before, review, *, first, lapses):
    """Apply `review` to the card from `state_before`; `lapses` is how many lapses it adds."""
    outcome = scheduler.review(state_before, review.quality, review.reviewed_at)
    card.state = outcome.state.to_dict()
    card.due_at = _due_with_interview(card, profile, scheduler, outcome, review)
    card.redrill_until = outcome.redrill_until
    card.last_reviewed_at = review.reviewed_at
    if first:
        card.reviews_count += 1
    card.lapses += lapses
    card.open_attempt = None
    card.save()


def _due_with_interview(card, profile, scheduler, outcome, review):
    """The due instant: the scheduler's, or interview mode's when an interview is coming."""
    today = learner_day(review.reviewed_at, profile.tz)
    if profile.interview_date is None or profile.interview_date <= today:
        return outcome.due
    history = [
        ReviewRecord(quality, reviewed_at)
        for quality, reviewed_at in Review.objects.filter(card=card).values_list(
            "quality", "reviewed_at"
        )
    ]
    plan = plan_card(
        scheduler,
        InterviewCard(outcome.state, tuple(history)),
        today=today,
        interview_day=profile.interview_date,
    )
    if plan.next_review is None:
        return outcome.due
    planned = day_start(plan.next_review, profile.tz)
    return planned if outcome.due is None else min(planned, outcome.due)


def rate(user, review_id, rating, now):
    """Apply the learner's self-rating to a review; it can only lower the quality."""
    try:
        rating = SelfRating(int(rating))
    except (TypeError, ValueError):
        raise PracticeError("Choose Again, Hard, Good or Easy.") from None
    with transaction.atomic():
        review = (
            Review.objects.select_for_update()
            .select_related("card__problem")
            .filter(pk=review_id, user=user)
            .first()
        )
        if review is None:
            raise NotFound("This review does not exist.")
        if review.self_rating is not None:
            return review
        newer = Review.objects.filter(card=review.card, reviewed_at__gt=review.reviewed_at)
        if newer.exists():
            raise PracticeError("This card has been reviewed again since; rate the latest review.")
        quality = review_quality(
            review.score,
            incomplete=review.incomplete,
            time_taken=review.elapsed_seconds,
            expected_time=review.card.problem.expected_minutes * 60,
            self_rating=rating,
        )
        review.self_rating = int(rating)
        changed = quality != review.quality
        # A rating can only lower the quality, so it can turn a pass into a lapse, never back.
        lapses = int(review.quality >= LAPSE_BELOW > quality and review.kind != Review.Kind.REDRILL)
        review.quality = quality
        review.save(update_fields=["self_rating", "quality"])
        if changed:
            card = Card.objects.select_for_update().select_related("problem").get(pk=review.card_id)
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
            )
        return review


# Settings that recompute the schedule.


@transaction.atomic
def recompute_cards(user):
    """Replay every card of the learner from its review log with the current scheduler (and
    interview date). Used when the learner switches scheduler or sets an interview date."""
    profile = get_profile(user)
    scheduler = scheduler_for(profile)
    reviews = {}
    for review in Review.objects.filter(user=user).order_by("reviewed_at", "id"):
        reviews.setdefault(review.card_id, []).append(review)
    for card in Card.objects.select_for_update().filter(user=user).select_related("problem"):
        history = reviews.get(card.pk, [])
        outcome = scheduler.replay(ReviewRecord(r.quality, r.reviewed_at) for r in history)
        card.state = outcome.state.to_dict()
        card.redrill_until = outcome.redrill_until
        card.due_at = (
            _due_with_interview(card, profile, scheduler, outcome, history[-1]) if history else None
        )
        card.save(update_fields=["state", "due_at", "redrill_until"])


def answers_from_post(post):
    """The typed answers of a form: fields named part-<key>."""
    return {key[len("part-") :]: value for key, value in post.items() if key.startswith("part-")}
