"""The problem bank in the database: problems, their scenarios, and every version of each.

A scenario's definition is the engine's scenario format (problems/engine/FORMAT.md) stored as
JSON. Versions are never edited once published: an attempt names the version it was drawn from,
so it can be regenerated, shown and regraded exactly as it was.
"""

from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from problems.engine.schema import DEFAULT_EXPECTED_MINUTES


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
    expected_minutes = models.PositiveSmallIntegerField(default=DEFAULT_EXPECTED_MINUTES)
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

    def __str__(self) -> str:
        return f"{self.number} · {self.title}"


class Scenario(models.Model):
    """A parameterised template of a problem. What learners draw from is its published version
    (at most one; none until one is published, or once it is retired)."""

    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="scenarios")
    key = models.SlugField(max_length=60)
    title = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["problem__number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["problem", "key"], name="unique_scenario_key")
        ]

    def __str__(self) -> str:
        return f"{self.problem.number}/{self.key}"

    @property
    def published_version(self) -> "ScenarioVersion | None":
        """The version learners draw from, or None; from the prefetched versions when the
        caller prefetched them."""
        return next(
            (v for v in self.versions.all() if v.status == ScenarioVersion.Status.PUBLISHED), None
        )


class ScenarioVersionQuerySet(models.QuerySet["ScenarioVersion"]):
    def published(self) -> "ScenarioVersionQuerySet":
        """The versions learners draw from: one per scenario that has one."""
        return self.filter(status=ScenarioVersion.Status.PUBLISHED)


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
    # Who made it the current version (None for versions loaded from the bank files).
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = ScenarioVersionQuerySet.as_manager()

    class Meta:
        ordering = ["scenario", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["scenario", "number"], name="unique_version_number"),
            models.UniqueConstraint(
                fields=["scenario"],
                condition=Q(status="published"),
                name="one_published_version",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.scenario} v{self.number}"


def publish_version(
    version: ScenarioVersion, published_by: User | None = None
) -> list[ScenarioVersion]:
    """Make `version` what learners of its scenario draw from: the version published before it
    is retired, and the scenario takes the version's title. Returns the retired versions. Used by
    the bank loader and by instructors' publishing alike; the caller holds the transaction."""
    Status = ScenarioVersion.Status
    retired = list(version.scenario.versions.published().exclude(pk=version.pk))
    ScenarioVersion.objects.filter(pk__in=[old.pk for old in retired]).update(status=Status.RETIRED)
    if version.status != Status.PUBLISHED:
        version.status = Status.PUBLISHED
        version.published_by = published_by
        version.save(update_fields=["status", "published_by"])
    title = version.definition.get("title") or version.scenario.title
    if title != version.scenario.title:
        Scenario.objects.filter(pk=version.scenario_id).update(title=title)
        version.scenario.title = title
    return retired


def retire_scenario(scenario: Scenario) -> int:
    """Learners stop drawing from `scenario`; its versions stay (attempts point at them)."""
    return scenario.versions.published().update(status=ScenarioVersion.Status.RETIRED)


class Attempt(models.Model):
    """A learner's answers to one variant: (scenario version, seed), graded per part.

    The seed never leaves the server; the variant is regenerated from it whenever it is shown
    or regraded.
    """

    class Purpose(models.TextChoices):
        PRACTICE = "practice"
        MOCK = "mock"
        # "Another variant": graded and shown like practice, but never a review of the schedule.
        FREE = "free", "Another variant"

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
    # Set by a regrade that changed this attempt's result; the dashboard points the learner to it
    # until they have opened the attempt.
    regrade_notice = models.TextField(blank=True)
    regrade_unseen = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["user", "submitted_at"]),
            models.Index(fields=["version", "submitted_at"]),
            # The dashboard's "answers regraded" list: a handful of rows among thousands.
            models.Index(
                fields=["user"], condition=Q(regrade_unseen=True), name="attempt_regrade_unseen"
            ),
        ]

    def __str__(self) -> str:
        return f"attempt {self.pk} of {self.version} by {self.user_id}"


class PartAnswer(models.Model):
    """One graded answer box of an attempt."""

    class Status(models.TextChoices):
        CORRECT = "correct"
        PARTIAL = "partial"
        INCORRECT = "incorrect"
        BLANK = "blank"
        # Typed in a running mock, graded with the rest of the attempt when the mock ends.
        PENDING = "pending"

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

    def __str__(self) -> str:
        return f"{self.part_key}: {self.status}"


class VariantReport(models.Model):
    """A learner's report that something is wrong with the variant they answered (a key, a
    number, the wording). Instructors read it with the attempt's seed and answers, so they can
    preview that exact variant; the learner sees only their own reports, never the seed."""

    class Status(models.TextChoices):
        OPEN = "open"
        RESOLVED = "resolved"

    MAX_MESSAGE = 1000

    # One report per attempt: a second one would be the same variant, the same answers.
    attempt = models.OneToOneField(Attempt, on_delete=models.CASCADE, related_name="report")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    message = models.TextField(max_length=MAX_MESSAGE)
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN)
    created_at = models.DateTimeField()
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self) -> str:
        return f"report {self.pk} on attempt {self.attempt_id}: {self.status}"


# Authoring: validation runs, the authoring log, regrades and statistics.


class ValidationRun(models.Model):
    """A check of one version's content over many seeds, run by a Celery task.

    `content_hash` is the content that was checked: a draft edited after its run needs a new run
    before it can be published.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        PASSED = "passed"
        FAILED = "failed"
        ERROR = "error"
        CANCELLED = "cancelled"  # its process stopped before it ended (problems.background)

    FINISHED = (Status.PASSED, Status.FAILED, Status.ERROR, Status.CANCELLED)

    version = models.ForeignKey(
        ScenarioVersion, on_delete=models.CASCADE, related_name="validation_runs"
    )
    content_hash = models.CharField(max_length=64)
    seeds = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status, default=Status.QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    # check_scenario's report ({"ok", "errors": [{"seed", "part", "message"}], "warnings", ...})
    # or {"message": ...} when the run itself failed.
    report = models.JSONField(default=dict, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["version", "status"])]

    def __str__(self) -> str:
        return f"validation {self.pk} of {self.version_id}: {self.status}"

    @property
    def finished(self) -> bool:
        return self.status in self.FINISHED

    @property
    def percent(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0


class AuthoringLog(models.Model):
    """Who did what in the authoring area, and when."""

    class Action(models.TextChoices):
        CREATE_PROBLEM = "create_problem", "created the problem"
        EDIT_PROBLEM = "edit_problem", "edited the problem"
        CREATE_SCENARIO = "create_scenario", "created a scenario"
        START_DRAFT = "start_draft", "started a draft"
        SAVE_DRAFT = "save_draft", "saved a draft"
        DISCARD_DRAFT = "discard_draft", "discarded a draft"
        VALIDATE = "validate", "requested a validation"
        PUBLISH = "publish", "published"
        REGRADE = "regrade", "regraded attempts"
        IMPORT = "import", "imported YAML"
        EXPORT = "export", "exported YAML"
        STATISTICS = "statistics", "recomputed statistics"

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=20, choices=Action)
    problem = models.ForeignKey(
        Problem, null=True, blank=True, on_delete=models.SET_NULL, related_name="authoring_log"
    )
    scenario = models.ForeignKey(
        Scenario, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    version = models.ForeignKey(
        ScenarioVersion, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    detail = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["problem", "at"])]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor_id} {self.action}"

    @classmethod
    def record(
        cls,
        actor: User | None,
        action: str,
        now: datetime,
        *,
        problem: Problem | None = None,
        scenario: Scenario | None = None,
        version: ScenarioVersion | None = None,
        **detail: Any,
    ) -> "AuthoringLog":
        """Add one line to the log; the scenario and problem follow from the version."""
        if version is not None and scenario is None:
            scenario = version.scenario
        if scenario is not None and problem is None:
            problem = scenario.problem
        return cls.objects.create(
            actor=actor,
            action=action,
            problem=problem,
            scenario=scenario,
            version=version,
            detail=detail,
            at=now,
        )


class Regrade(models.Model):
    """Attempts drawn from `corrected` re-graded with the parts of `key_version` (a published
    correction of a wrong key), and what that changed."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        ERROR = "error"

    corrected = models.ForeignKey(ScenarioVersion, on_delete=models.PROTECT, related_name="+")
    key_version = models.ForeignKey(
        ScenarioVersion, on_delete=models.PROTECT, related_name="regrades"
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.QUEUED)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    attempts_checked = models.PositiveIntegerField(default=0)
    attempts_changed = models.PositiveIntegerField(default=0)
    parts_changed = models.PositiveIntegerField(default=0)
    # Open attempts (not yet submitted) that will be graded with the corrected key.
    attempts_pending = models.PositiveIntegerField(default=0)
    # One entry per changed attempt: {"attempt", "user", "score": [before, after],
    # "parts": [{"key", "status": [before, after], "score": [before, after]}]}.
    changes = models.JSONField(default=list, blank=True)
    message = models.TextField(blank=True)
    created_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"regrade {self.pk}: {self.corrected_id} -> {self.key_version_id}"


class PartStatistic(models.Model):
    """A summary row written by the statistics task; the statistics pages read only these.

    The row's scope: the whole problem (scenario None), one scenario, one part (`part_key`; ""
    means the attempt as a whole) and optionally one parameter value (`param_name` and the value
    as shown, `param_value`; "" for every value).
    """

    problem = models.ForeignKey(Problem, on_delete=models.CASCADE, related_name="statistics")
    scenario = models.ForeignKey(
        Scenario, null=True, blank=True, on_delete=models.CASCADE, related_name="statistics"
    )
    part_key = models.CharField(max_length=60, blank=True)
    param_name = models.CharField(max_length=60, blank=True)
    param_value = models.CharField(max_length=120, blank=True)
    # Orders a parameter's values (their position in the space) for display.
    param_order = models.FloatField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    correct = models.PositiveIntegerField(default=0)
    learners = models.PositiveIntegerField(default=0)
    # The first submitted attempt of each learner at the problem, and how many were correct.
    first_tries = models.PositiveIntegerField(default=0)
    first_try_correct = models.PositiveIntegerField(default=0)
    # Median time from showing the question to submitting it [s], practice attempts only.
    median_seconds = models.FloatField(null=True, blank=True)
    misconceptions = models.JSONField(default=dict, blank=True)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["problem__number", "scenario_id", "part_key", "param_name", "param_order"]
        indexes = [models.Index(fields=["problem", "scenario", "part_key", "param_name"])]

    def __str__(self) -> str:
        return f"stats {self.problem_id}/{self.scenario_id}/{self.part_key}/{self.param_name}"

    @property
    def first_try_rate(self) -> float | None:
        return self.first_try_correct / self.first_tries if self.first_tries else None
