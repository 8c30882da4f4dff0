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
    status = models.CharField(max_length=10, choices=Status, default=Status.DRAFT)
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
