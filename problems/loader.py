"""Loading the built-in problem bank (problems/bank/*.yaml) into the database.

Idempotent: a problem or scenario whose file has not changed is left alone; a scenario whose
definition changed gets a new published version and the old versions stay (attempts point at
them). Every file is validated by the engine before anything is written, and the whole load is
one transaction, so a bad file changes nothing.
"""

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.db import transaction
from django.db.models import Max

from problems.engine import (
    ScenarioError,
    content_hash,
    load_problem,
    load_yaml,
    with_problem_texts,
)
from problems.engine.schema import PROBLEM_FIELDS
from problems.engine.schema import Problem as CompiledProblem
from problems.models import (
    Problem,
    Scenario,
    ScenarioVersion,
    publish_version,
    retire_scenario,
)

BANK_DIR = Path(__file__).resolve().parent / "bank"


class BankError(Exception):
    """A bank file that does not load; the message names the file and every error in it."""


@dataclass
class LoadReport:
    problems_created: list[int] = field(default_factory=list)
    problems_updated: list[int] = field(default_factory=list)
    versions_created: list[str] = field(default_factory=list)
    scenarios_retired: list[str] = field(default_factory=list)
    unchanged: int = 0

    def summary(self) -> str:
        return (
            f"{len(self.problems_created)} problems created, {len(self.problems_updated)} updated, "
            f"{len(self.versions_created)} scenario versions published, "
            f"{len(self.scenarios_retired)} scenarios retired, {self.unchanged} scenarios unchanged"
        )


BankFile = tuple[Path, dict[str, Any], CompiledProblem]


def read_bank(directory: Path | str = BANK_DIR) -> list[BankFile]:
    """Every bank file, validated: a list of (path, definition dict, compiled `Problem`), by
    problem number."""
    definitions: list[BankFile] = []
    errors: list[str] = []
    for path in sorted(Path(directory).glob("*.yaml")):
        try:
            data = load_yaml(path.read_bytes())
            compiled = load_problem(data)
        except ScenarioError as error:
            errors.append(f"{path.name}:\n{error}")
            continue
        definitions.append((path, data, compiled))
    numbers = [compiled.number for _, _, compiled in definitions]
    duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
    if duplicates:
        errors.append(f"problem numbers used by more than one file: {duplicates}")
    if errors:
        raise BankError("\n\n".join(errors))
    return sorted(definitions, key=lambda item: item[2].number)


@transaction.atomic
def load_bank(directory: Path | str = BANK_DIR) -> LoadReport:
    report = LoadReport()
    for _path, data, compiled in read_bank(directory):
        problem = _upsert_problem(compiled, report)
        for definition in data["scenarios"]:
            # Each version carries the problem's texts it shows (its model answer, trade-offs,
            # follow-ups…), so a changed text is a new version and old attempts keep theirs.
            _upsert_scenario(problem, with_problem_texts(data, definition), report)
        keys = [definition["key"] for definition in data["scenarios"]]
        gone = problem.scenarios.filter(versions__status=ScenarioVersion.Status.PUBLISHED).exclude(
            key__in=keys
        )
        for scenario in gone:
            # Gone from the file, kept in the database: attempts still point at its versions. A
            # scenario an instructor has worked on is theirs to retire.
            if not scenario.versions.filter(source=ScenarioVersion.Source.AUTHOR).exists():
                retire_scenario(scenario)
                report.scenarios_retired.append(f"{problem.number}/{scenario.key}")
    return report


# A problem's fields that its database row keeps, in the engine's order (the solution texts
# with no column, such as follow-ups, live in each scenario version).
PROBLEM_COLUMNS = tuple(
    name
    for name in PROBLEM_FIELDS
    if name != "number" and name in {field.name for field in Problem._meta.concrete_fields}
)


def problem_fields(compiled: CompiledProblem) -> dict[str, Any]:
    """The database fields of a problem, from the engine's compiled (validated, normalised)
    problem."""
    values = {name: getattr(compiled, name) for name in PROBLEM_COLUMNS}
    return {name: list(v) if isinstance(v, tuple) else v for name, v in values.items()}


def _upsert_problem(compiled: CompiledProblem, report: LoadReport) -> Problem:
    values = problem_fields(compiled)
    problem = Problem.objects.filter(number=compiled.number).first()
    if problem is not None and not problem.is_builtin:
        raise BankError(
            f"problem {compiled.number} is an instructor's problem: give the bank file another "
            "number"
        )
    if problem is None:
        report.problems_created.append(compiled.number)
        return Problem.objects.create(number=compiled.number, is_builtin=True, **values)
    if any(getattr(problem, name) != value for name, value in values.items()):
        for name, value in values.items():
            setattr(problem, name, value)
        problem.save()
        report.problems_updated.append(problem.number)
    return problem


def _upsert_scenario(problem: Problem, definition: dict[str, Any], report: LoadReport) -> None:
    scenario, _ = Scenario.objects.get_or_create(
        problem=problem, key=definition["key"], defaults={"title": definition["title"]}
    )
    digest = content_hash(definition)
    latest_from_bank = (
        scenario.versions.filter(source=ScenarioVersion.Source.BANK).order_by("-number").first()
    )
    if latest_from_bank is not None and latest_from_bank.content_hash == digest:
        report.unchanged += 1
        if not scenario.versions.published().exists():
            publish_version(latest_from_bank)  # back in the file after it was retired
        return
    number = (scenario.versions.aggregate(Max("number"))["number__max"] or 0) + 1
    version = ScenarioVersion.objects.create(
        scenario=scenario,
        number=number,
        definition=definition,
        content_hash=digest,
        source=ScenarioVersion.Source.BANK,
        note="loaded from the bank",
    )
    publish_version(version)
    report.versions_created.append(f"{problem.number}/{scenario.key} v{number}")
