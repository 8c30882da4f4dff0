"""`manage.py bank sample|grade|check`: the bank as the web sees it, in the stable JSON shapes of
docs/architecture.md, "Interfaces that stay stable"."""

import functools
import json
from argparse import ArgumentParser
from collections.abc import Callable, Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from problems.engine import EngineError, Variant, check_scenario, solution_texts
from problems.engine import Problem as CompiledProblem
from problems.engine import Scenario as CompiledScenario
from problems.loader import BankError, read_bank
from problems.models import Problem, ScenarioVersion
from problems.variants import compiled_scenario, variant_of

# What `bank check` checks of one problem: (key, version number, compile) per scenario.
_ToCheck = tuple[CompiledProblem | Problem, list[tuple[str, int, Callable[[], CompiledScenario]]]]


def _published_version(number: int, key: str | None) -> ScenarioVersion:
    problem = Problem.objects.filter(number=number).first()
    if problem is None:
        raise CommandError(f"There is no problem {number}. Has `manage.py load_bank` run?")
    versions = (
        ScenarioVersion.objects.published()
        .filter(scenario__problem=problem)
        .select_related("scenario__problem")
        .order_by("scenario_id")
    )
    version = versions.first() if key is None else versions.filter(scenario__key=key).first()
    if version is None:
        keys = ", ".join(versions.values_list("scenario__key", flat=True)) or "none"
        raise CommandError(
            f"Problem {number} has no published scenario {key or ''!s}. Its scenarios: {keys}."
        )
    return version


class Command(BaseCommand):
    help = "Sample a variant, grade an answer, or check every scenario of the bank."

    def add_arguments(self, parser: ArgumentParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        sample = sub.add_parser("sample", help="print one variant, keys and steps included")
        grade = sub.add_parser("grade", help="grade one typed answer exactly as the web does")
        for each in (sample, grade):
            each.add_argument("problem", type=int)
            each.add_argument("--scenario", default=None)
            each.add_argument("--seed", type=int, required=True)
            each.add_argument("--json", action="store_true")
        grade.add_argument("--part", required=True)
        grade.add_argument("--answer", required=True)
        check = sub.add_parser("check", help="validate every published scenario over many seeds")
        check.add_argument("--json", action="store_true")
        check.add_argument("--seeds", type=int, default=1000)
        check.add_argument("--problem", type=int, action="append", dest="problems")
        check.add_argument(
            "--files",
            action="store_true",
            help="check the YAML files in problems/bank/ instead of the database (no migrate "
            "or load_bank needed; versions are 1)",
        )

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        getattr(self, f"_{action}")(**options)

    def _variant(self, problem: int, scenario: str | None, seed: int) -> tuple[Variant, Problem]:
        """The variant, and the problem row it belongs to."""
        if seed < 0:
            raise CommandError("--seed must be 0 or more")
        version = _published_version(problem, scenario)
        try:
            return variant_of(version, seed), version.scenario.problem
        except EngineError as error:
            raise CommandError(f"This variant cannot be drawn: {error}") from None

    def _sample(
        self, problem: int, scenario: str | None, seed: int, json: bool, **options: Any
    ) -> None:
        variant, stored_problem = self._variant(problem, scenario, seed)
        # A version stored before problem texts were folded into it shows its problem's.
        texts = solution_texts(variant, stored_problem)
        if json:
            data = variant.to_json()
            data["model_answer"] = texts["model_answer"]
            data["follow_ups"] = [{"question": q, "answer": a} for q, a in texts["follow_ups"]]
            self.stdout.write(_dumps(data))
            return
        self.stdout.write(variant.text)
        for part in variant.parts:
            low, high = part.interval
            self.stdout.write(f"\n[{part.key}] {part.prompt}")
            self.stdout.write(
                f"  key: {part.answer:.6g} {part.unit}  (accepted {low:.6g}–{high:.6g})"
            )
        self.stdout.write("\nWorked solution:")
        for step in variant.steps:
            self.stdout.write(f"  - {step}")
        if texts["model_answer"]:
            self.stdout.write("\nModel answer:\n" + texts["model_answer"].strip())
        for question, answer in texts["follow_ups"]:
            self.stdout.write(f"\nQ: {question}\nA: {answer}")

    def _grade(
        self,
        problem: int,
        scenario: str | None,
        seed: int,
        part: str,
        answer: str,
        json: bool,
        **options: Any,
    ) -> None:
        variant, _ = self._variant(problem, scenario, seed)
        if part not in variant.answer_values:
            raise CommandError(
                f"No part {part!r}; the parts are {', '.join(variant.answer_values)}."
            )
        result = variant.grade(part, answer)
        if json:
            self.stdout.write(_dumps(result.to_json()))
        else:
            self.stdout.write(f"{result.status} (score {result.score:g}): {result.message}")

    def _check(
        self, json: bool, seeds: int, problems: list[int] | None, files: bool, **options: Any
    ) -> None:
        if seeds < 1:
            raise CommandError("--seeds must be 1 or more")
        checked: list[dict[str, Any]] = []
        report: dict[str, Any] = {"ok": True, "problems": checked}
        for problem, scenarios in self._to_check(files, problems):
            entry: dict[str, Any] = {
                "number": problem.number,
                "title": problem.title,
                "page": problem.page,
                "scenarios": [],
            }
            checked.append(entry)
            for key, version, compile_scenario in scenarios:
                try:
                    result = check_scenario(compile_scenario(), seeds=seeds)
                except EngineError as error:
                    result = {
                        "key": key,
                        "version": version,
                        "ok": False,
                        "seeds_checked": 0,
                        "errors": [
                            {"seed": None, "part": None, "message": str(error), "check": "schema"}
                        ],
                    }
                entry["scenarios"].append(result)
                report["ok"] = report["ok"] and result["ok"]
        if not report["problems"]:
            report["ok"] = False
            report["error"] = "no published scenarios to check; run `manage.py load_bank` first"
        if json:
            self.stdout.write(_dumps(report))
        else:
            self._print_check(report, seeds)
        if not report["ok"]:
            raise CommandError("bank check failed")

    def _to_check(self, files: bool, problems: list[int] | None) -> Iterator[_ToCheck]:
        """(problem, [(key, version, compile)]) pairs, from the files or the database."""
        if files:
            try:
                definitions = read_bank()
            except BankError as error:
                raise CommandError(f"The bank files do not load:\n{error}") from None
            for _path, data, problem in definitions:
                if problems and data["number"] not in problems:
                    continue
                yield (
                    problem,
                    [
                        (scenario.key, scenario.version, _returning(scenario))
                        for scenario in problem.scenarios
                    ],
                )
            return
        versions = (
            ScenarioVersion.objects.published()
            .select_related("scenario__problem")
            .order_by("scenario__problem__number", "scenario_id")
        )
        if problems:
            versions = versions.filter(scenario__problem__number__in=problems)
        by_problem: dict[Problem, list[tuple[str, int, Callable[[], CompiledScenario]]]] = {}
        for version in versions:
            by_problem.setdefault(version.scenario.problem, []).append(
                (
                    version.scenario.key,
                    version.number,
                    functools.partial(compiled_scenario, version),
                )
            )
        yield from by_problem.items()

    def _print_audit(self, scenario: dict[str, Any]) -> None:
        """The linter's rates: the closest mistake, and what each constraint rejects."""
        mistakes = scenario.get("mistakes", [])
        lowest = _lowest_rate(mistakes)
        if lowest is not None and lowest["distinct"] < 1:
            self.stdout.write(
                f"       mistakes: {len(mistakes)} checked; the one least often told apart from "
                f"the key is '{lowest['tag']}' (part {lowest['part']}), on "
                f"{lowest['distinct']:.1%} of seeds"
            )
        for constraint in scenario.get("constraints", []):
            never = (
                "; never lets through " + ", ".join(constraint["never"])
                if constraint["never"]
                else ""
            )
            self.stdout.write(
                f"       constraint {constraint['index']} rejects {constraint['rejects']:.0%} "
                f"of draws ({constraint['message']}){never}"
            )

    def _print_check(self, report: dict[str, Any], seeds: int) -> None:
        if "error" in report:
            self.stdout.write(report["error"])
        scenario_count = 0
        for problem in report["problems"]:
            for scenario in problem["scenarios"]:
                scenario_count += 1
                mark = "ok  " if scenario["ok"] else "FAIL"
                self.stdout.write(
                    f"{mark} {problem['number']:>3} {scenario['key']} v{scenario['version']} "
                    f"({scenario['seeds_checked']} seeds)"
                )
                for error in scenario["errors"]:
                    where = f"seed {error['seed']}, " if error["seed"] is not None else ""
                    part = f"part {error['part']}: " if error["part"] else ""
                    check = f"[{error['check']}] " if error.get("check") else ""
                    self.stdout.write(f"       {check}{where}{part}{error['message']}")
                for warning in scenario.get("warnings", []):
                    self.stdout.write(f"       warning: {warning}")
                self._print_audit(scenario)
        verdict = "all passed" if report["ok"] else "FAILED"
        self.stdout.write(
            f"{len(report['problems'])} problems, {scenario_count} scenarios, {seeds} seeds each: "
            f"{verdict}"
        )


def _returning(scenario: CompiledScenario) -> Callable[[], CompiledScenario]:
    return lambda: scenario


def _lowest_rate(mistakes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The mistake that the tolerance tells apart from the key least often."""
    return min(mistakes, key=lambda m: m["distinct"]) if mistakes else None


def _dumps(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False, default=str)
