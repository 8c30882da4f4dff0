"""Statistics of the problems for instructors: summary rows written by a task, read by the pages.

`compute_statistics` (the nightly Celery beat task, the "Recompute now" button and `manage.py
problem_stats`) reads every submitted attempt once and replaces the `PartStatistic` rows in one
transaction; the statistics pages read only those rows, so they cost the same with ten attempts
or ten million.

Definitions:
- correct: a part graded `correct` (errors carried forward count as correct, as they are graded);
  an attempt as a whole is correct when every part is (score 1).
- first try: each learner's first submitted attempt at the problem (any scenario); the
  first-try correct rate is the share of those that were correct, the closest measure of how
  hard a problem is before practice changes it.
- time: from showing the question to submitting it, practice attempts only (a mock shows all
  its problems at once), capped as practice caps it.
- parameter values: every parameter a scenario draws (fixed ones are left out) is split by the
  value the learner saw; a catalogue choice by its key, a space of at most `MAX_LISTED_VALUES`
  numbers by value, a larger one into `BUCKETS` ranges (logarithmic for a log space).
"""

import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction

from problems.attempts import MAX_ELAPSED_SECONDS
from problems.engine import EngineError, draw_variant
from problems.engine.params import Param
from problems.engine.units import UnitSpec
from problems.models import (
    Attempt,
    AuthoringLog,
    PartAnswer,
    PartStatistic,
    Problem,
    Scenario,
    ScenarioVersion,
)
from problems.variants import compiled_scenario

MIN_ATTEMPTS = 10  # attempts a parameter value needs before it is called hard
HARDEST_LISTED = 10
MAX_LISTED_VALUES = 24
BUCKETS = 5
CORRECT = PartAnswer.Status.CORRECT


@dataclass
class _Tally:
    order: float = 0.0
    attempts: int = 0
    correct: int = 0
    first_tries: int = 0
    first_try_correct: int = 0
    learners: set[int] = field(default_factory=set)  # user ids
    seconds: list[float] = field(default_factory=list)
    misconceptions: Counter[str] = field(default_factory=Counter)

    def add(
        self, user: int, correct: bool, first: bool, seconds: float | None, tags: Iterable[str]
    ) -> None:
        self.attempts += 1
        self.correct += correct
        self.learners.add(user)
        if first:
            self.first_tries += 1
            self.first_try_correct += correct
        if seconds is not None:
            self.seconds.append(seconds)
        self.misconceptions.update(tag for tag in tags if tag)


# A summary row's scope: (scenario id or None, part key, parameter name, parameter value).
_Scope = tuple[int | None, str, str, str]


def compute_statistics(now: datetime, actor: User | None = None) -> int:
    """Replace every summary row with rows computed from the attempts now; returns how many."""
    rows = []
    for problem in Problem.objects.order_by("number"):
        rows += _problem_rows(problem, now)
    with transaction.atomic():
        PartStatistic.objects.all().delete()
        PartStatistic.objects.bulk_create(rows, batch_size=500)
        AuthoringLog.record(actor, AuthoringLog.Action.STATISTICS, now, rows=len(rows))
    return len(rows)


def _problem_rows(problem: Problem, now: datetime) -> list[PartStatistic]:
    attempts = list(
        Attempt.objects.filter(version__scenario__problem=problem, submitted_at__isnull=False)
        .order_by("submitted_at", "pk")
        .values_list("pk", "user_id", "version_id", "seed", "purpose", "started_at", "submitted_at")
    )
    if not attempts:
        return []
    answers: defaultdict[int, list[tuple[str, bool, str]]] = defaultdict(list)
    for attempt_id, key, status, tag in PartAnswer.objects.filter(
        attempt__version__scenario__problem=problem, attempt__submitted_at__isnull=False
    ).values_list("attempt_id", "part_key", "status", "misconception"):
        answers[attempt_id].append((key, status == CORRECT, tag))
    versions = {
        version.pk: version
        for version in ScenarioVersion.objects.filter(scenario__problem=problem).select_related(
            "scenario__problem"
        )
    }
    tallies: defaultdict[_Scope, _Tally] = defaultdict(_Tally)
    learners_seen: set[int] = set()
    for pk, user, version_id, seed, purpose, started_at, submitted_at in attempts:
        first = user not in learners_seen
        learners_seen.add(user)
        scenario = versions[version_id].scenario_id
        parts = answers.get(pk, [])
        whole = bool(parts) and all(correct for _, correct, _ in parts)
        tags = [tag for _, _, tag in parts]
        seconds = None
        if purpose == Attempt.Purpose.PRACTICE and submitted_at is not None:
            seconds = min(
                max((submitted_at - started_at).total_seconds(), 0.0), MAX_ELAPSED_SECONDS
            )
        tallies[(None, "", "", "")].add(user, whole, first, seconds, tags)
        tallies[(scenario, "", "", "")].add(user, whole, first, seconds, tags)
        for key, correct, tag in parts:
            tallies[(scenario, key, "", "")].add(user, correct, first, None, [tag])
        for name, label, order in _param_values(versions[version_id], seed):
            tally = tallies[(scenario, "", name, label)]
            tally.order = order
            tally.add(user, whole, first, seconds, tags)
            for key, correct, tag in parts:
                tally = tallies[(scenario, key, name, label)]
                tally.order = order
                tally.add(user, correct, first, None, [tag])
    return [
        PartStatistic(
            problem=problem,
            scenario_id=scenario,
            part_key=part_key,
            param_name=name,
            param_value=label,
            param_order=tally.order,
            attempts=tally.attempts,
            correct=tally.correct,
            learners=len(tally.learners),
            first_tries=tally.first_tries,
            first_try_correct=tally.first_try_correct,
            median_seconds=statistics.median(tally.seconds) if tally.seconds else None,
            misconceptions=dict(tally.misconceptions.most_common()),
            computed_at=now,
        )
        for (scenario, part_key, name, label), tally in tallies.items()
    ]


def _param_values(version: ScenarioVersion, seed: int) -> list[tuple[str, str, float]]:
    """(parameter, value as shown, order) for each drawn parameter of the attempt's variant."""
    try:
        scenario = compiled_scenario(version)
        variant = draw_variant(scenario, seed)
    except EngineError:
        return []
    values: list[tuple[str, str, float]] = []
    for param in scenario.params:
        count = param.count()
        if count == 1:
            continue
        value = variant.displays[param.name].value
        if param.is_catalogue:
            key = getattr(value, "key", str(value))
            values.append((param.name, key, float(param.choices.index(value))))
        elif not isinstance(value, (int, float)):
            continue  # a part's key has no value; parameters always have one
        elif count is not None and count <= MAX_LISTED_VALUES:
            values.append((param.name, _number_text(value, param.unit), float(value)))
        else:
            values.append((param.name, *_bucket(param, float(value))))
    return values


def _number_text(value: float | int, unit: UnitSpec | None) -> str:
    text = f"{value:,}" if isinstance(value, int) else f"{float(value):.6g}"
    unit_text = unit.text if unit is not None else ""
    return f"{text} {unit_text}".strip()


def _bucket(param: Param, value: float) -> tuple[str, float]:
    if param.low is None or param.high is None:
        return "", 0.0  # a continuous space always has both bounds
    low, high = float(param.low), float(param.high)
    logarithmic = param.space == "log" and low > 0
    scale: Callable[[float], float] = math.log if logarithmic else float
    span = scale(high) - scale(low)
    position = (scale(value) - scale(low)) / span if span else 0.0
    index = min(max(int(position * BUCKETS), 0), BUCKETS - 1)

    def edge(i: int) -> float:
        point = scale(low) + span * i / BUCKETS
        return math.exp(point) if logarithmic else point

    unit = param.unit.text if param.unit is not None else ""
    label = f"{edge(index):.3g} to {edge(index + 1):.3g} {unit}".strip()
    return label, float(index)


# Reading the rows (the pages).


@dataclass
class ScenarioStats:
    scenario: Scenario | None
    whole: PartStatistic | None = None
    parts: list[PartStatistic] = field(default_factory=list)
    # parameter name -> the rows of the whole attempt, one per value
    params: dict[str, list[PartStatistic]] = field(default_factory=dict)


@dataclass
class ProblemStats:
    whole: PartStatistic | None
    scenarios: list[ScenarioStats]
    hardest: list[PartStatistic]
    computed_at: datetime | None


def overview() -> list[PartStatistic]:
    """One row per problem with attempts: the whole-problem rows."""
    return list(
        PartStatistic.objects.filter(scenario__isnull=True, part_key="", param_name="")
        .select_related("problem")
        .order_by("problem__number")
    )


def problem_statistics(problem: Problem, min_attempts: int = MIN_ATTEMPTS) -> ProblemStats:
    """Everything the statistics page of `problem` shows, from its summary rows (one query)."""
    rows = list(
        PartStatistic.objects.filter(problem=problem)
        .select_related("scenario")
        .order_by("scenario_id", "part_key", "param_name", "param_order", "param_value")
    )
    whole = None
    by_scenario: dict[int, ScenarioStats] = {}
    for row in rows:
        if row.scenario_id is None:
            whole = row
            continue
        entry = by_scenario.setdefault(row.scenario_id, ScenarioStats(row.scenario))
        if row.param_name:
            if not row.part_key:
                entry.params.setdefault(row.param_name, []).append(row)
        elif row.part_key:
            entry.parts.append(row)
        else:
            entry.whole = row
    return ProblemStats(
        whole=whole,
        scenarios=list(by_scenario.values()),
        hardest=hardest_values(rows, min_attempts),
        computed_at=max((row.computed_at for row in rows), default=None),
    )


def hardest_values(
    rows: Sequence[PartStatistic], min_attempts: int = MIN_ATTEMPTS, limit: int = HARDEST_LISTED
) -> list[PartStatistic]:
    """Parameter-value rows (whole attempts and single parts) with at least `min_attempts`
    attempts, lowest correct rate first."""
    candidates = [row for row in rows if row.param_name and row.attempts >= min_attempts]
    candidates.sort(key=lambda row: (row.correct / row.attempts, -row.attempts, row.param_name))
    return candidates[:limit]
