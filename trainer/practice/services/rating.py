"""Rating a graded answer, moving on from it, and undoing the latest rating.

A graded answer waits on its card (`Card.open_attempt`) until the learner rates it or moves on.
A rating re-applies the review to the card from the state before it with the quality the button
gives (the rules are in trainer/srs/quality.py and the help page); Undo puts back the automatic
grade and shows the answer again.
"""

from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction

from trainer.practice.changes import learner_changed
from trainer.practice.models import Card, Review
from trainer.practice.services.profiles import (
    NotFound,
    PracticeError,
    get_profile,
    scheduler_for,
)
from trainer.practice.services.scheduling import (
    due_with_interview,
    is_lapse,
    records,
    reschedule,
    review_log,
    state_before,
)
from trainer.srs import (
    SelfRating,
    default_rating,
    easy_allowed,
    interval_text,
    rated_quality,
)


def _parse_rating(rating: str | int | None) -> SelfRating:
    try:
        return SelfRating(int(rating or ""))
    except (TypeError, ValueError):
        raise PracticeError("Choose Again, Hard, Good or Easy.") from None


def _own_review_for_update(user: User, review_id: int) -> Review:
    """The learner's review with its card, both rows locked in one statement."""
    try:
        return (
            Review.objects.select_for_update(of=("self", "card"))
            .select_related("card")
            .get(pk=review_id, user=user)
        )
    except Review.DoesNotExist:
        raise NotFound("This review does not exist.") from None


def awaiting_rating(review: Review) -> bool:
    """The graded answer of `review` is still on screen for its rating."""
    return review.attempt_id is not None and review.card.open_attempt_id == review.attempt_id


def rate(user: User, review_id: int, rating: str | int | None, now: datetime) -> Review:
    """Apply the learner's rating to a graded answer waiting for one: Good keeps the automatic
    quality, Again and Hard cap it, Easy lifts a fully correct answer to 5. A second rating (a
    double click, another tab) changes nothing: Undo reopens an answer for rating."""
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
        learner_changed(user.pk)
        return review


def skip(user: User, review_id: int, now: datetime) -> Review:
    """Move on from a graded answer without rating it: it keeps its automatic grade."""
    with transaction.atomic():
        review = _own_review_for_update(user, review_id)
        if awaiting_rating(review):
            Card.objects.filter(pk=review.card_id).update(open_attempt=None)
            learner_changed(user.pk)
        return review


def undo(user: User, review_id: int, now: datetime) -> Review:
    """Take back the rating of the learner's latest review (Anki's Ctrl+Z): the card is put
    back as the review log says it was before the review, with the automatic grade applied, and
    the graded answer is shown again for rating. Only the learner's own latest practice review
    can be undone; the answer itself stays graded, since the solution has been seen."""
    with transaction.atomic():
        review = _own_review_for_update(user, review_id)
        latest = (
            Review.objects.filter(user=user)
            .order_by("-reviewed_at", "-id")
            .values_list("pk", flat=True)
            .first()
        )
        if latest != review.pk:
            raise PracticeError("Only your latest review can be undone.")
        if review.kind == Review.Kind.MOCK or review.attempt_id is None:
            raise PracticeError("A mock interview's answers cannot be undone.")
        if awaiting_rating(review):
            return review
        _set_quality(
            user, review, review.automatic_quality, self_rating=None, on_screen=review.attempt_id
        )
        learner_changed(user.pk)
        return review


def _set_quality(
    user: User, review: Review, quality: int, *, self_rating: int | None, on_screen: int | None
) -> None:
    """Store the review's new quality and re-apply it to the card from the state before the
    review. The caller holds the transaction and the locks of the review and its card. After a
    switch of scheduler the review keeps the state replayed in the new scheduler's terms."""
    profile = get_profile(user)
    scheduler = scheduler_for(profile)
    before = state_before(review, scheduler)
    lapses = is_lapse(review, quality) - is_lapse(review, review.quality)
    review.self_rating = self_rating
    review.quality = quality
    fields = ["self_rating", "quality"]
    if review.scheduler != scheduler.name:
        review.state_before, review.scheduler = before.to_dict(), scheduler.name
        fields += ["state_before", "scheduler"]
    review.save(update_fields=fields)
    reschedule(
        review.card,
        profile,
        scheduler,
        before,
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
    before = state_before(review, scheduler)
    fully_correct = easy_allowed(review.score, review.incomplete)
    default = default_rating(review.automatic_quality)
    log = review_log(review.card_id) if profile.interview_date is not None else []
    choices = []
    for rating in SelfRating:
        quality = rated_quality(review.automatic_quality, rating, fully_correct=fully_correct)
        outcome = scheduler.review(before, quality, review.reviewed_at)
        due = due_with_interview(
            profile, scheduler, outcome, review.reviewed_at, partial(records, log, review, quality)
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
