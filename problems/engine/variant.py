"""Variants: (scenario version, seed) -> parameters, text, answer keys and worked steps.

Drawing: each attempt draws every parameter from its hash (see `params`), then runs the
scenario's plan: given values are computed and rounded to their significant figures in their
unit (the learner sees the rounded number and every later formula uses it), derived values are
computed, and each constraint is checked as soon as the values it reads exist. A rejected
attempt draws again with the next attempt counter, up to `MAX_ATTEMPTS`; then `SamplingError`
names the constraint that rejected most draws.

Keys, worked steps and misconception values are all computed by the same compiled formulas from
the same env, so a worked solution can never disagree with the key.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .catalogue import entry_spec
from .errors import FormulaError, SamplingError
from .figures import figure_label
from .formula import Formula
from .numbers import as_number, in_unit, round_significant
from .params import draw_integer
from .templates import Display

if TYPE_CHECKING:  # the schema module reaches the variant through its solution
    from .grading import GradeResult
    from .schema import Constraint, Scenario

MAX_ATTEMPTS = 100


@dataclass(frozen=True)
class VariantPart:
    """One answer box of a variant: what is asked, in which unit, and its key (part unit)."""

    key: str
    prompt: str
    unit: str
    answer: float
    interval: tuple[float, float]


class Variant:
    """One concrete draw of a scenario. `answer_values` holds each part's correct answer [base
    units] (`answer(part)` gives it in the part's unit); `to_json()` gives the `bank sample
    --json` shape."""

    def __init__(
        self,
        scenario: "Scenario",
        seed: int,
        env: dict[str, Any],
        displays: dict[str, Display],
        attempts: int,
    ) -> None:
        self.scenario = scenario
        self.seed = seed
        self.attempts = attempts
        self._env = env
        self._displays = displays
        self.answer_values = {part.key: env[part.key] for part in scenario.parts}

    @property
    def env(self) -> Mapping[str, Any]:
        """Every value of the draw in base units (parameters, given, derived, part keys)."""
        return self._env

    @property
    def displays(self) -> Mapping[str, Display]:
        return self._displays

    @cached_property
    def text(self) -> str:
        return self.scenario.text.render(self._env, self._displays)

    @cached_property
    def prompts(self) -> dict[str, str]:
        return {p.key: p.prompt.render(self._env, self._displays) for p in self.scenario.parts}

    @cached_property
    def steps(self) -> list[str]:
        return [step.text.render(self._env, self._displays) for step in self.scenario.steps]

    @cached_property
    def _solution(self) -> dict:
        from .solution import render_solution

        return render_solution(self.scenario, self._env, self._displays)

    @property
    def model_answer(self) -> str | None:
        """The model interview answer (Markdown-ish prose) with this variant's numbers; None
        when the scenario (with what it took from its problem) has none."""
        return self._solution["model_answer"]

    @property
    def tradeoffs(self) -> tuple[str, ...]:
        return self._solution["tradeoffs"]

    @property
    def follow_ups(self) -> tuple[tuple[str, str], ...]:
        """What an interviewer asks next: (question, short answer) pairs."""
        return self._solution["follow_ups"]

    @property
    def self_check(self) -> tuple[str, ...]:
        return self._solution["self_check"]

    @property
    def code(self) -> tuple:
        """Code shown with the solution (`CodeBlock`: title, language, text), as written."""
        return self._solution["code"]

    @property
    def sources(self) -> tuple:
        """Where the solution's claims come from (`Source`: claim, references)."""
        return self._solution["sources"]

    def answer(self, part_key: str) -> float:
        """The key of a part in the part's unit."""
        part = self.scenario.part(part_key)
        return part.unit.from_base(self.answer_values[part_key])

    def interval(self, part_key: str) -> tuple[float, float]:
        """The accepted interval of a part in the part's unit."""
        part = self.scenario.part(part_key)
        key = self.answer(part_key)
        width = part.tolerance.half_width(key)
        return key - width, key + width

    def accepted(self, part_key: str) -> str:
        """The accepted interval of a part in words ("accepted: 1.05 to 1.09 TB")."""
        from .grading import _accepted_words

        part = self.scenario.part(part_key)
        key = self.answer(part_key)
        return _accepted_words(key, part.tolerance.half_width(key), part.tolerance, part.unit)

    def key_text(self, part_key: str) -> str:
        """The key written with its unit, to as many figures as the tolerance needs."""
        from .grading import _digits, _shown

        part = self.scenario.part(part_key)
        key = self.answer(part_key)
        return _shown(key, part.unit, _digits(key, part.tolerance.half_width(key)))

    def value_text(self, part_key: str, value: float) -> str:
        """A value the learner gave for a part (in the part's unit) written with the unit, to
        four significant figures: how their answer was read, with nothing taken from the key."""
        from .grading import _shown

        return _shown(value, self.scenario.part(part_key).unit, 4)

    @property
    def parts(self) -> list[VariantPart]:
        return [
            VariantPart(
                key=part.key,
                prompt=self.prompts[part.key],
                unit=part.unit.text,
                answer=self.answer(part.key),
                interval=self.interval(part.key),
            )
            for part in self.scenario.parts
        ]

    def misconceptions(self, part_key: str) -> list[dict]:
        """The part's misconceptions for this variant (for an author's preview): tag, wrong
        values in the part's unit, and whether each is suppressed (it coincides with the key)."""
        part = self.scenario.part(part_key)
        key = self.answer(part_key)
        width = part.tolerance.half_width(key)
        listed: list[dict[str, Any]] = []
        for misconception in part.misconceptions:
            try:
                values, _ = misconception.values(self._env, self.answer_values[part_key])
            except FormulaError as error:
                listed.append({"tag": misconception.tag, "error": error.message})
                continue
            shown = [part.unit.from_base(value) for value in values]
            listed.append(
                {
                    "tag": misconception.tag,
                    "values": shown,
                    "suppressed": [abs(value - key) <= width for value in shown],
                }
            )
        return listed

    def catalogue_sheets(self) -> list[dict]:
        """The catalogue entries whose figures the question takes as known (`assumed:`), for
        the page's links to their catalogue sheets: {"param", "kind" ("gpu", "model",
        "format"), "key", "name", "fields", "labels"}; empty fields mean every figure."""
        sheets: dict[str, dict] = {}
        for param, field in self.scenario.assumed:
            entry = self._env.get(param)
            if entry is None or not hasattr(entry, "key"):
                continue
            sheet = sheets.get(param)
            if sheet is None:
                sheet = sheets[param] = {
                    "param": param,
                    "kind": self.scenario.catalogue.keyword_of(type(entry)),
                    "key": entry.key,
                    "name": getattr(entry, "name", entry.key),
                    "fields": [],
                    "labels": [],
                }
            if field is None:
                sheet["whole"] = True
            elif field not in sheet["fields"]:
                sheet["fields"].append(field)
                sheet["labels"].append(figure_label(field))
        for sheet in sheets.values():
            if sheet.pop("whole", False):
                sheet["fields"], sheet["labels"] = [], []
        return list(sheets.values())

    def params_json(self) -> dict:
        """Parameters as shown: numbers in their unit, catalogue entries with their specs."""
        result: dict[str, Any] = {}
        for param in self.scenario.params:
            display = self._displays[param.name]
            if param.is_catalogue:
                result[param.name] = entry_spec(display.value, self.scenario.catalogue)
            elif display.unit is not None and display.unit.text:
                result[param.name] = {"value": display.value, "unit": display.unit.text}
            else:
                result[param.name] = display.value
        return result

    def given_json(self) -> dict:
        return {
            given.name: {"value": self._displays[given.name].value, "unit": given.unit.text}
            for given in self.scenario.given
        }

    def to_json(self) -> dict:
        """The full variant, keys and steps included (for `bank sample --json`)."""
        return {
            "problem": self.scenario.problem,
            "scenario": self.scenario.key,
            "version": self.scenario.version,
            "seed": self.seed,
            "params": self.params_json(),
            "given": self.given_json(),
            "text": self.text,
            "parts": [
                {
                    "key": part.key,
                    "prompt": part.prompt,
                    "unit": part.unit,
                    "answer": part.answer,
                    "tolerance": {
                        **self.scenario.part(part.key).tolerance.to_json(),
                        "interval": list(part.interval),
                    },
                }
                for part in self.parts
            ],
            "steps": self.steps,
            "model_answer": self.model_answer,
            "follow_ups": [
                {"question": question, "answer": answer} for question, answer in self.follow_ups
            ],
        }

    def grade(
        self, part_key: str, text: str, earlier: Mapping[str, "GradeResult"] | None = None
    ) -> "GradeResult":
        """Grade one typed answer (see `problems.engine.grading.grade_part`)."""
        from .grading import grade_part

        return grade_part(self, part_key, text, earlier=earlier)

    def grade_all(self, answers: Mapping[str, str]) -> dict[str, "GradeResult"]:
        """Grade answers to several parts, in part order, with error carried forward."""
        from .grading import grade_answers

        return grade_answers(self, answers)

    def __repr__(self) -> str:
        return f"<Variant {self.scenario.key} v{self.scenario.version} seed={self.seed}>"


def draw_variant(scenario: "Scenario", seed: int) -> Variant:
    """The variant of `scenario` (at its version) for `seed`, the same in every process.

    Raises `SamplingError` when no draw within `MAX_ATTEMPTS` satisfies the constraints, and
    `FormulaError` when a formula fails on a draw the constraints accepted.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
    rejected: dict[int, int] = {}
    for attempt in range(MAX_ATTEMPTS):
        env, displays = _draw_params(scenario, seed, attempt)
        failed = _run_plan(scenario, env, displays)
        if failed is None:
            _compute_parts(scenario, env)
            for part in scenario.parts:
                displays[part.key] = Display(None, part.unit)
            return Variant(scenario, seed, env, displays, attempt + 1)
        rejected[failed.index] = rejected.get(failed.index, 0) + 1
    worst = max(rejected, key=rejected.__getitem__)
    constraint = next(c for c in scenario.constraints if c.index == worst)
    raise SamplingError(
        f"no draw satisfied the constraints in {MAX_ATTEMPTS} attempts (seed {seed}); "
        f"constraint {worst} ('{constraint.formula.source}': {constraint.message}) rejected "
        f"{rejected[worst]} of them: the parameter space is empty or nearly so",
        constraint=constraint.message,
    )


def _draw_params(
    scenario: "Scenario", seed: int, attempt: int
) -> tuple[dict[str, Any], dict[str, Display]]:
    env: dict[str, Any] = {}
    displays: dict[str, Display] = {}
    key, version = scenario.key, scenario.version
    for param in scenario.params:
        value = param.draw(draw_integer(key, version, seed, attempt, param.name))
        displays[param.name] = Display(value, param.unit)
        env[param.name] = param.to_base(value)
    return env, displays


def _run_plan(
    scenario: "Scenario", env: dict[str, Any], displays: dict[str, Display]
) -> "Constraint | None":
    """Evaluate given, derived and constraints in order; return the failed constraint or None."""
    for kind, item in scenario.plan:
        if kind == "constraint":
            try:
                ok = item.formula.evaluate(env)
            except FormulaError as error:
                raise FormulaError(
                    f"constraints[{item.index}]: {error.message}", error.source
                ) from None
            if not ok:
                return item
        elif kind == "given":
            value = _evaluate(item.formula, env, f"given.{item.name}")
            shown = as_number(round_significant(in_unit(value, item.unit.factor), item.significant))
            displays[item.name] = Display(shown, item.unit)
            env[item.name] = item.unit.to_base(shown) if item.unit.factor != 1 else shown
        else:
            env[item.name] = _evaluate(item.formula, env, f"derived.{item.name}")
    return None


def _compute_parts(scenario: "Scenario", env: dict[str, Any]) -> None:
    for part in scenario.parts:
        env[part.key] = _evaluate(part.answer, env, f"parts[{part.index}].answer")


def _evaluate(formula: Formula, env: Mapping[str, Any], where: str) -> Any:
    try:
        return formula.evaluate(env)
    except FormulaError as error:
        raise FormulaError(f"{where}: {error.message}", error.source) from None
