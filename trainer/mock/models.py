"""Mock interviews: a timed set of problems whose variants and deadline are fixed at the start.

Every slot of a mock is an `Attempt` (purpose "mock") created when the mock starts, so a reload
or a second tab shows the same variants and nothing can draw new ones. Each answer box is a
`PartAnswer`, recorded once (the unique constraint on attempt and part). The mock ends at its
deadline (applied lazily, on the next request) or when the learner finishes early; only then are
the attempts graded as a whole, marked submitted and fed to the scheduler.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from problems.models import Attempt, Problem


class Mock(models.Model):
    class Format(models.TextChoices):
        STANDARD = "standard", "Standard mock"
        DRILL = "drill", "Page drill"
        CAPSTONE = "capstone", "Capstone rehearsal"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mocks"
    )
    format = models.CharField(max_length=10, choices=Format)
    # The course page of a drill; None for the other formats.
    page = models.PositiveSmallIntegerField(null=True, blank=True)
    started_at = models.DateTimeField()
    deadline = models.DateTimeField()
    # When the mock was over: the deadline, or the moment the learner finished early. None while
    # it runs (and, briefly, after the deadline until the next request applies the end).
    ended_at = models.DateTimeField(null=True, blank=True)
    finished_early = models.BooleanField(default=False)
    score = models.FloatField(null=True, blank=True)
    # The problem on screen since `current_since`: its time is credited when the learner moves on.
    current_item = models.ForeignKey(
        "MockItem", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    current_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # One running mock per learner: a second start (a double click, another tab)
            # resumes it instead of drawing a second set of variants.
            models.UniqueConstraint(
                fields=["user"], condition=Q(ended_at__isnull=True), name="one_running_mock"
            )
        ]
        indexes = [
            models.Index(fields=["user", "ended_at"]),
            models.Index(fields=["ended_at", "deadline"]),
        ]

    def __str__(self) -> str:
        return f"{self.format} mock {self.pk} of {self.user_id}"

    @property
    def minutes(self) -> int:
        return round((self.deadline - self.started_at).total_seconds() / 60)


class MockItem(models.Model):
    """One problem slot of a mock, with the times that make up "time per problem"."""

    mock = models.ForeignKey(Mock, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveSmallIntegerField()
    attempt = models.OneToOneField(Attempt, on_delete=models.CASCADE, related_name="mock_item")
    problem = models.ForeignKey(Problem, on_delete=models.PROTECT, related_name="+")
    # Shown with the problem, e.g. "Rehearsal 2: a chat product in one region" (no numbers).
    label = models.CharField(max_length=200, blank=True)
    first_opened_at = models.DateTimeField(null=True, blank=True)
    first_answered_at = models.DateTimeField(null=True, blank=True)
    last_answered_at = models.DateTimeField(null=True, blank=True)
    # Time this problem was the one on screen [s], summed over every visit.
    seconds_open = models.FloatField(default=0)
    # Capstone self-assessment after the end: {rubric item key: 0 missed, 1 partly, 2 covered}.
    rubric = models.JSONField(default=dict, blank=True)
    # The capstone's design answer, written during the rehearsal: what the rubric scores.
    design_answer = models.TextField(blank=True)

    class Meta:
        ordering = ["mock", "position"]
        constraints = [
            models.UniqueConstraint(fields=["mock", "position"], name="unique_mock_position")
        ]

    def __str__(self) -> str:
        return f"mock {self.mock_id} #{self.position}"
