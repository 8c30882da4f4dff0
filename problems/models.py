"""The problem bank in the database: problems, their scenarios, and every version of each.

A scenario's definition is the engine's scenario format (problems/engine/FORMAT.md) stored as
JSON. Versions are never edited once published: an attempt names the version it was drawn from,
so it can be regenerated, shown and regraded exactly as it was.
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models


class Problem(models.Model):
    number = models.PositiveSmallIntegerField(unique=True)
    page = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(10)]
    )
    title = models.CharField(max_length=200)
    concepts = models.TextField(blank=True)
    tradeoffs = models.JSONField(default=list, blank=True)
    model_answer = models.TextField(blank=True)
    self_check = models.JSONField(default=list, blank=True)
    expected_minutes = models.PositiveSmallIntegerField(default=5)
    is_builtin = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["number"]
        permissions = [
            ("author_problems", "Can author problems and scenarios"),
            ("view_statistics", "Can see problem statistics"),
        ]

    def __str__(self):
        return f"{self.number} · {self.title}"


class Scenario(models.Model):
    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="scenarios")
    key = models.SlugField(max_length=60)
    title = models.CharField(max_length=200)
    # The published version learners draw from; None until one is published.
    current_version = models.ForeignKey(
        "ScenarioVersion", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    is_active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["problem__number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["problem", "key"], name="unique_scenario_key")
        ]

    def __str__(self):
        return f"{self.problem.number}/{self.key}"


class ScenarioVersion(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft"
        PUBLISHED = "published"
        RETIRED = "retired"

    scenario = models.ForeignKey(Scenario, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    definition = models.JSONField()
    content_hash = models.CharField(max_length=64)

    class Source(models.TextChoices):
        BANK = "bank"
        AUTHOR = "author"

    status = models.CharField(max_length=10, choices=Status, default=Status.DRAFT)
    # Where the definition came from: the bank files (load_bank) or an instructor's edit.
    source = models.CharField(max_length=10, choices=Source, default=Source.AUTHOR)
    note = models.CharField(max_length=300, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["scenario", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["scenario", "number"], name="unique_version_number")
        ]

    def __str__(self):
        return f"{self.scenario} v{self.number}"


class Attempt(models.Model):
    """A learner's answers to one variant: (scenario version, seed), graded per part.

    The seed never leaves the server; the variant is regenerated from it whenever it is shown
    or regraded.
    """

    class Purpose(models.TextChoices):
        PRACTICE = "practice"
        MOCK = "mock"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="attempts"
    )
    version = models.ForeignKey(ScenarioVersion, on_delete=models.PROTECT, related_name="attempts")
    seed = models.BigIntegerField()
    # After an instructor corrects a wrong key, the version whose parts and steps grade this
    # attempt (its parameters are still drawn from `version`); None: `version` itself.
    key_version = models.ForeignKey(
        ScenarioVersion, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    purpose = models.CharField(max_length=10, choices=Purpose, default=Purpose.PRACTICE)
    started_at = models.DateTimeField()
    submitted_at = models.DateTimeField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True)
    # Set by a regrade that changed this attempt's result; cleared when the learner has seen it.
    regrade_notice = models.TextField(blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["user", "submitted_at"]),
            models.Index(fields=["version", "submitted_at"]),
        ]

    def __str__(self):
        return f"attempt {self.pk} of {self.version} by {self.user_id}"


class PartAnswer(models.Model):
    """One graded answer box of an attempt."""

    class Status(models.TextChoices):
        CORRECT = "correct"
        PARTIAL = "partial"
        INCORRECT = "incorrect"
        BLANK = "blank"

    attempt = models.ForeignKey(Attempt, on_delete=models.CASCADE, related_name="answers")
    part_key = models.CharField(max_length=60)
    text = models.CharField(max_length=200, blank=True)
    value = models.FloatField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status)
    score = models.FloatField()
    misconception = models.CharField(max_length=60, blank=True)
    message = models.TextField(blank=True)
    carried_forward = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["attempt", "part_key"], name="unique_part_answer")
        ]

    def __str__(self):
        return f"{self.part_key}: {self.status}"
