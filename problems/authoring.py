"""Authoring: instructors write scenarios in the browser, validate them over many seeds, publish
them as new versions, and move problems in and out as YAML in the bank's format.

The rules live here; views and tasks call them.

- A published version is never modified. An instructor edits their own draft of a scenario (one
  per author and scenario); publishing turns that draft, under the number it was validated with,
  into the scenario's current version and retires the previous one.
- The bank is shared: every instructor reads every scenario and may start a draft of their own
  from it. A draft is its author's alone: only they edit, validate, publish or discard it, and
  the published version records who published it.
- Publishing needs a passing `ValidationRun` of at least `MIN_PUBLISH_SEEDS` seeds for exactly the
  draft's content (its content hash), so nothing a learner can draw was left unchecked.
- Every definition is compiled by the engine before it is stored: every formula passes its
  allow-list, and every error is reported with its field path.
- An import is validated whole (schema and a check over `IMPORT_SEEDS` seeds per scenario) before
  anything is written, and written in one transaction, so a rejected import changes nothing.
- Every change is recorded in `AuthoringLog` with its author.
"""

import functools
import logging
import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import yaml
from celery.exceptions import SoftTimeLimitExceeded
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from problems import background, regrade
from problems.engine import (
    EngineError,
    FieldError,
    ScenarioError,
    check_scenario,
    content_hash,
    default_catalogue,
    display_unit,
    formula_reference,
    library_reference,
    load_problem,
    load_scenario,
    load_yaml,
    with_problem_texts,
)
from problems.engine import Scenario as CompiledScenario
from problems.engine.budget import OutOfTime
from problems.engine.schema import (
    MAX_YAML_BYTES,
    PART_FIELDS,
    SCENARIO_FIELDS,
)
from problems.engine.units import COMMON_UNITS
from problems.loader import PROBLEM_COLUMNS, problem_fields
from problems.models import (
    AuthoringLog,
    Problem,
    Regrade,
    Scenario,
    ScenarioVersion,
    ValidationRun,
    publish_version,
)
from problems.variants import compiled_scenario

logger = logging.getLogger(__name__)

FIRST_AUTHORED_NUMBER = 26  # 1..25 are the course's problems, loaded from problems/bank/
MIN_PUBLISH_SEEDS = 1000
MAX_VALIDATION_SEEDS = 20_000
# Validations one instructor may have queued or running at once: enough to validate one draft
# while another finishes, too few to hold the workers (or the server's thread) for hours.
MAX_RUNS_PER_AUTHOR = 2
IMPORT_SEEDS = 200
LIVE_CHECK_SEEDS = 20
MAX_IMPORT_BYTES = MAX_YAML_BYTES
# The most a seed may cost on average in a validation for the version to be published: each
# learner's question (and each answer's grading) draws the variant again. The bank's slowest
# scenario takes 3 ms a seed (measured on the development machine, under load): 30 times that.
MAX_SECONDS_PER_SEED = 0.1

# Fields set in the form, not in the YAML editor.
FORM_FIELDS = ("key", "title")

Action = AuthoringLog.Action
Status = ScenarioVersion.Status

Definition = dict[str, Any]
"""A scenario's definition in the engine's format (problems/engine/FORMAT.md), as YAML loads it."""


class AuthoringError(Exception):
    """A request that cannot be carried out; the message is for the instructor."""


class ImportRejected(AuthoringError):
    """An import that failed validation: `reasons` lists every problem; nothing was written."""

    def __init__(self, reasons: Iterable[str]) -> None:
        self.reasons = list(reasons)
        super().__init__("The import was rejected; nothing was changed.")


# Problems.


def create_problem(actor: User, values: Mapping[str, Any], now: datetime) -> Problem:
    """A new authored problem from the form's cleaned `values` (number and PROBLEM_COLUMNS)."""
    number = values["number"]
    if number < FIRST_AUTHORED_NUMBER:
        raise AuthoringError(
            f"Numbers 1 to {FIRST_AUTHORED_NUMBER - 1} are the course's problems; new problems "
            f"start at {FIRST_AUTHORED_NUMBER}."
        )
    with transaction.atomic():
        if Problem.objects.filter(number=number).exists():
            raise AuthoringError(f"Problem {number} exists already.")
        problem = Problem.objects.create(
            number=number,
            is_builtin=False,
            created_by=actor,
            **{name: values[name] for name in PROBLEM_COLUMNS},
        )
        AuthoringLog.record(actor, Action.CREATE_PROBLEM, now, problem=problem, number=number)
    return problem


def update_problem(
    actor: User, problem: Problem, values: Mapping[str, Any], now: datetime
) -> Problem:
    """Change an authored problem's fields. A built-in problem's fields come from its bank file
    (`load_bank` would put them back), so they are edited there."""
    if problem.is_builtin:
        raise AuthoringError(
            f"Problem {problem.number} is built in: its fields come from problems/bank/; edit "
            "the file there. Its scenarios can be edited here."
        )
    changed = [name for name in PROBLEM_COLUMNS if getattr(problem, name) != values[name]]
    if not changed:
        return problem
    with transaction.atomic():
        for name in changed:
            setattr(problem, name, values[name])
        problem.save()
        AuthoringLog.record(actor, Action.EDIT_PROBLEM, now, problem=problem, fields=changed)
    return problem


# Scenario definitions: the form's fields plus the YAML editor.


def ordered(mapping: Mapping[str, Any], order: Iterable[str]) -> dict[str, Any]:
    """A copy of `mapping` with the keys in `order` first, in that order, then the rest."""
    result = {name: mapping[name] for name in order if name in mapping}
    result.update((name, value) for name, value in mapping.items() if name not in result)
    return result


def _ordered_definition(definition: Mapping[str, Any]) -> Definition:
    result = ordered(definition, SCENARIO_FIELDS)
    if isinstance(result.get("parts"), list):
        result["parts"] = [
            ordered(part, PART_FIELDS) if isinstance(part, dict) else part
            for part in result["parts"]
        ]
    return result


class _Dumper(yaml.SafeDumper):
    """Safe YAML, with texts of several lines written as blocks so that they read as written."""


def _represent_text(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _represent_text)


def dump_yaml(data: Mapping[str, Any]) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100, indent=2)


def editor_yaml(definition: Mapping[str, Any]) -> str:
    """The YAML editor's text for a definition: everything but the form's fields."""
    rest = {k: v for k, v in _ordered_definition(definition).items() if k not in FORM_FIELDS}
    return dump_yaml(rest) if rest else ""


def definition_from_form(key: str, title: str, body: str) -> Definition:
    """The scenario definition of the form's key and title and the YAML editor's text.

    Raises `ScenarioError` when the text is not YAML or not a mapping of fields.
    """
    data = load_yaml(body) if body.strip() else {}
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ScenarioError(
            [FieldError("", "the YAML must be a mapping of fields (params:, text:, parts: …)")]
        )
    errors = [
        FieldError(name, f"set the {name} in its own field above the editor, not in the YAML")
        for name in FORM_FIELDS
        if name in data
    ]
    if errors:
        raise ScenarioError(errors)
    return {"key": key, "title": title, **data}


@dataclass
class DefinitionCheck:
    """What the editor shows while an instructor types: the definition's schema errors (with
    field paths) and, when it compiles, the errors found on a few seeds."""

    definition: Definition | None = None
    errors: list[FieldError] = field(default_factory=list)
    sample_errors: list[dict[str, Any]] = field(default_factory=list)  # check_scenario's errors
    warnings: list[dict[str, Any]] = field(default_factory=list)
    seeds: int = 0

    @property
    def ok(self) -> bool:
        return self.definition is not None and not self.errors and not self.sample_errors

    @property
    def failing_draws(self) -> list[dict[str, Any]]:
        """Sampled seeds on which no variant could be drawn: a formula that compiles but fails
        when evaluated (a GPU where a model goes, a negative size, an overflow). A draft may be
        unfinished, but not one whose formulas fail: it is refused with the reason."""
        return [
            error
            for error in self.sample_errors
            if error["seed"] is not None and error["part"] is None
        ]

    @property
    def savable(self) -> bool:
        return self.definition is not None and not self.errors and not self.failing_draws


def check_definition(
    key: str,
    title: str,
    body: str,
    *,
    problem_number: int | None = None,
    seeds: int = LIVE_CHECK_SEEDS,
) -> DefinitionCheck:
    """Compile the form's definition and check it over `seeds` seeds (see `DefinitionCheck`)."""
    result = DefinitionCheck(seeds=seeds)
    try:
        definition = definition_from_form(key, title, body)
        scenario = load_scenario(definition, problem=problem_number)
    except ScenarioError as error:
        result.errors = list(error.errors)
        return result
    result.definition = definition
    if seeds:
        report = check_scenario(scenario, seeds)
        result.sample_errors = report["errors"]
        result.warnings = report["warnings"]
    return result


def compile_definition(
    definition: Mapping[str, Any], problem_number: int, version_number: int = 1
) -> CompiledScenario:
    """The engine's compiled scenario, or `ScenarioError` with every error."""
    return load_scenario(definition, version=version_number, problem=problem_number)


# Scenarios and drafts.


def _next_number(scenario: Scenario) -> int:
    return (scenario.versions.aggregate(Max("number"))["number__max"] or 0) + 1


def create_scenario(
    actor: User, problem: Problem, definition: Definition, note: str, now: datetime
) -> ScenarioVersion:
    """A new scenario of `problem`, with the author's draft v1 holding `definition`."""
    compile_definition(definition, problem.number)
    key = definition["key"]
    with transaction.atomic():
        problem = Problem.objects.select_for_update().get(pk=problem.pk)
        if problem.scenarios.filter(key=key).exists():
            raise AuthoringError(
                f"Problem {problem.number} has a scenario '{key}' already: choose another key, "
                "or open a draft of that scenario."
            )
        scenario = Scenario.objects.create(problem=problem, key=key, title=definition["title"])
        version = ScenarioVersion.objects.create(
            scenario=scenario,
            number=1,
            definition=definition,
            content_hash=content_hash(definition),
            status=Status.DRAFT,
            source=ScenarioVersion.Source.AUTHOR,
            note=note,
            created_by=actor,
        )
        AuthoringLog.record(actor, Action.CREATE_SCENARIO, now, version=version, key=key)
    return version


def own_draft(actor: User, scenario: Scenario) -> ScenarioVersion | None:
    return scenario.versions.filter(status=Status.DRAFT, created_by=actor).first()


def start_draft(actor: User, scenario: Scenario, now: datetime) -> ScenarioVersion:
    """The author's draft of `scenario`: the open one, or a new one copied from the current
    version (or the latest, when none is published)."""
    with transaction.atomic():
        scenario = (
            Scenario.objects.select_for_update().select_related("problem").get(pk=scenario.pk)
        )
        draft = own_draft(actor, scenario)
        if draft is not None:
            return draft
        source = scenario.published_version or scenario.versions.order_by("-number").first()
        if source is None:
            raise AuthoringError("This scenario has no version to start a draft from.")
        draft = ScenarioVersion.objects.create(
            scenario=scenario,
            number=_next_number(scenario),
            definition=source.definition,
            content_hash=source.content_hash,
            status=Status.DRAFT,
            source=ScenarioVersion.Source.AUTHOR,
            note=f"from v{source.number}",
            created_by=actor,
        )
        AuthoringLog.record(actor, Action.START_DRAFT, now, version=draft, source=source.number)
    return draft


def _editable_draft(actor: User, version: ScenarioVersion) -> None:
    if version.status != Status.DRAFT:
        raise AuthoringError(
            f"v{version.number} is {version.status}: published versions never change. Start a "
            "draft of the scenario to revise it."
        )
    if version.created_by_id != actor.pk:
        raise AuthoringError(
            f"v{version.number} is another instructor's draft; start a draft of your own."
        )


def save_draft(
    actor: User, version: ScenarioVersion, definition: Definition, note: str, now: datetime
) -> ScenarioVersion:
    """Store a new definition in the author's draft (compiled first; raises `ScenarioError`)."""
    _editable_draft(actor, version)
    scenario = version.scenario
    if definition.get("key") != scenario.key:
        raise ScenarioError(
            [FieldError("key", f"is '{scenario.key}' for every version of this scenario")]
        )
    compile_definition(definition, scenario.problem.number, version.number)
    digest = content_hash(definition)
    with transaction.atomic():
        locked = ScenarioVersion.objects.select_for_update().get(pk=version.pk)
        _editable_draft(actor, locked)
        if locked.content_hash == digest and locked.note == note:
            return locked
        locked.definition = definition
        locked.content_hash = digest
        locked.note = note
        locked.save(update_fields=["definition", "content_hash", "note"])
        AuthoringLog.record(actor, Action.SAVE_DRAFT, now, version=locked, content_hash=digest)
    return locked


def discard_draft(actor: User, version: ScenarioVersion, now: datetime) -> bool:
    """Delete the author's draft; a scenario left with no version goes with it."""
    _editable_draft(actor, version)
    with transaction.atomic():
        scenario = (
            Scenario.objects.select_for_update()
            .select_related("problem")
            .get(pk=version.scenario_id)
        )
        number = version.number
        version.delete()
        gone = not scenario.versions.exists()
        AuthoringLog.record(
            actor,
            Action.DISCARD_DRAFT,
            now,
            problem=scenario.problem,
            scenario=None if gone else scenario,
            key=scenario.key,
            number=number,
        )
        if gone:
            scenario.delete()
    return gone


# Validation over many seeds.


def request_validation(
    actor: User, version: ScenarioVersion, seeds: int, now: datetime
) -> ValidationRun:
    """Record a check of `version` over `seeds` seeds, to be run by the `validate_version` task
    or a background thread (`problems.jobs.validate` sends it)."""
    _editable_draft(actor, version)  # a draft is its author's to validate and publish
    if not MIN_PUBLISH_SEEDS <= seeds <= MAX_VALIDATION_SEEDS:
        raise AuthoringError(
            f"Validate over {MIN_PUBLISH_SEEDS:,} to {MAX_VALIDATION_SEEDS:,} seeds."
        )
    with transaction.atomic():
        # One request at a time per instructor, so two at once cannot both pass the cap.
        User.objects.select_for_update().filter(pk=actor.pk).first()
        waiting = list(
            ValidationRun.objects.filter(requested_by=actor)
            .exclude(status__in=ValidationRun.FINISHED)
            .values_list("pk", flat=True)
        )
        if len(waiting) >= MAX_RUNS_PER_AUTHOR:
            numbers = ", ".join(f"#{pk}" for pk in sorted(waiting))
            raise AuthoringError(
                f"You have {len(waiting)} validations queued or running ({numbers}); cancel "
                "one from its page, or validate again when one of them has finished."
            )
        if reason := background.busy(now):
            raise AuthoringError(reason)
        run = ValidationRun.objects.create(
            version=version,
            content_hash=version.content_hash,
            seeds=seeds,
            total=seeds,
            requested_by=actor,
            created_at=now,
        )
        AuthoringLog.record(actor, Action.VALIDATE, now, version=version, run=run.pk, seeds=seeds)
    return run


def run_validation(run_id: int) -> ValidationRun | None:
    """Run a queued validation (the task's body). Safe to run twice: a finished run is left as
    it is, and a run interrupted by a lost worker starts again from seed 0."""
    with transaction.atomic():
        run = (
            ValidationRun.objects.select_for_update()
            .select_related("version__scenario__problem")
            .filter(pk=run_id)
            .first()
        )
        if run is None or run.finished:
            return run
        run.status = ValidationRun.Status.RUNNING
        run.started_at = timezone.now()
        run.done = 0
        run.save(update_fields=["status", "started_at", "done"])
    version = run.version
    if version.content_hash != run.content_hash:
        return _finish(
            run,
            ValidationRun.Status.ERROR,
            {"message": "The draft changed after this validation was requested; validate again."},
        )

    def progress(done: int, total: int) -> None:
        running = ValidationRun.objects.filter(pk=run.pk, status=ValidationRun.Status.RUNNING)
        if not running.update(done=done, total=total):
            raise _Cancelled

    started = time.monotonic()
    try:
        report = check_scenario(compiled_scenario(version), run.seeds, progress=progress)
    except _Cancelled:
        run.refresh_from_db()
        return run
    except EngineError as error:
        return _finish(run, ValidationRun.Status.ERROR, {"message": error.message})
    except SoftTimeLimitExceeded:
        message = "The check took longer than the time limit; validate fewer seeds."
        return _finish(run, ValidationRun.Status.ERROR, {"message": message})
    except OutOfTime as error:  # the time limit of a run without a broker (problems.background)
        message = (
            f"The check took longer than {error.seconds:g} s and was stopped while evaluating "
            f"`{error.source}`; validate fewer seeds, or make the formulas cheaper."
        )
        return _finish(run, ValidationRun.Status.ERROR, {"message": message})
    except Exception as error:
        # The run must not stay "running" for ever; the traceback goes to the worker's log.
        logger.exception("validation run %s failed", run.pk)
        message = f"The check stopped with an internal error ({type(error).__name__})."
        return _finish(run, ValidationRun.Status.ERROR, {"message": message})
    if too_slow := serving_cost_error(time.monotonic() - started, run.seeds):
        report = {**report, "ok": False, "errors": [*report["errors"], too_slow]}
    status = ValidationRun.Status.PASSED if report["ok"] else ValidationRun.Status.FAILED
    return _finish(run, status, report)


def serving_cost_error(seconds: float, seeds: int) -> dict[str, Any] | None:
    """A validation report's error when `seeds` seeds took `seconds` (too slow to serve to
    learners), or None."""
    if seeds and seconds / seeds > MAX_SECONDS_PER_SEED:
        return {
            "seed": None,
            "part": None,
            "message": (
                f"a seed takes {1000 * seconds / seeds:,.0f} ms on average to draw and check "
                f"(at most {1000 * MAX_SECONDS_PER_SEED:,.0f} ms): every learner's question "
                "would wait that long; make the formulas cheaper or the constraints looser"
            ),
        }
    return None


def _finish(run: ValidationRun, status: str, report: dict[str, Any]) -> ValidationRun:
    """Record the end of a running validation, unless it was cancelled meanwhile."""
    done = run.total if status != ValidationRun.Status.ERROR else run.done
    finished_at = timezone.now()
    running = ValidationRun.objects.filter(pk=run.pk, status=ValidationRun.Status.RUNNING)
    if running.update(status=status, report=report, done=done, finished_at=finished_at):
        run.status, run.report, run.done, run.finished_at = status, report, done, finished_at
    else:
        run.refresh_from_db()
    return run


class _Cancelled(Exception):
    """The run was cancelled while it ran: its progress report found it no longer running."""


def cancel_validation(actor: User, run: ValidationRun, now: datetime) -> ValidationRun:
    """Cancel `run`, queued or running, for the instructor who asked for it. A running check
    stops at its next progress report (every few dozen seeds), in a Celery worker as in the
    server's thread; a queued one never starts."""
    if run.requested_by_id != actor.pk:
        who = run.requested_by.get_username() if run.requested_by else "the instructor"
        raise AuthoringError(f"Only {who}, who asked for this validation, can cancel it.")
    unfinished = ValidationRun.objects.filter(pk=run.pk).exclude(status__in=ValidationRun.FINISHED)
    message = f"stopped by {actor.get_username()}."
    if not unfinished.update(
        status=ValidationRun.Status.CANCELLED, finished_at=now, report={"message": message}
    ):
        raise AuthoringError(f"Validation #{run.pk} has already finished.")
    run.refresh_from_db()
    return run


def passing_run(version: ScenarioVersion) -> ValidationRun | None:
    """The latest passing validation of exactly this content, over enough seeds, or None."""
    return (
        ValidationRun.objects.filter(
            version=version,
            status=ValidationRun.Status.PASSED,
            content_hash=version.content_hash,
            seeds__gte=MIN_PUBLISH_SEEDS,
        )
        .order_by("-finished_at", "-id")
        .first()
    )


def stalled_work(before: datetime) -> dict[str, list[int]]:
    """The validations and regrades queued before `before` and still queued: their message was
    lost (the broker was down when the request sent it, or restarted without its data).
    Returns {"validations": [ids], "regrades": [ids]}."""
    return {
        "validations": list(
            ValidationRun.objects.filter(
                status=ValidationRun.Status.QUEUED, created_at__lt=before
            ).values_list("pk", flat=True)
        ),
        "regrades": list(
            Regrade.objects.filter(status=Regrade.Status.QUEUED, created_at__lt=before).values_list(
                "pk", flat=True
            )
        ),
    }


# Publishing.


@dataclass
class Published:
    version: ScenarioVersion
    retired: list[ScenarioVersion]
    regrades: list[Regrade]


def publish(
    actor: User,
    version: ScenarioVersion,
    now: datetime,
    corrects: Iterable[int] = (),
) -> Published:
    """Make the draft `version` its scenario's published version, retiring the previous one.

    `corrects`: ids of earlier versions whose keys this version fixes; a `Regrade` of their
    attempts with this version's parts is recorded for each (see `problems.regrade`;
    `problems.jobs.publish` enqueues them). Refused, changing nothing, when any of them draws
    differently.
    """
    with transaction.atomic():
        scenario = (
            Scenario.objects.select_for_update()
            .select_related("problem")
            .get(pk=version.scenario_id)
        )
        version = ScenarioVersion.objects.select_for_update().get(pk=version.pk)
        version.scenario = scenario
        if version.status != Status.DRAFT:
            raise AuthoringError(f"v{version.number} is {version.status} already.")
        _editable_draft(actor, version)
        run = passing_run(version)
        if run is None:
            raise AuthoringError(
                f"v{version.number} has no passing validation of its current content over at "
                f"least {MIN_PUBLISH_SEEDS:,} seeds: validate it, then publish."
            )
        wanted = {int(pk) for pk in corrects}
        corrected = list(
            scenario.versions.filter(pk__in=wanted)
            .exclude(status=Status.DRAFT)
            .exclude(pk=version.pk)
            .order_by("number")
        )
        if len(corrected) != len(wanted):
            raise AuthoringError(
                "Only published or retired versions of this scenario can be fixed."
            )
        refusals = [reason for old in corrected if (reason := regrade.refusal(old, version))]
        if refusals:
            raise AuthoringError(" ".join(refusals))
        previous = publish_version(version, published_by=actor)
        AuthoringLog.record(
            actor,
            Action.PUBLISH,
            now,
            version=version,
            number=version.number,
            validation=run.pk,
            retired=[old.number for old in previous],
            corrects=[old.number for old in corrected],
        )
        regrades = [regrade.record_request(actor, old, version, now) for old in corrected]
    return Published(version, previous, regrades)


# Export.


def scenario_document(version: ScenarioVersion) -> Definition:
    return _ordered_definition(version.definition)


def problem_document(problem: Problem) -> dict[str, Any]:
    """The problem as a bank file: its fields and the current versions of its scenarios."""
    document: dict[str, Any] = {"number": problem.number}
    for name in PROBLEM_COLUMNS:
        value = getattr(problem, name)
        if value in ("", [], None):
            continue
        document[name] = value
    versions = ScenarioVersion.objects.published().filter(scenario__problem=problem)
    document["scenarios"] = [scenario_document(v) for v in versions.order_by("scenario_id")]
    if not document["scenarios"]:
        raise AuthoringError(f"Problem {problem.number} has no published scenario to export.")
    return document


def export_problem(actor: User, problem: Problem, now: datetime) -> str:
    text = dump_yaml(problem_document(problem))
    AuthoringLog.record(actor, Action.EXPORT, now, problem=problem, what="problem")
    return text


def export_scenario(actor: User, scenario: Scenario, now: datetime) -> str:
    version = scenario.published_version
    if version is None:
        raise AuthoringError(f"Scenario '{scenario.key}' has no published version to export.")
    text = dump_yaml(scenario_document(version))
    AuthoringLog.record(actor, Action.EXPORT, now, version=version, what="scenario")
    return text


# Import.


@dataclass
class ImportReport:
    problem: Problem
    created_problem: bool = False
    updated_fields: list[str] = field(default_factory=list)
    drafts: list[tuple[str, int, str]] = field(default_factory=list)  # (key, number, "new" | …)
    unchanged: list[str] = field(default_factory=list)  # scenario keys
    untouched: list[str] = field(default_factory=list)  # keys in the database, not in the file

    def summary(self) -> str:
        parts = []
        if self.created_problem:
            parts.append(f"problem {self.problem.number} created")
        if self.updated_fields:
            parts.append("problem fields updated: " + ", ".join(self.updated_fields))
        if self.drafts:
            parts.append(
                "drafts: "
                + ", ".join(f"{key} v{number} ({how})" for key, number, how in self.drafts)
            )
        if self.unchanged:
            parts.append("unchanged: " + ", ".join(self.unchanged))
        return "; ".join(parts) or "nothing to change"


def _schema_reasons(error: ScenarioError) -> list[str]:
    return [str(item) for item in error.errors]


def _seed_reasons(scenario: CompiledScenario, where: str, seeds: int) -> list[str]:
    report = check_scenario(scenario, seeds)
    reasons = []
    for entry in report["errors"]:
        at = []
        if entry["seed"] is not None:
            at.append(f"seed {entry['seed']}")
        if entry["part"]:
            at.append(f"part '{entry['part']}'")
        if entry.get("check"):
            at.append(f"check {entry['check']}")
        reasons.append(f"{where}{' (' + ', '.join(at) + ')' if at else ''}: {entry['message']}")
    return reasons


def import_yaml(
    actor: User,
    text: str | bytes,
    now: datetime,
    *,
    into_problem: Problem | None = None,
    seeds: int = IMPORT_SEEDS,
) -> "ImportReport":
    """Import a problem file (with `scenarios:`) or one scenario into `into_problem`.

    Everything is validated before anything is written: the schema, and a check of every
    scenario over `seeds` seeds. Raises `ImportRejected` with every reason; then nothing has
    changed. Scenarios become the importer's drafts (publishing them needs the full validation);
    a scenario equal to its current version is left alone.
    """
    try:
        data = load_yaml(text, max_bytes=MAX_IMPORT_BYTES)
    except ScenarioError as error:
        raise ImportRejected(_schema_reasons(error)) from None
    if isinstance(data, dict) and "scenarios" in data:
        return _import_problem(actor, data, now, seeds)
    if isinstance(data, dict) and "parts" in data:
        if into_problem is None:
            raise ImportRejected(["This is one scenario: choose the problem to import it into."])
        return _import_scenario(actor, into_problem, data, now, seeds)
    raise ImportRejected(
        [
            "Expected a problem file (number, page, title, scenarios: …) or one scenario "
            "(key, title, params, text, parts: …)."
        ]
    )


def _import_problem(actor: User, data: dict[str, Any], now: datetime, seeds: int) -> ImportReport:
    try:
        compiled = load_problem(data)
    except ScenarioError as error:
        raise ImportRejected(_schema_reasons(error)) from None
    reasons = []
    for index, scenario in enumerate(compiled.scenarios):
        reasons += _seed_reasons(scenario, f"scenarios[{index}] ({scenario.key})", seeds)
    number = compiled.number
    existing = Problem.objects.filter(number=number).first()
    values = problem_fields(compiled)
    if existing is None and number < FIRST_AUTHORED_NUMBER:
        reasons.append(
            f"number: problems 1 to {FIRST_AUTHORED_NUMBER - 1} are the course's built-in "
            f"problems, loaded from problems/bank/; give a new problem a number from "
            f"{FIRST_AUTHORED_NUMBER}."
        )
    changed: list[str] = []
    if existing is not None:
        changed = [name for name in PROBLEM_COLUMNS if getattr(existing, name) != values[name]]
        if changed and existing.is_builtin:
            reasons.append(
                f"problem {number} is built in and its fields come from problems/bank/, but the "
                f"file changes {', '.join(changed)}: keep them as they are, or import its "
                "scenarios one at a time."
            )
    if reasons:
        raise ImportRejected(reasons)
    with transaction.atomic():
        if existing is None:
            problem = Problem.objects.create(
                number=number, is_builtin=False, created_by=actor, **values
            )
            report = ImportReport(problem, created_problem=True)
        else:
            problem = Problem.objects.select_for_update().get(pk=existing.pk)
            for name in changed:
                setattr(problem, name, values[name])
            if changed:
                problem.save()
            report = ImportReport(problem, updated_fields=changed)
        scenarios = [with_problem_texts(data, definition) for definition in data["scenarios"]]
        _write_scenarios(actor, problem, scenarios, report)
        keys = {definition["key"] for definition in data["scenarios"]}
        report.untouched = sorted(
            problem.scenarios.filter(versions__status=Status.PUBLISHED)
            .exclude(key__in=keys)
            .values_list("key", flat=True)
        )
        AuthoringLog.record(actor, Action.IMPORT, now, problem=problem, summary=report.summary())
    return report


def _import_scenario(
    actor: User, problem: Problem, definition: Definition, now: datetime, seeds: int
) -> ImportReport:
    try:
        scenario = load_scenario(definition, problem=problem.number)
    except ScenarioError as error:
        raise ImportRejected(_schema_reasons(error)) from None
    reasons = _seed_reasons(scenario, f"scenario ({scenario.key})", seeds)
    if reasons:
        raise ImportRejected(reasons)
    with transaction.atomic():
        problem = Problem.objects.select_for_update().get(pk=problem.pk)
        report = ImportReport(problem)
        _write_scenarios(actor, problem, [definition], report)
        AuthoringLog.record(actor, Action.IMPORT, now, problem=problem, summary=report.summary())
    return report


def _write_scenarios(
    actor: User, problem: Problem, definitions: Sequence[Definition], report: ImportReport
) -> None:
    for definition in definitions:
        digest = content_hash(definition)
        scenario = problem.scenarios.filter(key=definition["key"]).first()
        if scenario is None:
            scenario = Scenario.objects.create(
                problem=problem, key=definition["key"], title=definition["title"]
            )
            ScenarioVersion.objects.create(
                scenario=scenario,
                number=1,
                definition=definition,
                content_hash=digest,
                status=Status.DRAFT,
                source=ScenarioVersion.Source.AUTHOR,
                note="imported",
                created_by=actor,
            )
            report.drafts.append((scenario.key, 1, "new"))
            continue
        current = scenario.published_version
        draft = own_draft(actor, scenario)
        if (current is not None and current.content_hash == digest) or (
            draft is not None and draft.content_hash == digest
        ):
            report.unchanged.append(scenario.key)
            continue
        if draft is None:
            draft = ScenarioVersion.objects.create(
                scenario=scenario,
                number=_next_number(scenario),
                definition=definition,
                content_hash=digest,
                status=Status.DRAFT,
                source=ScenarioVersion.Source.AUTHOR,
                note="imported",
                created_by=actor,
            )
            report.drafts.append((scenario.key, draft.number, "new"))
        else:
            draft.definition = definition
            draft.content_hash = digest
            draft.note = "imported"
            draft.save(update_fields=["definition", "content_hash", "note"])
            report.drafts.append((scenario.key, draft.number, "updated"))


# The reference panel of the editor.


def _shown(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value) and abs(value) < 1e15:
            return f"{int(value):,}"
        return f"{value:.4g}"
    if isinstance(value, (list, tuple)):
        return ", ".join(_shown(item) for item in value)
    return str(value)


@functools.cache
def reference() -> dict[str, Any]:
    """What formulas may use, for the editor's side panel: the catalogues (each entry's
    readable fields), the functions, the units and the misconception library."""
    catalogue = default_catalogue()
    catalogues = []
    for keyword, entries in catalogue.entries.items():
        fields = sorted(catalogue.fields.get(catalogue.classes[keyword], ()))
        keys = list(entries)
        catalogues.append(
            {
                "keyword": keyword,
                "keys": keys,
                "rows": [
                    (name, [_shown(getattr(entries[key], name, None)) for key in keys])
                    for name in fields
                    if name != "key"
                ],
            }
        )
    units = []
    for text in COMMON_UNITS:
        spec = display_unit(text)
        units.append({"text": text, "phrase": spec.phrase, "factor": _shown(spec.factor)})
    return {
        "catalogues": catalogues,
        "functions": formula_reference(catalogue),
        "units": units,
        "library": library_reference(),
        "part_fields": list(PART_FIELDS),
    }
