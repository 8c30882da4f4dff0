"""Spaced-repetition state per learner: a profile, a card per problem, and the review log.

The review log is the source of truth: a card's scheduler state can always be recomputed from
its reviews (which is what switching scheduler does).
"""

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from problems.models import Attempt, Problem, ScenarioVersion
from trainer.srs import SCHEDULER_NAMES, SelfRating


def validate_timezone(value: str) -> None:
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise ValidationError(f"{value!r} is not a time zone name such as Europe/London.") from None


class LearnerProfile(models.Model):
    class QueueOrder(models.TextChoices):
        OVERDUE = "overdue", "Most overdue first"
        RECALL = "recall", "Lowest predicted recall first"

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="learner_profile"
    )
    scheduler = models.CharField(
        max_length=10, choices=[(name, name.upper()) for name in SCHEDULER_NAMES], default="sm2"
    )
    timezone = models.CharField(max_length=60, default="UTC", validators=[validate_timezone])
    daily_new_limit = models.PositiveSmallIntegerField(default=5)
    daily_review_cap = models.PositiveSmallIntegerField(default=50)
    queue_order = models.CharField(max_length=10, choices=QueueOrder, default=QueueOrder.OVERDUE)
    interview_date = models.DateField(null=True, blank=True)
    # While a mock interview runs: its deadline with the grace (trainer/mock/services.py), set by
    # its start and cleared by its end. Practice waits until then; it is read with the user on
    # every request, so asking "is a mock running" costs practice no query. A mock whose time
    # is up is over at this instant even before anything ends it.
    mock_until = models.DateTimeField(null=True, blank=True)
    # Counts the writes that change what the learner's pages show (a review, a rating, a mock,
    # a plan tick): whatever is computed from the learner's records may be kept under this
    # number and is out of date once it moves (`trainer.practice.changes`).
    data_version = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"profile of {self.user_id}"

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)


class Card(models.Model):
    """One learner × problem: its scheduler state, and when it is next due."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cards"
    )
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="cards")
    # Position in the learner's plan: new cards are introduced in this order.
    rank = models.PositiveSmallIntegerField(default=0)
    state = models.JSONField()
    # When the card is next due (None: new, never reviewed); interview mode may pull it earlier.
    due_at = models.DateTimeField(null=True, blank=True)
    redrill_until = models.DateTimeField(null=True, blank=True)
    introduced_at = models.DateTimeField()
    last_reviewed_at = models.DateTimeField(null=True, blank=True)
    reviews_count = models.PositiveIntegerField(default=0)
    lapses = models.PositiveIntegerField(default=0)
    # The variant in front of the learner: a reload shows it again rather than drawing anew.
    # Once submitted it stays here until the learner rates it or moves on, so a reload shows
    # the graded answer with its rating buttons rather than losing it.
    open_attempt = models.ForeignKey(
        Attempt, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The version the card's last question was drawn from: the next draw picks another
    # scenario of the problem when it has one, so a learner meets every setting of it.
    last_version = models.ForeignKey(
        ScenarioVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Anki's suspend (out of the queue until unsuspended) and bury (until the learner's next day).
    suspended = models.BooleanField(default=False)
    buried_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "problem"], name="unique_card_per_problem")
        ]
        indexes = [models.Index(fields=["user", "due_at"])]

    def __str__(self) -> str:
        return f"card {self.problem_id} of {self.user_id}"


class Review(models.Model):
    """One graded practice event: what the schedulers replay and the statistics read."""

    class Kind(models.TextChoices):
        NEW = "new", "First review of a new card"
        DUE = "due", "Review of a due card"
        REDRILL = "redrill", "Same-day re-drill"
        EXTRA = "extra", "Extra practice of a card not yet due"
        MOCK = "mock", "Mock interview"

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="reviews")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    attempt = models.OneToOneField(
        Attempt, null=True, blank=True, on_delete=models.SET_NULL, related_name="review"
    )
    kind = models.CharField(max_length=10, choices=Kind)
    reviewed_at = models.DateTimeField()
    score = models.FloatField()
    # Some part was left blank: caps the quality (see trainer/srs/quality.py).
    incomplete = models.BooleanField(default=False)
    elapsed_seconds = models.FloatField(null=True, blank=True)
    automatic_quality = models.PositiveSmallIntegerField()
    self_rating = models.PositiveSmallIntegerField(null=True, blank=True)
    quality = models.PositiveSmallIntegerField()
    # The card as it was before this review, so a later self-rating can re-apply it.
    state_before = models.JSONField()
    scheduler = models.CharField(max_length=10)

    class Meta:
        indexes = [models.Index(fields=["user", "reviewed_at"])]

    def __str__(self) -> str:
        return f"review {self.pk} q{self.quality}"

    @property
    def rating_name(self) -> str:
        """The button the learner pressed ("Good"), or "" when they did not rate."""
        return SelfRating(self.self_rating).name.capitalize() if self.self_rating else ""
