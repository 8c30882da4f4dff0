"""Validation of a scenario over many seeds, for `bank check` and the authoring page.

For each seed 0..seeds-1 the scenario is drawn and checked:
- constraints satisfiable: no `SamplingError`, and the share of accepted draws high enough that
  a draw fails (all `MAX_ATTEMPTS` attempts rejected) less than once in a million;
- every formula evaluates (given, derived, answers, misconceptions, text, prompts, steps);
- every key is finite, readable in its unit (|key| at most 1e15 and, unless 0, at least 1e-9)
  and inside the part's declared `range`; a key of 0 needs an absolute tolerance;
- numbers in the question and prompts are shown exactly (read back, they equal the value the
  key is computed from), so the learner computes with what is on screen;
- each part has a worked step that concludes it, and the number that step shows, read back by
  the answer parser, grades correct;
- misconceptions: the share of seeds on which one coincides with the key is reported (the
  linter fails it above 5%), and a warning names two explicit ones (the part's own or `use:`
  entries) that give the same value. One that coincides with an automatic unit-level entry
  (bits/bytes, GB/GiB, ms/s, %) is not warned about: the part's entry comes first and wins by
  design, which is the better diagnosis.

The linter (`problems.engine.lint`) runs on the same draws and adds the checks that play the
learner: the rounded learner, worked-step arithmetic, mistakes that stay mistakes (with the rate
of each), stated inputs, physical bounds, prose and the constraints audit.

The report is JSON-able: ``{"key", "version", "ok", "seeds_checked", "errors": [{"seed",
"part", "message", "check", "explanation"}], "warnings", "coincidences", "acceptance_rate",
"mistakes", "constraints"}``. Each error names the check that found it, carries a one-line
explanation and the first seed that reproduces it (None when no one seed does).
"""

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .answers import parse_answer
from .errors import EngineError, FormulaError, ParseError, SamplingError
from .grading import CORRECT, grade_part
from .lint import EXPLANATIONS, Linter, RenderedStep
from .schema import Part, Problem, Scenario
from .solution_numbers import check_solution_numbers
from .templates import Template
from .units import UnitSpec, display_unit
from .variant import MAX_ATTEMPTS, Variant, draw_variant

MAX_REPORTED_ERRORS = 50
PROGRESS_EVERY = 50
MAX_DRAW_FAILURE = 1e-6  # tolerated chance that a learner's draw finds no variant
LARGEST_KEY = 1e15
SMALLEST_KEY = 1e-9


class _Report:
    def __init__(self, scenario: Scenario, seeds: int) -> None:
        self.scenario = scenario
        self.seeds = seeds
        # (part, category) -> {"seed", "part", "message", "check", "count"}
        self.errors: dict[tuple[str | None, object], dict[str, Any]] = {}
        self.warnings: list[str] = []

    def error(
        self,
        seed: int | None,
        part: str | None,
        message: str,
        category: object = None,
        check: str = "key",
    ) -> None:
        key = (part, category or message)
        entry = self.errors.get(key)
        if entry is None:
            self.errors[key] = {
                "seed": seed,
                "part": part,
                "message": message,
                "check": check,
                "count": 1,
            }
        else:
            entry["count"] += 1

    def error_list(self) -> list[dict[str, Any]]:
        listed = []
        for entry in list(self.errors.values())[:MAX_REPORTED_ERRORS]:
            message = entry["message"]
            if entry["count"] > 1:
                message += f" (on {entry['count']} of {self.seeds} seeds)"
            listed.append(
                {
                    "seed": entry["seed"],
                    "part": entry["part"],
                    "message": message,
                    "check": entry["check"],
                    "explanation": EXPLANATIONS.get(entry["check"], ""),
                }
            )
        return listed


def check_scenario(
    scenario: Scenario,
    seeds: int = 1000,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Check `scenario` over seeds 0..seeds-1; see the module docstring for what is checked.

    `progress(done, total)`, if given, is called every 50 seeds and at the end (for a progress
    bar in a background task).
    """
    report = _Report(scenario, seeds)
    _static_checks(scenario, report)
    linter = Linter(scenario, report, seeds)
    attempts = 0
    drawn = 0
    for seed in range(seeds):
        try:
            variant = draw_variant(scenario, seed)
        except (SamplingError, FormulaError) as error:
            report.error(
                seed, None, error.message, category=("draw", type(error).__name__), check="draw"
            )
            if isinstance(error, SamplingError):
                attempts += MAX_ATTEMPTS
        else:
            drawn += 1
            attempts += variant.attempts
            _check_shown_exactly(variant, seed, report)
            for part in scenario.parts:
                _check_part(variant, part, seed, report)
            steps = _check_steps(variant, seed, report)
            linter.visit(variant, seed, steps)
            check_solution_numbers(variant, seed, report)
        if progress is not None and (seed + 1) % PROGRESS_EVERY == 0:
            progress(seed + 1, seeds)
    if progress is not None and seeds % PROGRESS_EVERY:
        progress(seeds, seeds)
    extra = linter.finish()
    coincidences = [
        {"part": part_key, "tag": tag, "fraction": count / max(drawn, 1)}
        for (part_key, tag), count in linter.coincide.items()
    ]
    for entry in coincidences:
        if entry["fraction"] == 1:
            report.warnings.append(
                f"part '{entry['part']}': misconception '{entry['tag']}' equals the key on every "
                "seed, so it can never fire"
            )
    for (part_key, first, second), count in linter.collide.items():
        report.warnings.append(
            f"part '{part_key}': misconceptions '{first}' and '{second}' give the same value on "
            f"{count} of {drawn} seeds ('{first}' is reported there)"
        )
    rate = drawn / attempts if attempts else 0.0
    failure = (1 - rate) ** MAX_ATTEMPTS if attempts else 1.0
    if drawn and failure > MAX_DRAW_FAILURE:
        report.error(
            None,
            None,
            f"the constraints accept only {rate:.1%} of draws, so about one draw in "
            f"{1 / failure:,.0f} would find no variant within {MAX_ATTEMPTS} attempts; widen the "
            "parameter space or relax the constraints",
            check="acceptance",
        )
    errors = report.error_list()
    return {
        "key": scenario.key,
        "version": scenario.version,
        "ok": not errors,
        "seeds_checked": seeds,
        "errors": errors,
        "warnings": report.warnings,
        "coincidences": coincidences,
        "acceptance_rate": rate,
        **extra,
    }


def check_problem(problem: Problem, seeds: int = 1000) -> dict[str, Any]:
    """`check_scenario` for every scenario of a problem, in the `bank check --json` shape."""
    scenarios = [check_scenario(scenario, seeds) for scenario in problem.scenarios]
    return {
        "number": problem.number,
        "title": problem.title,
        "page": problem.page,
        "ok": all(s["ok"] for s in scenarios),
        "scenarios": scenarios,
    }


def _static_checks(scenario: Scenario, report: _Report) -> None:
    concluded = {step.concludes for step in scenario.steps if step.concludes}
    for part in scenario.parts:
        if part.key not in concluded:
            report.error(
                None,
                part.key,
                f"no worked step concludes part '{part.key}': end a step with {{{part.key}}} "
                f"or give it `concludes: {part.key}`",
                check="steps",
            )


def _check_shown_exactly(variant: Variant, seed: int, report: _Report) -> None:
    scenario = variant.scenario
    templates: list[tuple[str, str | None, Template]] = [("text", None, scenario.text)]
    templates += [(f"prompt of part '{p.key}'", p.key, p.prompt) for p in scenario.parts]
    for where, part, template in templates:
        try:
            _, records = template.render_parts(variant.env, variant.displays)
        except FormulaError as error:
            report.error(
                seed, part, f"{where}: {error.message}", category=("render", where), check="draw"
            )
            continue
        for record in records:
            if record.number_text is None or not isinstance(record.value, (int, float)):
                continue
            unit = record.unit or display_unit("")
            shown = record.number_text + (" " + unit.text if unit.text and not unit.noun else "")
            try:
                read = _read_back(record.number_text, shown, unit)
            except ParseError as error:
                report.error(
                    seed,
                    part,
                    f"{where}: '{shown}' cannot be read back ({error.message})",
                    category=("unreadable", where),
                    check="shown-exactly",
                )
                continue
            if abs(read - record.value) > 1e-9 * abs(record.value):
                report.error(
                    seed,
                    part,
                    f"{where} shows {{{record.placeholder.source}}} as '{record.text}', but its "
                    f"value is {record.value!r}: the learner would compute with a rounded number. "
                    "Make it a given value (rounded with sig) or show it exactly",
                    category=("inexact", where, record.placeholder.source),
                    check="shown-exactly",
                )


_PLAIN_NUMBER = re.compile(r"-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")


def _plain_number(text: str) -> float | None:
    """A number as `format_number` writes it ("3,350", "0.125"), or None (scientific)."""
    return float(text.replace(",", "")) if _PLAIN_NUMBER.fullmatch(text) else None


@lru_cache(maxsize=1024)
def _unit_reads_back(unit: UnitSpec) -> bool:
    """Whether the answer parser reads a number written with `unit` (checked once per unit)."""
    shown = "1" + (" " + unit.text if unit.text and not unit.noun else "")
    try:
        parse_answer(shown, unit)
    except ParseError:
        return False
    return True


def _read_back(number_text: str, shown: str, unit: UnitSpec) -> float:
    """A shown number read back in base units, as the answer parser would read it."""
    number = _plain_number(number_text)
    if number is not None and _unit_reads_back(unit):
        return unit.to_base(number)
    return unit.to_base(parse_answer(shown, unit))


def _check_part(variant: Variant, part: Part, seed: int, report: _Report) -> None:
    key = variant.answer(part.key)
    unit = part.unit.text or "a plain number"
    if abs(key) > LARGEST_KEY or (key != 0 and abs(key) < SMALLEST_KEY):
        report.error(
            seed,
            part.key,
            f"the key is {key!r} in {unit}: choose a unit that makes it readable",
            category="magnitude",
        )
    if key == 0 and part.tolerance.absolute == 0:
        report.error(
            seed,
            part.key,
            "the key is 0 and the tolerance has no absolute part, so only exactly 0 is accepted",
            category="zero",
        )
    if part.range is not None and not part.range[0] <= key <= part.range[1]:
        report.error(
            seed,
            part.key,
            f"the key {key!r} {unit} is outside the part's range {list(part.range)}",
            category="range",
        )


def _check_steps(variant: Variant, seed: int, report: _Report) -> list[RenderedStep]:
    """Render every step and check each concluding number; returns each step's (text, records),
    or None where it could not be rendered, for the linter."""
    rendered: list[RenderedStep] = []
    for index, step in enumerate(variant.scenario.steps):
        try:
            text, records = step.text.render_parts(variant.env, variant.displays)
        except FormulaError as error:
            report.error(
                seed,
                None,
                f"steps[{index}]: {error.message}",
                category=("step", index),
                check="steps",
            )
            rendered.append(None)
            continue
        rendered.append((text, records))
        if step.concludes is None:
            continue
        numeric = [r for r in records if r.number_text is not None]
        if not numeric:
            report.error(
                seed,
                step.concludes,
                f"steps[{index}] concludes part '{step.concludes}' but shows no number",
                category=("step", index),
                check="steps",
            )
            continue
        record = numeric[-1]
        unit = record.unit
        shown = record.number_text + (
            " " + unit.text if unit and unit.text and not unit.noun else ""
        )
        if unit is None or not unit.text:
            shown = record.number_text
        part = variant.scenario.part(step.concludes)
        number = _plain_number(record.number_text)
        if number is not None and (
            unit is None or not unit.text or unit.noun or unit.dimensions == part.unit.dimensions
        ):
            # The common case without the parser: the number, converted to the part's unit.
            factor = unit.factor if unit is not None and unit.text and not unit.noun else None
            value = number * factor / part.unit.factor if factor is not None else number
            if part.tolerance.accepts(value, variant.answer(step.concludes)):
                continue
        try:
            result = grade_part(variant, step.concludes, shown)
        except EngineError as error:
            report.error(
                seed,
                step.concludes,
                f"steps[{index}]: {error.message}",
                category=("step", index),
                check="steps",
            )
            continue
        if result.status != CORRECT:
            report.error(
                seed,
                step.concludes,
                f"steps[{index}] shows '{record.text}' for part '{step.concludes}', which grades "
                f"{result.status} (key {result.key!r}): the step disagrees with the key or is "
                "rounded too coarsely for the tolerance",
                category=("step-disagrees", index),
                check="steps",
            )
    return rendered
