"""Loading the built-in problem bank (problems/bank/*.yaml) into the database.

Idempotent: a problem or scenario whose file has not changed is left alone; a scenario whose
definition changed gets a new published version and the old versions stay (attempts point at
them). Every file is validated by the engine before anything is written, and the whole load is
one transaction, so a bad file changes nothing.
"""

from dataclasses import dataclass, field
from pathlib import Path

from django.db import transaction
from django.db.models import Max

from problems.engine import ScenarioError, content_hash, load_problem, load_yaml
from problems.models import Problem, Scenario, ScenarioVersion

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

    def summary(self):
        return (
            f"{len(self.problems_created)} problems created, {len(self.problems_updated)} updated, "
            f"{len(self.versions_created)} scenario versions published, "
            f"{len(self.scenarios_retired)} scenarios retired, {self.unchanged} scenarios unchanged"
        )


def read_bank(directory=BANK_DIR):
    """Every bank file, validated: a list of (path, definition dict), by problem number."""
    definitions = []
    errors = []
    for path in sorted(Path(directory).glob("*.yaml")):
        try:
            data = load_yaml(path.read_bytes())
            load_problem(data)
        except ScenarioError as error:
            errors.append(f"{path.name}:\n{error}")
            continue
        definitions.append((path, data))
    numbers = [data["number"] for _, data in definitions]
    duplicates = sorted({n for n in numbers if numbers.count(n) > 1})
    if duplicates:
        errors.append(f"problem numbers used by more than one file: {duplicates}")
    if errors:
        raise BankError("\n\n".join(errors))
    return sorted(definitions, key=lambda item: item[1]["number"])


@transaction.atomic
def load_bank(directory=BANK_DIR):
    report = LoadReport()
    for _path, data in read_bank(directory):
        problem = _upsert_problem(data, report)
        keys = []
        for definition in data["scenarios"]:
            keys.append(definition["key"])
            _upsert_scenario(problem, definition, report)
        for scenario in problem.scenarios.filter(is_active=True).exclude(key__in=keys):
            # Gone from the file, kept in the database: attempts still point at its versions.
            if not scenario.versions.filter(source=ScenarioVersion.Source.AUTHOR).exists():
                scenario.is_active = False
                scenario.save(update_fields=["is_active"])
                report.scenarios_retired.append(f"{problem.number}/{scenario.key}")
    return report


def _upsert_problem(data, report):
    values = {
        "page": data["page"],
        "title": data["title"],
        "concepts": data.get("concepts", ""),
        "tradeoffs": _as_list(data.get("tradeoffs", [])),
        "model_answer": data.get("model_answer", ""),
        "self_check": _as_list(data.get("self_check", [])),
        "expected_minutes": data.get("expected_minutes", 5),
    }
    problem = Problem.objects.filter(number=data["number"]).first()
    if problem is None:
        report.problems_created.append(data["number"])
        return Problem.objects.create(number=data["number"], is_builtin=True, **values)
    if any(getattr(problem, name) != value for name, value in values.items()):
        for name, value in values.items():
            setattr(problem, name, value)
        problem.save()
        report.problems_updated.append(problem.number)
    return problem


def _upsert_scenario(problem, definition, report):
    scenario, _ = Scenario.objects.get_or_create(
        problem=problem, key=definition["key"], defaults={"title": definition["title"]}
    )
    digest = content_hash(definition)
    latest_from_bank = (
        scenario.versions.filter(source=ScenarioVersion.Source.BANK).order_by("-number").first()
    )
    if latest_from_bank is not None and latest_from_bank.content_hash == digest:
        report.unchanged += 1
        if not scenario.is_active:
            scenario.is_active = True
            scenario.save(update_fields=["is_active"])
        return
    number = (scenario.versions.aggregate(Max("number"))["number__max"] or 0) + 1
    version = ScenarioVersion.objects.create(
        scenario=scenario,
        number=number,
        definition=definition,
        content_hash=digest,
        status=ScenarioVersion.Status.PUBLISHED,
        source=ScenarioVersion.Source.BANK,
        note="loaded from the bank",
    )
    scenario.versions.filter(status=ScenarioVersion.Status.PUBLISHED).exclude(pk=version.pk).update(
        status=ScenarioVersion.Status.RETIRED
    )
    scenario.title = definition["title"]
    scenario.current_version = version
    scenario.is_active = True
    scenario.save()
    report.versions_created.append(f"{problem.number}/{scenario.key} v{number}")


def _as_list(value):
    return [value] if isinstance(value, str) else list(value)
