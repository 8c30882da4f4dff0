"""Moving a card's schedule: after a review, after a rating, and from the whole review log when
the learner changes the settings the schedule depends on.

The review log is the source of truth. A review keeps the card's state from before it
(`Review.state_before`) so a later rating can re-apply it; after a switch of scheduler that state
belongs to the other scheduler, and is replayed from the card's earlier reviews instead.
"""

from collections.abc import Callable, Sequence
from datetime import datetime
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from trainer.practice.changes import learner_changed
from trainer.practice.forms import ProfileForm
from trainer.practice.models import Card, LearnerProfile, Review
from trainer.practice.services.profiles import get_profile, scheduler_for
from trainer.srs import (
    CardState,
    InterviewCard,
    ReviewOutcome,
    ReviewRecord,
    Scheduler,
    day_start,
    learner_day,
    plan_card,
    plans_for,
)

# SM-2: a quality below 3 restarts the repetitions, a lapse.
LAPSE_BELOW = 3
# The settings whose change replays every card from its log.
RESCHEDULING_SETTINGS = ("scheduler", "interview_date", "timezone")


def is_lapse(review: Review, quality: int) -> int:
    """SM-2: a quality below 3 restarts the repetitions; a same-day re-drill is no new lapse."""
    return int(quality < LAPSE_BELOW and review.kind != Review.Kind.REDRILL)


def review_log(card_id: int) -> list[tuple[int, int, datetime]]:
    """The card's review log, [(review id, quality, reviewed_at)], oldest first."""
    return list(
        Review.objects.filter(card_id=card_id)
        .order_by("reviewed_at", "id")
        .values_list("pk", "quality", "reviewed_at")
    )


def records(
    log: Sequence[tuple[int, int, datetime]],
    review: Review | None = None,
    quality: int | None = None,
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


def state_before(review: Review, scheduler: Scheduler) -> CardState:
    """The card's state just before `review`, in `scheduler`'s terms: as the review stored it,
    or, when the learner switched scheduler since, replayed from the card's earlier reviews."""
    if review.scheduler == scheduler.name:
        return scheduler.state_from_dict(review.state_before)
    earlier = Review.objects.filter(
        Q(reviewed_at__lt=review.reviewed_at) | Q(reviewed_at=review.reviewed_at, id__lt=review.pk),
        card_id=review.card_id,
    ).order_by("reviewed_at", "id")
    log = earlier.values_list("quality", "reviewed_at")
    return scheduler.replay([ReviewRecord(quality, at) for quality, at in log]).state


def due_with_interview(
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


def reschedule(
    card: Card,
    profile: LearnerProfile,
    scheduler: Scheduler,
    before: CardState,
    review: Review,
    *,
    first: bool,
    lapses: int,
    on_screen: int | None = None,
) -> None:
    """Apply `review` to the card from the state `before` it and save the card; `first`: the
    review is new (it counts); `lapses` is how many lapses it adds (or, negative, takes back);
    `on_screen` is the id of the attempt the practice page shows for the card (None: none)."""
    outcome = scheduler.review(before, review.quality, review.reviewed_at)
    card.state = outcome.state.to_dict()
    card.due_at = due_with_interview(
        profile, scheduler, outcome, review.reviewed_at, lambda: records(review_log(card.pk))
    )
    card.redrill_until = outcome.redrill_until
    card.last_reviewed_at = review.reviewed_at
    if first:
        card.reviews_count += 1
    card.lapses += lapses
    card.open_attempt_id = on_screen
    card.save(
        update_fields=[
            "state",
            "due_at",
            "redrill_until",
            "last_reviewed_at",
            "reviews_count",
            "lapses",
            "open_attempt",
        ]
    )


@transaction.atomic
def recompute_cards(user: User) -> None:
    """Replay every card of the learner from its review log with the current scheduler (and
    interview date)."""
    profile = get_profile(user)
    scheduler = scheduler_for(profile)
    logs: dict[int, list[ReviewRecord]] = {}
    for card_id, quality, reviewed_at in (
        Review.objects.filter(user=user)
        .order_by("reviewed_at", "id")
        .values_list("card_id", "quality", "reviewed_at")
    ):
        logs.setdefault(card_id, []).append(ReviewRecord(quality, reviewed_at))
    for card in Card.objects.select_for_update().filter(user=user):
        log = logs.get(card.pk, [])
        outcome = scheduler.replay(log)
        card.state = outcome.state.to_dict()
        card.redrill_until = outcome.redrill_until
        card.due_at = None
        if log:
            card.due_at = due_with_interview(
                profile, scheduler, outcome, log[-1].reviewed_at, partial(list, log)
            )
        card.save(update_fields=["state", "due_at", "redrill_until"])


def save_settings(user: User, form: ProfileForm) -> LearnerProfile:
    """Store a valid settings form: its own fields only (the running-mock mark and the data
    version are written by their own services, and a stale copy must not overwrite them), and
    every card replayed from its log when the schedule depends on what changed."""
    with transaction.atomic():
        profile = form.save(commit=False)
        profile.save(update_fields=ProfileForm.Meta.fields)
        if set(form.changed_data) & set(RESCHEDULING_SETTINGS):
            recompute_cards(user)
        learner_changed(user.pk)
    return profile
