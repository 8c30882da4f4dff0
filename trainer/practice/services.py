"""Daily practice: which card is next, drawing its variant, grading, scheduling.

Views call these; they hold the rules. Every write happens in one transaction, so an attempt and
its review are saved together or not at all, and a second submission of the same attempt (two
tabs, a double click) finds it already submitted and applies nothing.
"""

import random
from dataclasses import dataclass, field

from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Count, Q

from problems import attempts
from problems.engine import EngineError
from problems.models import Attempt, Problem, ScenarioVersion
from problems.variants import attempt_variant, new_seed
from trainer.curriculum import load_curriculum
from trainer.practice.models import Card, LearnerProfile, Review
from trainer.srs import (
    InterviewCard,
    ReviewRecord,
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
    """What the practice page needs: the card to show, and the day's numbers.

    `card` is the card on screen: a graded answer waiting for its rating (its `open_attempt` is
    submitted), else a question already drawn, else the queue's first card. `undo` is the
    learner's latest review when it can be undone (see `undo`), else None."""

    card: Card | None
    due_total: int
    new_left: int
    redrills: int
    next_at: object
    done_today: int
    cards_total: int
    undo: Review | None = None


def _latest_reviews(user, count=2):
    """The learner's latest reviews, newest first: what the queue needs so a card does not come
    back three times in a row, and what Undo would take back."""
    return list(
        Review.objects.filter(user=user)
        .order_by("-reviewed_at", "-id")
        .only("id", "card_id", "attempt_id", "kind")[:count]
    )


def _undoable(review, cards_by_id):
    """The latest review can be undone: a practice review, already rated or moved on from."""
    if review is None or review.kind == Review.Kind.MOCK or review.attempt_id is None:
        return False
    card = cards_by_id.get(review.card_id)
    return card is not None and card.open_attempt_id != review.attempt_id


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
    recent = _latest_reviews(user)
    active = [card for card in cards if not card.suspended]
    queue = build_queue(
        [
            queue_card(
                card.pk,
                scheduler,
                scheduler.state_from_dict(card.state),
                now,
                due=card.due_at,
                new_rank=card.rank,
                last_reviewed_at=card.last_reviewed_at,
                held_until=card.buried_until,
            )
            for card in active
        ],
        now,
        learner_tz=profile.tz,
        new_limit=profile.daily_new_limit,
        new_done_today=counts["new"],
        review_cap=profile.daily_review_cap,
        reviews_done_today=counts["due"],
        order=profile.queue_order,
        recent_keys=[review.card_id for review in recent],
    )
    by_id = {card.pk: card for card in cards}
    return PracticeQueue(
        card=_card_on_screen(active) or (by_id[queue.keys[0]] if queue.keys else None),
        due_total=queue.due_total,
        new_left=len(queue.new_keys),
        redrills=len(queue.redrill_keys),
        next_at=queue.next_at,
        done_today=counts["total"],
        cards_total=len(cards),
        undo=_with_card(recent[0], by_id) if recent and _undoable(recent[0], by_id) else None,
    )


def _with_card(review, cards_by_id):
    review.card = cards_by_id[review.card_id]  # loaded already, with its problem
    return review


def _card_on_screen(cards):
    """A graded answer waiting for its rating comes first, then a question already drawn, so a
    reload shows either again; that includes one the learner chose (practice_now) although the
    schedule did not ask for it yet."""
    graded = [card for card in cards if card.open_attempt and card.open_attempt.submitted_at]
    if graded:
        return max(graded, key=lambda card: card.open_attempt.submitted_at)
    drawn = [card for card in cards if card.open_attempt is not None]
    return max(drawn, key=lambda card: card.open_attempt.started_at) if drawn else None


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
    """Grade and record an attempt, then schedule its card (not for "another variant", which
    never touches the schedule). Idempotent per attempt."""
    with transaction.atomic():
        attempt = (
            Attempt.objects.select_for_update()
            .select_related("version__scenario__problem")
            .filter(pk=attempt_id, user=user)
            .first()
        )
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
        attempts.save_grades(attempt, graded, submitted_at=now)
        if attempt.purpose == Attempt.Purpose.FREE:
            return Submission(attempt, parts=graded.parts)
        card = (
            Card.objects.select_for_update()
            .select_related("problem")
            .filter(user=user, problem=attempt.version.scenario.problem)
            .first()
        )
        review = None
        if card is not None:
            card.user = user  # its owner, as filtered: apply_review need not load it again
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


def _settle_pending(user, keep=None):
    """Graded answers still waiting for a rating keep their automatic grade: the learner moved
    on (answered another card, or chose one). At most one answer waits at a time."""
    pending = Card.objects.filter(user=user, open_attempt__submitted_at__isnull=False)
    if keep is not None:
        pending = pending.exclude(pk=keep)
    pending.update(open_attempt=None)


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


def apply_review(
    card, attempt, score, *, incomplete, elapsed, now, kind=None, awaiting_rating=False
):
    """Record a review of `card` and move its schedule. The caller holds the transaction.

    `awaiting_rating`: the graded attempt stays on the card (`open_attempt`) until the learner
    rates it or moves on, so a reload of the practice page shows it again."""
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


def _is_lapse(review, quality):
    """SM-2: a quality below 3 restarts the repetitions; a same-day re-drill is no new lapse."""
    return int(quality < LAPSE_BELOW and review.kind != Review.Kind.REDRILL)


def _reschedule(card, profile, scheduler, state_before, review, *, first, lapses, on_screen=None):
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
    card.save()


def _review_log(card):
    """The card's review log, [(review id, quality, reviewed_at)]; `card` may be an id."""
    return list(Review.objects.filter(card=card).values_list("pk", "quality", "reviewed_at"))


def _history(card):
    """Reads the card's review log as the interview planner needs it, when it is called (only
    interview mode needs it)."""
    return lambda: _records(_review_log(card))


def _records(log, review=None, quality=None):
    """ReviewRecords of a review log; `quality` replaces that of `review` (what a rating button
    would make of it)."""
    return [
        ReviewRecord(quality if review is not None and pk == review.pk else logged, reviewed_at)
        for pk, logged, reviewed_at in log
    ]


def _due_with_interview(profile, scheduler, outcome, reviewed_at, history):
    """The due instant: the scheduler's, or interview mode's when an interview is coming.
    `history` reads the card's review log (only called in interview mode)."""
    today = learner_day(reviewed_at, profile.tz)
    if not plans_for(profile.interview_date, today):
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


def _parse_rating(rating):
    try:
        return SelfRating(int(rating))
    except (TypeError, ValueError):
        raise PracticeError("Choose Again, Hard, Good or Easy.") from None


def _own_review_for_update(user, review_id):
    review = (
        Review.objects.select_for_update(of=("self",))
        .select_related("card__problem")
        .filter(pk=review_id, user=user)
        .first()
    )
    if review is None:
        raise NotFound("This review does not exist.")
    return review


def awaiting_rating(review):
    """The graded answer of `review` is still on screen for its rating."""
    return review.attempt_id is not None and review.card.open_attempt_id == review.attempt_id


def rate(user, review_id, rating, now):
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


def skip(user, review_id, now):
    """Move on from a graded answer without rating it: it keeps its automatic grade."""
    with transaction.atomic():
        review = _own_review_for_update(user, review_id)
        if awaiting_rating(review):
            Card.objects.filter(pk=review.card_id).update(open_attempt=None)
        return review


def undo(user, review_id, now):
    """Take back the rating of the learner's latest review (Anki's Ctrl+Z): the card is put
    back as the review log says it was before (`state_before`) with the automatic grade applied,
    and the graded answer is shown again for rating. Only the learner's own latest practice
    review can be undone; the answer itself stays graded, since the solution has been seen."""
    with transaction.atomic():
        review = _own_review_for_update(user, review_id)
        latest = (
            Review.objects.filter(user=user).order_by("-reviewed_at", "-id").values("pk").first()
        )
        if latest["pk"] != review.pk:
            raise PracticeError("Only your latest review can be undone.")
        if review.kind == Review.Kind.MOCK or review.attempt_id is None:
            raise PracticeError("A mock interview's answers cannot be undone.")
        if awaiting_rating(review):
            return review
        _set_quality(
            user, review, review.automatic_quality, self_rating=None, on_screen=review.attempt
        )
        return review


def _set_quality(user, review, quality, *, self_rating, on_screen):
    """Store the review's new quality and re-apply it to the card from the state the log holds
    from before the review. The caller holds the transaction and the review's row lock."""
    card = Card.objects.select_for_update().select_related("problem").get(pk=review.card_id)
    lapses = _is_lapse(review, quality) - _is_lapse(review, review.quality)
    review.self_rating = self_rating
    review.quality = quality
    review.save(update_fields=["self_rating", "quality"])
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
    def label(self):
        return self.rating.name.capitalize()


def rating_choices(user, review):
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
            lambda quality=quality: _records(log, review, quality),
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


def _own_problem(number):
    problem = Problem.objects.filter(number=number).first()
    if problem is None:
        raise NotFound(f"There is no problem {number}.")
    return problem


def another_variant(user, number, now):
    """A new variant of problem `number` that never touches the schedule: graded and shown
    like practice, but no review and no change to the card (Attempt purpose "free")."""
    problem = _own_problem(number)
    last = (
        Attempt.objects.filter(user=user, version__scenario__problem=problem)
        .order_by("-started_at")
        .values_list("version_id", flat=True)
        .first()
    )
    version = pick_version(problem, last)
    return Attempt.objects.create(
        user=user,
        version=version,
        seed=new_seed(),
        started_at=now,
        purpose=Attempt.Purpose.FREE,
    )


def _own_card_for_update(user, number, now):
    """The learner's card of problem `number`, created if the problem has none yet (suspending
    a problem not yet introduced keeps it out of the plan)."""
    problem = _own_problem(number)
    introduce(user, [number], now)
    card = Card.objects.select_for_update().filter(user=user, problem=problem).first()
    if card is None:
        raise PracticeError(f"Problem {number} has no published scenario, so it has no card.")
    return card


def suspend(user, number, now, suspended=True):
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


def bury(user, number, now, buried=True):
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


def held_cards(user, now):
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
    results: list
    review: Review | None


def problem_page(user, number, now, page_number=1):
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
        records = [ReviewRecord(r.quality, r.reviewed_at) for r in history]
        outcome = scheduler.replay(records)
        card.state = outcome.state.to_dict()
        card.redrill_until = outcome.redrill_until
        card.due_at = None
        if history:
            last = history[-1].reviewed_at
            card.due_at = _due_with_interview(
                profile, scheduler, outcome, last, lambda records=records: records
            )
        card.save(update_fields=["state", "due_at", "redrill_until"])


def answers_from_post(post):
    """The typed answers of a form: fields named part-<key>."""
    return {key[len("part-") :]: value for key, value in post.items() if key.startswith("part-")}
