"""The bank linter: checks that play the learner, run by `check_scenario` on every seed.

`check.py` checks that a scenario draws, that its keys are readable and that its worked steps
agree with its keys. The linter checks the space around the formulas, where a correct answer can
still be marked wrong:

1. **rounded-learner**: a learner who answers each part from the numbers on the page and their
   own earlier answers rounded to 3 significant figures (and, separately, to the precision the
   worked steps show), carrying them forward, is marked correct on every part of every seed.
2. **step-arithmetic**: a worked step's arithmetic redone on the numbers it shows gives the
   result it prints, within the tolerance (a result is a placeholder after "=", or the number
   that concludes a part).
3. **mistakes**: every misconception (the part's own, the library's, the automatic unit-level
   ones), the opposite rounding of each floor/ceil count and, for a percentage, the complement
   (1 − x) and 100% fall outside the tolerance on at least 95% of seeds; the rate of each is
   reported. The opposite rounding counts where it moves the key (see `ROUNDING_NOISE`).
4. **stated-inputs**: every catalogue figure a key depends on (found by tracing the estimator's
   reads of the drawn GPU, model and format) is shown in the question or declared under
   `assumed:`, and every parameter and given value a key depends on is shown.
5. **physical-bounds**: efficiencies, utilisations and hit rates (by their names, or computed
   by the estimator's utilisation, fraction, hit-rate and attainment functions) lie in
   [0, 100%], and no formula computes with the pooled interconnect figure of a GPU whose links
   do not pool.
6. **prose**: texts, prompts, steps and feedback, rendered for a sample of seeds, have no
   doubled words, no "1 GPUs", no "(s)" and no unit repeated after a number that carries it.
7. **constraints**: per constraint, the share of draws it rejects and the pairs of parameter
   values it never lets through; a listed parameter value that can never be drawn fails.

Every finding is a report error with the seed that reproduces it, the check's name and a
one-line explanation (`EXPLANATIONS`).
"""

import ast
import dataclasses
import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .answers import parse_answer
from .catalogue import NUMBER
from .errors import EngineError, FormulaError, ParseError
from .figures import figure_text
from .formula import Formula, compile_formula
from .grading import grade_part
from .numbers import as_number, format_number, in_unit, round_decimals, round_significant
from .params import Param
from .schema import Part, Scenario, Step
from .templates import Display, Placeholder, Rendered, Template, with_unit
from .tolerance import Tolerance
from .units import UnitSpec, display_unit, parse_unit

if TYPE_CHECKING:  # the check runs the linter
    from .check import _Report
    from .variant import Variant

RenderedStep = tuple[str, list[Rendered]] | None
"""A worked step rendered for one variant: its text and placeholders, or None if it failed."""

MIN_DISTINCT = 0.95  # a mistake must stay outside the tolerance on this share of seeds
PROSE_SEEDS = 20  # seeds whose texts are rendered and read for the prose check
GRADED_PROSE_SEEDS = 5  # of those, seeds whose grading messages are read too
AUDIT_DRAWS = 500  # first-attempt draws the constraints audit evaluates in full
MIN_AUDITED_ACCEPTANCE = 0.1  # below it the acceptance check fails; values are not audited
AUDIT_RETRIES = 300  # draws with a never-seen parameter value fixed, before calling it undrawable
MAX_LISTED = 64  # parameter spaces of at most this many values are audited value by value
MAX_PAIRS_SHOWN = 6
MAX_PAIRED = 12  # lists of at most this many values are audited in pairs (at most this many)
MIN_PAIR_DRAWS = 8  # raw draws of a pair of values before "never lets it through" is claimed
LEARNER_FIGURES = 3
# The opposite rounding of a count is a mistake where it moves the key: by any amount in a part
# graded as a whole number (an absolute tolerance), otherwise by more than a learner's rounding
# to 3 significant figures does (half a unit in the third figure, at most 0.5%).
ROUNDING_NOISE = 0.005

EXPLANATIONS = {
    "draw": "Every seed must give a variant: the formulas must evaluate on every accepted draw.",
    "acceptance": "The constraints must accept enough draws that a learner's draw never fails.",
    "key": "Every key must be a finite number, readable in its unit and inside its range.",
    "shown-exactly": "The question must show the numbers the key is computed from, not rounded "
    "copies of them.",
    "steps": "Every part needs a worked step that ends with its key, and that number must grade "
    "correct.",
    "misconception": "Every misconception's formula and feedback must evaluate on every seed.",
    "rounded-learner": "A learner who carries earlier answers at 3 significant figures (or as "
    "the steps show them) must still be marked correct.",
    "step-arithmetic": "Redoing a worked step's arithmetic on the numbers it shows must give the "
    "result it prints, within the part's tolerance.",
    "mistakes": "A named mistake must fall outside the tolerance on at least 95% of seeds, or "
    "the part marks that mistake correct.",
    "stated-inputs": "Every figure a key depends on must be in the question, or declared under "
    "`assumed:` so that the page links to its catalogue sheet.",
    "physical-bounds": "A premise must be physically possible: efficiencies at most 100%, no "
    "link faster than it is.",
    "prose": "Rendered text must read well: no doubled words, '1 GPUs', '(s)', or a unit "
    "repeated after a number that carries it.",
    "model-answer": "The model answer, trade-offs and follow-ups must render for every variant, "
    "and every number in them must be the variant's (a placeholder), not a stray constant.",
    "constraints": "Every listed parameter value must be drawable: a constraint that always "
    "rejects it makes the list say something the scenario never does.",
}

# Catalogue figures a learner reads off a format's name (BF16 is 16 bits) when it has no block
# scales; a block-scaled format's bits (NVFP4: 4.5) must be stated.
_NAMED_BY_FORMAT = frozenset({"element_bits", "bits_per_element", "bytes_per_element"})
_NOT_FIGURES = frozenset({"key", "name", "source"})
# Figures a learner has as soon as they have another one: per-direction link bandwidth is half
# the datasheet figure, bits are eight times bytes, a price per second is the hourly one / 3,600.
_SAME_FIGURE = {
    "interconnect_bandwidth_per_direction": "interconnect_bandwidth",
    "bits_per_element": "bytes_per_element",
    "price_per_second_default": "price_per_hour_default",
    "price_per_second_low": "price_per_hour_low",
    "price_per_second_high": "price_per_hour_high",
}
# Figures a learner computes from others that are shown: a block-scaled format's bits per
# element are its element bits plus its scale bits over its block size.
_COMPUTED_FROM = {"bytes_per_element": ("element_bits", "block_size", "scale_bits")}
# Figures that equal another one unless the model has the feature that sets them apart
# (sliding-window layers, MLA's separate head widths, an FP16 peak unlike the BF16 one).
_EQUAL_FIGURE = {
    "full_attention_layers": "layers",
    "qk_head_dim": "head_dim",
    "v_head_dim": "head_dim",
    "fp16_flops": "bf16_flops",
    "element_bits": "bits_per_element",
}
_POOLED_LINK_FIELDS = frozenset({"interconnect_bandwidth", "interconnect_bandwidth_per_direction"})
# Name words that mark a value as a share of a whole: it lies in [0, 1].
_FRACTION_WORDS = frozenset(
    {
        "mfu",
        "mbu",
        "efficiency",
        "utilisation",
        "utilization",
        "util",
        "occupancy",
        "hit",
        "acceptance",
    }
)
# Registered functions whose result is a share of a whole, by a word of their name.
_SHARE_FUNCTION_WORDS = ("utilization", "utilisation", "fraction", "hit_rate", "attainment")
# Registered functions that return a count rounded up or down.
ROUNDING_FUNCTIONS = {
    "gpus_needed": "ceil",
    "kv_blocks": "ceil",
    "prefill_chunks": "ceil",
    "replicas_needed": "ceil",
    "headroom_replicas": "ceil",
    "canary_sample_size_proportions": "ceil",
    "canary_sample_size_means": "ceil",
    "admitted_sequences": "floor",
    "max_concurrent_sequences": "floor",
    "max_kv_tokens": "floor",
    "contiguous_sequences": "floor",
    "paged_sequences": "floor",
}

_DOUBLED = re.compile(r"\b([A-Za-z]+)\s+\1\b", re.IGNORECASE)
_MAYBE_PLURAL = re.compile(r"\w\(s\)")
_NOT_PLURALS = frozenset(
    {"is", "was", "has", "this", "its", "plus", "less", "bus", "class", "process", "bias"}
    | {"alias", "basis", "thus", "us", "ms", "ns", "tps", "rps", "bps", "flops", "focus"}
    | {"gains", "pass", "loss", "miss", "hits", "status", "across", "versus", "minus"}
)


class Linter:
    """Collects the linter's findings over the seeds of one `check_scenario` run."""

    def __init__(self, scenario: Scenario, report: "_Report", seeds: int) -> None:
        self.scenario = scenario
        self.report = report
        self.seeds = seeds
        self.drawn = 0
        self.parts = scenario.parts
        self._part = {part.key: part for part in scenario.parts}
        self._derived = {item.name: item.formula for item in scenario.derived}
        self._given = {item.name for item in scenario.given}
        self._params = {param.name: param for param in scenario.params}
        self._order = [
            (item.name, item.formula) for kind, item in scenario.plan if kind == "derived"
        ]
        self._order += [(part.key, part.answer) for part in scenario.parts]
        self._kinds = {
            **{p.name: (p.kind if p.is_catalogue else NUMBER) for p in scenario.params},
            **dict.fromkeys(self._given, NUMBER),
            **dict.fromkeys(self._derived, NUMBER),
            **dict.fromkeys(self._part, NUMBER),
        }
        self._closures: dict[frozenset, frozenset] = {}
        self._tolerances = self._derived_tolerances()
        self._probes = {part.key: self._rounding_probes(part) for part in scenario.parts}
        self._results = [_result_flags(step) for step in scenario.steps]
        self._step_formats: dict[str, tuple[Placeholder, UnitSpec | None] | None] = {}
        self._mistakes: dict[tuple[str, str], list] = {}  # (part, tag) -> [distinct, seed, origin]
        self.coincide: dict[tuple[str, str], int] = {}
        self.collide: dict[tuple[str, str, str], int] = {}
        self._shown_names, self._shown_fields = self._shown()
        self._traced_tuples: set = set()
        self._needs: dict[tuple, dict] = {}  # (param, field) -> {"parts", "seed", "entries"}
        self._fraction_names = self._fraction_values()
        self._pooled_reads = self._pooled_link_reads()
        self._prose_every = max(1, seeds // PROSE_SEEDS)

    # The run.

    def visit(self, variant: "Variant", seed: int, steps: list) -> None:
        """Check one drawn variant; `steps` holds each step's (text, records), or None."""
        self.drawn += 1
        self._learners(variant, seed, steps)
        self._step_arithmetic(variant, seed, steps)
        self._mistake_rates(variant, seed)
        self._trace(variant, seed)
        self._bounds(variant, seed)
        if seed % self._prose_every == 0:
            self._prose(variant, seed, steps)

    def finish(self) -> dict:
        """Rates and audits over all seeds: the report's extra fields (none when no seed drew a
        variant: the draw errors say what to fix first)."""
        if not self.drawn:
            return {"mistakes": [], "constraints": []}
        mistakes = []
        for (part, tag), (distinct, seed, origin, applied) in self._mistakes.items():
            rate = distinct / max(applied, 1)
            mistakes.append(
                {"part": part, "tag": tag, "origin": origin, "distinct": rate, "seeds": applied}
            )
            if applied and rate < MIN_DISTINCT:
                what = _ORIGIN_WORDS.get(origin, "misconception")
                self._error(
                    seed,
                    part,
                    "mistakes",
                    f"{what} '{tag}' falls within the tolerance of the key on "
                    f"{1 - rate:.1%} of {applied} seeds (it must stay outside on at least "
                    f"{MIN_DISTINCT:.0%}): the part would mark that mistake correct, or it is no "
                    "mistake on those variants. Tighten the tolerance, or make the draws tell it "
                    "from the key",
                    ("mistakes", part, tag),
                )
        self._stated_inputs()
        constraints = self._audit_constraints()
        return {"mistakes": mistakes, "constraints": constraints}

    # Reporting.

    def _error(
        self,
        seed: int | None,
        part: str | None,
        check: str,
        message: str,
        category: object,
    ) -> None:
        self.report.error(seed, part, message, category=category, check=check)

    # 1. The rounded learner.

    def _learners(self, variant: "Variant", seed: int, steps: Sequence[RenderedStep]) -> None:
        env = variant.env
        for mode in ("3 significant figures", "the worked steps' precision"):
            carried: dict[str, float] = {}
            failed: set[str] = set()
            for part in self.parts:
                if part.uses:
                    local = dict(env)
                    local.update({name: carried[name] for name in part.uses})
                    try:
                        raw = part.answer.evaluate(local)
                    except FormulaError:
                        failed.add(part.key)
                        carried[part.key] = env[part.key]
                        continue
                else:
                    raw = env[part.key]
                typed = self._typed(part, raw, mode, steps)
                key = part.unit.from_base(env[part.key])
                if failed & set(part.uses):
                    failed.add(part.key)  # built on a wrong answer: error carried forward
                elif not part.tolerance.accepts(typed, key):
                    failed.add(part.key)
                    carried_text = ", ".join(
                        f"{name} = {_plain(self._part[name].unit.from_base(carried[name]))}"
                        for name in part.uses
                    )
                    self._error(
                        seed,
                        part.key,
                        "rounded-learner",
                        f"a learner who carries {mode} types {_plain(typed)} "
                        f"{part.unit.text}".rstrip()
                        + f"{' (from ' + carried_text + ')' if carried_text else ''}, which "
                        f"is not accepted: the key is {_plain(key)} {part.unit.text}, "
                        f"{part.tolerance.describe()}. Widen the tolerance or show the "
                        "earlier numbers to more figures",
                        ("rounded-learner", part.key, mode),
                    )
                carried[part.key] = part.unit.to_base(typed)

    def _typed(
        self,
        part: Part,
        raw_base: float,
        mode: str,
        steps: Sequence[RenderedStep],
    ) -> float:
        """What the learner types for a part, in the part's unit."""
        value = part.unit.from_base(raw_base)
        if mode.startswith("3"):
            return _rounded(value, LEARNER_FIGURES)
        shown = self._step_format(part, steps)
        if shown is None:
            return _rounded(value, LEARNER_FIGURES)
        placeholder, unit = shown
        if placeholder.exact:
            return value
        in_display = raw_base / unit.factor if unit is not None else raw_base
        if placeholder.decimals is not None:
            rounded = float(round_decimals(in_display, placeholder.decimals))
        else:
            rounded = _rounded(in_display, placeholder.significant or LEARNER_FIGURES)
        return part.unit.from_base(rounded * unit.factor if unit is not None else rounded)

    def _step_format(
        self,
        part: Part,
        steps: Sequence[RenderedStep],
    ) -> tuple[Placeholder, UnitSpec | None] | None:
        """The placeholder (and unit) the worked steps conclude a part with."""
        if part.key in self._step_formats:
            return self._step_formats[part.key]
        found = None
        for step, rendered in zip(self.scenario.steps, steps, strict=True):
            if step.concludes != part.key or rendered is None:
                continue
            numeric = [r for r in rendered[1] if r.number_text is not None]
            if numeric:
                found = (numeric[-1].placeholder, numeric[-1].unit)
        self._step_formats[part.key] = found
        return found

    # 2. Worked-step arithmetic on displayed operands.

    def _step_arithmetic(
        self,
        variant: "Variant",
        seed: int,
        steps: Sequence[RenderedStep],
    ) -> None:
        env = variant.env
        shown: dict[str, float] = {}
        for index, rendered in enumerate(steps):
            if rendered is None:
                continue
            flags = self._results[index]
            for position, record in enumerate(rendered[1]):
                if record.number_text is None or not isinstance(record.value, (int, float)):
                    continue
                value = _shown_base(record)
                if value is None:
                    continue
                if flags[position]:
                    self._check_result(variant, seed, index, record, value, shown)
                name = record.placeholder.name
                if name is not None and name in env and isinstance(env[name], (int, float)):
                    shown[name] = value

    def _check_result(
        self,
        variant: "Variant",
        seed: int,
        index: int,
        record: Rendered,
        displayed: float,
        shown: Mapping[str, float],
    ) -> None:
        env = variant.env
        placeholder = record.placeholder
        depends = self._closure(placeholder.formula.names)
        overrides = {
            name: value
            for name, value in shown.items()
            if name in depends
            and name != placeholder.name
            and not math.isclose(value, env[name], rel_tol=1e-9, abs_tol=1e-300)
        }
        if not overrides:
            return
        try:
            local = self._recompute(env, overrides)
            redone = placeholder.formula.evaluate(local)
        except FormulaError:
            return
        if not isinstance(redone, (int, float)):
            return
        step = self.scenario.steps[index]
        part = self._part.get(placeholder.name or "") or (
            self._part.get(step.concludes or "") if placeholder is _last(step) else None
        )
        if part is not None:
            tolerance, unit = part.tolerance, part.unit
        else:
            # An intermediate value: held to its parts' tolerance (a derived value), or the
            # relative tolerance of the part the step concludes (an expression), in base units.
            concluded = self._part.get(step.concludes or "")
            fallback = (
                Tolerance(relative=concluded.tolerance.relative or 0.01)
                if concluded
                else Tolerance()
            )
            tolerance = self._tolerances.get(placeholder.name or "", fallback)
            unit = display_unit("")
        if tolerance.accepts(unit.from_base(redone), unit.from_base(displayed)):
            return
        unit = unit if part is not None else (record.unit or display_unit(""))
        operands = ", ".join(
            f"{name} = {_plain(_display_of(name, value, variant))}"
            for name, value in sorted(overrides.items())
        )
        self._error(
            seed,
            part.key if part is not None else step.concludes,
            "step-arithmetic",
            f"steps[{index}] shows {{{placeholder.source}}} as '{record.text}', but redone on "
            f"the numbers the steps show ({operands}) it comes to "
            f"{_plain(unit.from_base(redone))} {unit.text}".rstrip()
            + f", outside {tolerance.describe()}. Show the operands to more figures, or let "
            "the step say it uses unrounded values",
            ("step-arithmetic", index, placeholder.source),
        )

    def _closure(self, names: frozenset) -> frozenset:
        """`names` and every derived value and part they are computed from (not given values,
        which are shown as they are used)."""
        cached = self._closures.get(names)
        if cached is not None:
            return cached
        seen: set[str] = set()
        stack = list(names)
        while stack:
            name = stack.pop()
            if name in seen:
                continue
            seen.add(name)
            formula = self._derived.get(name)
            if formula is None and name in self._part:
                formula = self._part[name].answer
            if formula is not None:
                stack.extend(formula.names)
        result = frozenset(seen)
        self._closures[names] = result
        return result

    def _derived_closure(self, names: Iterable[str]) -> set[str]:
        """The derived values `names` are computed from, not looking through earlier parts."""
        seen: set[str] = set()
        stack = [name for name in names if name in self._derived]
        while stack:
            name = stack.pop()
            if name not in seen:
                seen.add(name)
                stack.extend(n for n in self._derived[name].names if n in self._derived)
        return seen

    def _recompute(self, env: Mapping, overrides: dict) -> dict:
        """`env` with `overrides` and every derived value and key computed from them redone."""
        local = dict(env)
        local.update(overrides)
        changed = set(overrides)
        for name, formula in self._order:
            if name not in overrides and formula.names & changed:
                local[name] = formula.evaluate(local)
                changed.add(name)
        return local

    def _derived_tolerances(self) -> dict[str, Tolerance]:
        """For each derived value, the tolerance of the parts built on it, in base units: the
        tightest relative one, or where they have only absolute ones (a count, a probability
        within ±0.01) the tightest of those."""
        relative: dict[str, float] = {}
        absolute: dict[str, float] = {}
        for part in self.parts:
            for name in self._closure(part.answer.names):
                if name not in self._derived:
                    continue
                if part.tolerance.relative:
                    relative[name] = min(relative.get(name, 1.0), part.tolerance.relative)
                elif part.tolerance.absolute:
                    width = part.tolerance.absolute * part.unit.factor
                    absolute[name] = min(absolute.get(name, math.inf), width)
        tolerances = {}
        for name in self._derived:
            if name in relative:
                tolerances[name] = Tolerance(relative=relative[name])
            elif name in absolute:
                tolerances[name] = Tolerance(relative=0.0, absolute=absolute[name])
        return tolerances

    # 3. Mistakes stay mistakes.

    def _mistake_rates(self, variant: "Variant", seed: int) -> None:
        env = variant.env
        for part in self.parts:
            key = variant.answer(part.key)
            width = part.tolerance.half_width(key)
            key_base = variant.answer_values[part.key]
            seen: list[tuple[str, float]] = []
            for misconception in part.misconceptions:
                try:
                    values, local = misconception.values(env, key_base)
                    misconception.feedback.render(local, variant.displays)
                except FormulaError as error:
                    self.report.error(
                        seed,
                        part.key,
                        f"misconception '{misconception.tag}': {error.message}",
                        category=("misconception", misconception.tag),
                        check="misconception",
                    )
                    continue
                shown = [part.unit.from_base(value) for value in values]
                coincides = any(abs(value - key) <= width for value in shown)
                self._count(part.key, misconception.tag, misconception.origin, coincides, seed)
                if coincides:
                    pair = (part.key, misconception.tag)
                    self.coincide[pair] = self.coincide.get(pair, 0) + 1
                    continue
                if misconception.origin == "unit":
                    continue  # listed after the explicit ones, so they win where it coincides
                for value in shown:
                    for other_tag, other in seen:
                        if other_tag != misconception.tag and part.tolerance.accepts(value, other):
                            pair3 = (part.key, other_tag, misconception.tag)
                            self.collide[pair3] = self.collide.get(pair3, 0) + 1
                    seen.append((misconception.tag, value))
            for tag, container, alternative in self._probes[part.key]:
                try:
                    value = alternative.evaluate(env)
                    if value == env[container]:
                        continue  # the rounded value was whole: no opposite rounding here
                    if container != part.key:
                        value = self._recompute(env, {container: value})[part.key]
                except FormulaError:
                    continue
                moved = abs(part.unit.from_base(value) - key)
                if moved == 0 or (
                    not part.tolerance.absolute and moved <= ROUNDING_NOISE * abs(key)
                ):
                    continue  # no mistake here: the key does not move, or less than 3 s.f. show
                coincides = moved <= width
                self._count(part.key, tag, "rounding", coincides, seed)
            if part.unit.is_percent:
                for tag, value in (("complement", 1 - key_base), ("all-of-it", 1.0)):
                    coincides = abs(part.unit.from_base(value) - key) <= width
                    self._count(part.key, tag, "complement", coincides, seed)

    def _count(self, part: str, tag: str, origin: str, coincides: bool, seed: int) -> None:
        entry = self._mistakes.get((part, tag))
        if entry is None:
            entry = self._mistakes[(part, tag)] = [0, None, origin, 0]
        entry[3] += 1
        if coincides:
            if entry[1] is None:
                entry[1] = seed
        else:
            entry[0] += 1

    def _rounding_probes(self, part: Part) -> list[tuple[str, str, Formula]]:
        """(tag, formula's name, formula with one rounding reversed) for every floor/ceil in the
        part's key or the derived values it is computed from."""
        probes = []
        # Roundings in the part's own key and the derived values it reads directly (an earlier
        # part's rounding is that part's mistake, carried forward).
        containers = [part.key] + sorted(self._derived_closure(part.answer.names))
        for container in containers:
            formula = part.answer if container == part.key else self._derived[container]
            tree = ast.parse(formula.source, mode="eval")
            sites = [node for node in ast.walk(tree) if _rounding(node)]
            for number, site in enumerate(sites):
                swapped = _swap_rounding(formula.source, number)
                try:
                    alternative = compile_formula(swapped, self._kinds, self.scenario.catalogue)
                except FormulaError:
                    continue
                where = "" if container == part.key else f" in '{container}'"
                label = ast.get_source_segment(formula.source, site) or formula.source
                tag = f"opposite-rounding of {_short(label)}{where}"
                probes.append((tag, container, alternative))
        return probes

    # 4. Stated inputs.

    def _shown(self) -> tuple[set[str], set[tuple[str, str]]]:
        names: set[str] = set()
        fields: set[tuple[str, str]] = set()
        templates = [self.scenario.text] + [part.prompt for part in self.parts]
        for template in templates:
            for placeholder in template.placeholders:
                names |= placeholder.formula.names
                fields |= {
                    (param, _SAME_FIGURE.get(field, field))
                    for param, field in _attribute_reads(placeholder.formula.source)
                }
        return names, fields

    def _trace(self, variant: "Variant", seed: int) -> None:
        env = variant.env
        catalogue_params = [p.name for p in self.scenario.params if p.is_catalogue]
        entries = tuple(getattr(env[name], "key", id(env[name])) for name in catalogue_params)
        if entries in self._traced_tuples:
            return
        self._traced_tuples.add(entries)
        log: set = set()
        local = dict(env)
        for name in catalogue_params:
            local[name] = _traced(env[name], name, log)
        # A placeholder in the question that computes from the entry shows what it reads
        # ({peak_flops(gpu, weight_format):TFLOPS} shows the peak of the format used).
        for template in [self.scenario.text] + [part.prompt for part in self.parts]:
            for placeholder in template.placeholders:
                log.clear()
                try:
                    placeholder.formula.evaluate(local)
                except EngineError:
                    continue
                self._shown_fields |= {
                    (param, _canonical(env[param], field)) for param, field in log if param in env
                }
        reads: dict[str, set] = {}
        for name, formula in self._order:
            log.clear()
            try:
                formula.evaluate(local)
            except EngineError:
                continue
            reads[name] = set(log)
        for part in self.parts:
            needed: set = set()
            for name in self._closure(part.answer.names | {part.key}):
                if name == part.key or name in self._derived:
                    needed |= reads.get(name, set())
            for param, field in needed:
                entry = env[param]
                if field in _NOT_FIGURES or field not in self.scenario.catalogue.fields.get(
                    type(entry), ()
                ):
                    continue
                value = getattr(entry, field, None)
                if not value or isinstance(value, str):
                    continue  # a zero marks a feature the entry lacks (no MLA, no FP4)
                field = _canonical(entry, field)
                record = self._needs.setdefault(
                    (param, field), {"parts": [], "seed": seed, "entries": {}}
                )
                if part.key not in record["parts"]:
                    record["parts"].append(part.key)
                record["entries"][getattr(entry, "key", str(entry))] = entry

    def _stated_inputs(self) -> None:
        assumed = {
            (param, _SAME_FIGURE.get(field, field) if field else None)
            for param, field in self.scenario.assumed
        }
        used_assumptions: set = set()
        shown_names = self._shown_names
        # Parameters and given values the keys are computed from must be on the page.
        for part in self.parts:
            for name in sorted(self._closure(part.answer.names)):
                drawn = self._params.get(name)
                if name in self._given or (drawn is not None and not drawn.is_catalogue):
                    if name not in shown_names:
                        what = "given value" if name in self._given else "parameter"
                        self._error(
                            0,
                            part.key,
                            "stated-inputs",
                            f"the key depends on the {what} '{name}', which the question and "
                            f"prompts never show: show {{{name}}} in the text",
                            ("stated-inputs", name),
                        )
        for (param, field), record in sorted(self._needs.items()):
            if (param, field) in self._shown_fields:
                continue
            if (param, field) in assumed or (param, None) in assumed:
                used_assumptions.add((param, field) if (param, field) in assumed else (param, None))
                continue
            entries = list(record["entries"].values())
            sources = _COMPUTED_FROM.get(field, ())
            if sources and all((param, source) in self._shown_fields for source in sources):
                continue
            if (
                field in _NAMED_BY_FORMAT
                and param in shown_names
                and all(not getattr(entry, "block_size", 0) for entry in entries)
            ):
                continue
            catalogue = self.scenario.catalogue
            values = ", ".join(
                f"{getattr(entry, 'name', key)}: {figure_text(catalogue, entry, field)}"
                for key, entry in list(record["entries"].items())[:3]
            )
            unit = catalogue.units.get(type(entries[0]), {}).get(field, "")
            unit = f":{unit}" if unit else ""
            parts = record["parts"]
            others = f" (and {len(parts) - 1} more)" if len(parts) > 1 else ""
            self._error(
                record["seed"],
                parts[0],
                "stated-inputs",
                f"the key{others} depends on {param}.{field} ({values}), which the question "
                f"does not show: show it ({{{param}.{field}{unit}}}) or declare it under "
                "`assumed:` so that the page links to the catalogue sheet",
                ("stated-inputs", param, field),
            )
        for param, field in sorted(assumed - used_assumptions, key=str):
            if field is None and any(p == param for p, _ in self._needs):
                continue
            self.report.warnings.append(
                f"assumed: {param}{'.' + field if field else ''} is declared but no key depends "
                "on it; remove it"
            )

    # 5. Physical bounds.

    def _fraction_values(self) -> list[str]:
        names = []
        candidates = list(self._params) + sorted(self._given) + list(self._derived)
        candidates += [part.key for part in self.parts]
        for name in candidates:
            param = self._params.get(name)
            if param is not None and param.is_catalogue:
                continue
            if _FRACTION_WORDS & set(name.lower().split("_")) or self._shares(name):
                names.append(name)
        return names

    def _shares(self, name: str) -> bool:
        """Whether a value is a registered function's share of a whole (a utilisation, a hit
        rate, an attainment, a fraction), so the estimator's limits bound it to [0, 1]."""
        formula = self._derived.get(name)
        if formula is None and name in self._part:
            formula = self._part[name].answer
        if formula is None:
            formula = next((g.formula for g in self.scenario.given if g.name == name), None)
        if formula is None:
            return False
        try:
            body = ast.parse(formula.source, mode="eval").body
        except SyntaxError:
            return False
        return (
            isinstance(body, ast.Call)
            and isinstance(body.func, ast.Name)
            and any(word in body.func.id for word in _SHARE_FUNCTION_WORDS)
        )

    def _pooled_link_reads(self) -> list[tuple[str, str, str]]:
        """(where, parameter, field): formulas that compute with a GPU's pooled link figure."""
        found = []
        formulas = [(f"given '{g.name}'", g.formula) for g in self.scenario.given]
        formulas += [(f"derived '{name}'", formula) for name, formula in self._derived.items()]
        formulas += [(f"part '{p.key}'", p.answer) for p in self.parts]
        for where, formula in formulas:
            for param, field in _attribute_reads(formula.source):
                if field in _POOLED_LINK_FIELDS:
                    found.append((where, param, field))
        return found

    def _bounds(self, variant: "Variant", seed: int) -> None:
        env = variant.env
        for name in self._fraction_names:
            value = env.get(name)
            if isinstance(value, (int, float)) and not 0 <= value <= 1 + 1e-12:
                self._error(
                    seed,
                    name if name in self._part else None,
                    "physical-bounds",
                    f"'{name}' is {value:.4g} ({value:.1%}): a utilisation, efficiency or hit "
                    "rate lies between 0 and 100%",
                    ("physical-bounds", name),
                )
        for where, param, field in self._pooled_reads:
            gpu = env.get(param)
            links = getattr(gpu, "interconnect_links", 0)
            if links:
                self._error(
                    seed,
                    None,
                    "physical-bounds",
                    f"{where} computes with {param}.{field} of the "
                    f"{getattr(gpu, 'name', param)}, whose figure adds {links} links that do "
                    "not pool: a collective among p GPUs gets only "
                    "their p − 1 links (a pair shares one). Use "
                    "collective_bandwidth_per_direction(gpu, gpus)",
                    ("physical-bounds", where, field),
                )

    # 6. Prose.

    def _prose(self, variant: "Variant", seed: int, steps: Sequence[RenderedStep]) -> None:
        env, displays = variant.env, variant.displays
        scenario = self.scenario
        texts: list[tuple[str, str | None, Template]] = [("text", None, scenario.text)]
        texts += [(f"prompt of part '{p.key}'", p.key, p.prompt) for p in self.parts]
        for where, part_key, template in texts:
            self._read_template(seed, where, part_key, template, env, displays)
        for index, rendered in enumerate(steps):
            if rendered is not None:
                self._read(seed, f"steps[{index}]", None, rendered[0], rendered[1])
        graded = seed < GRADED_PROSE_SEEDS * self._prose_every
        for part in self.parts:
            key_base = variant.answer_values[part.key]
            typed = [variant.key_text(part.key)] if graded else []
            for misconception in part.misconceptions:
                try:
                    values, local = misconception.values(env, key_base)
                except FormulaError:
                    continue
                where = f"feedback of '{misconception.tag}'"
                self._read_template(seed, where, part.key, misconception.feedback, local, displays)
                if graded:
                    typed += [repr(part.unit.from_base(value)) for value in values[:1]]
            for text in typed:
                try:
                    message = grade_part(variant, part.key, text).message
                except EngineError:
                    continue
                self._read(seed, "a grading message", part.key, message, [])

    def _read_template(
        self,
        seed: int,
        where: str,
        part: str | None,
        template: Template,
        env: Mapping[str, Any],
        displays: Mapping[str, Display],
    ) -> None:
        try:
            text, records = template.render_parts(env, displays)
        except FormulaError:
            return
        self._read(seed, where, part, text, records, template)

    def _read(
        self,
        seed: int,
        where: str,
        part: str | None,
        text: str,
        records: Sequence[Rendered],
        template: Template | None = None,
    ) -> None:
        problems = []
        doubled = _DOUBLED.search(text)
        if doubled:
            problems.append(("doubled", f"the word '{doubled[1]}' twice in a row"))
        if _MAYBE_PLURAL.search(text):
            problems.append(("(s)", "'(s)' where the count is known: write the form it needs"))
        if template is not None:
            plural = _one_plural(template, records)
            if plural:
                problems.append(("plural", plural))
            repeated = _repeated_unit(template, records)
            if repeated:
                problems.append(("unit", repeated))
        for kind, problem in problems:
            excerpt = _excerpt(text, problem)
            self._error(
                seed,
                part,
                "prose",
                f"{where} reads badly: {problem} ({excerpt})",
                ("prose", where, kind),
            )

    # 7. The constraints audit.

    def _audit_constraints(self) -> list[dict]:
        scenario = self.scenario
        if not scenario.constraints and not scenario.params:
            return []
        from .variant import _draw_params  # noqa: PLC0415 - the draw itself, shared

        listed = [
            param
            for param in scenario.params
            if param.space != "value" and (param.count() or MAX_LISTED + 1) <= MAX_LISTED
        ]
        draws = []  # (values of the listed parameters, results per constraint)
        for seed in range(min(self.seeds, AUDIT_DRAWS)):
            env, displays = _draw_params(scenario, seed, 0)
            results = self._constraint_results(env, displays)
            draws.append((tuple(_value_key(env[p.name]) for p in listed), results))
        total = len(draws)
        audit: list[dict[str, Any]] = []
        accepted = [all(r is True for r in results) for _, results in draws]
        for constraint in scenario.constraints:
            rejected = sum(1 for _, results in draws if results[constraint.index] is not True)
            audit.append(
                {
                    "index": constraint.index,
                    "formula": constraint.formula.source,
                    "message": constraint.message,
                    "rejects": rejected / total if total else 0.0,
                    "never": [],
                }
            )
        by_index = {entry["index"]: entry for entry in audit}
        # Listed values the constraints never let through (not worth asking where the
        # constraints accept so little that the acceptance check fails anyway).
        rate = sum(accepted) / max(total, 1)
        for position, param in enumerate(listed if rate >= MIN_AUDITED_ACCEPTANCE else ()):
            seen = {values[position] for (values, _), ok in zip(draws, accepted, strict=True) if ok}
            for value in _listed_values(param):
                if _value_key(param.to_base(value)) in seen:
                    continue
                if self._drawable_with(param, value):
                    continue
                worst = self._worst_constraint(draws, position, _value_key(param.to_base(value)))
                blame = (
                    f" (constraint {worst}, '{scenario.constraints[worst].message}', rejects it)"
                    if worst is not None
                    else ""
                )
                self._error(
                    None,
                    None,
                    "constraints",
                    f"parameter '{param.name}' lists {_value_text(param, value)}, but the "
                    f"constraints never let it through{blame}: remove it from the list or "
                    "relax the constraint",
                    ("constraints", param.name, _value_key(param.to_base(value))),
                )
        # Pairs of listed values that are drawn often enough but never together.
        small = [i for i, param in enumerate(listed) if (param.count() or 0) <= MAX_PAIRED]
        small = small[:MAX_PAIRED]
        # Enough raw draws of a pair that, at the overall acceptance, five would be accepted.
        enough = max(MIN_PAIR_DRAWS, 5 * total / max(sum(accepted), 1))
        for first in small:
            for second in (i for i in small if i > first):
                # (first's value, second's value) -> [draws, accepted, {constraint: rejections}]
                pairs: dict[tuple[object, object], list[Any]] = {}
                for (values, results), ok in zip(draws, accepted, strict=True):
                    pair = (values[first], values[second])
                    tally = pairs.setdefault(pair, [0, 0, {}])
                    tally[0] += 1
                    tally[1] += ok
                    if not ok:
                        blamed = next(
                            (c.index for c in scenario.constraints if results[c.index] is False),
                            None,
                        )
                        tally[2][blamed] = tally[2].get(blamed, 0) + 1
                for (a, b), (raw, ok, blamed) in pairs.items():
                    if ok or raw < enough:
                        continue
                    worst = max(blamed, key=blamed.__getitem__)
                    if worst in by_index:
                        by_index[worst]["never"].append(
                            f"{listed[first].name}={_key_text(listed[first], a)} with "
                            f"{listed[second].name}={_key_text(listed[second], b)}"
                        )
        for entry in audit:
            entry["never"] = entry["never"][:MAX_PAIRS_SHOWN]
        return audit

    def _constraint_results(self, env: dict, displays: dict) -> list:
        """Each constraint's verdict on a draw (None where a formula it needs failed)."""
        from .variant import _evaluate  # noqa: PLC0415

        results: list = [None] * len(self.scenario.constraints)
        for kind, item in self.scenario.plan:
            try:
                if kind == "constraint":
                    results[item.index] = bool(item.formula.evaluate(env))
                elif kind == "given":
                    value = _evaluate(item.formula, env, item.name)
                    shown = as_number(
                        round_significant(in_unit(value, item.unit.factor), item.significant)
                    )
                    displays[item.name] = Display(shown, item.unit)
                    env[item.name] = item.unit.to_base(shown) if item.unit.factor != 1 else shown
                else:
                    env[item.name] = _evaluate(item.formula, env, item.name)
            except FormulaError:
                continue
        return results

    def _drawable_with(self, param: Param, value: Any) -> bool:
        from .variant import _draw_params  # noqa: PLC0415

        for attempt in range(AUDIT_RETRIES):
            env, displays = _draw_params(self.scenario, 10**9 + attempt, 0)
            env[param.name] = param.to_base(value)
            displays[param.name] = Display(value, param.unit)
            if all(r is True for r in self._constraint_results(env, displays)):
                return True
        return False

    def _worst_constraint(
        self,
        draws: Sequence[tuple[tuple[Any, ...], list[bool | None]]],
        position: int,
        value_key: object,
    ) -> int | None:
        counts: dict[int, int] = {}
        for values, results in draws:
            if values[position] != value_key:
                continue
            for constraint in self.scenario.constraints:
                if results[constraint.index] is not True:
                    counts[constraint.index] = counts.get(constraint.index, 0) + 1
        return max(counts, key=counts.__getitem__) if counts else None


_ORIGIN_WORDS = {
    "part": "misconception",
    "library": "misconception",
    "unit": "the automatic misconception",
    "rounding": "the",
    "complement": "the share's",
}


# Helpers.


def _canonical(entry: object, field: str) -> str:
    """The figure a learner needs for `field` of `entry` (see _SAME_FIGURE, _EQUAL_FIGURE)."""
    field = _SAME_FIGURE.get(field, field)
    other = _EQUAL_FIGURE.get(field)
    if other is not None and getattr(entry, field, None) == getattr(entry, other, None):
        return _SAME_FIGURE.get(other, other)
    return field


def _rounded(value: float, figures: int) -> float:
    """`value` as a learner writes it: whole numbers in full, others to `figures` figures,
    rounded half up as people round (144.5 -> 145)."""
    if value == 0 or not math.isfinite(value):
        return value
    if value == int(value) and abs(value) < 1e15:
        return value
    return float(round_significant(value, figures))


def _plain(value: float) -> str:
    try:
        return format_number(value)
    except ValueError:
        return repr(value)


def _shown_base(record: Rendered) -> float | None:
    """The value a rendered number shows, in base units."""
    text = record.number_text
    if text is None:
        return None
    try:
        number = float(text.replace(",", "")) if "×" not in text else parse_answer(text, "")
    except (ValueError, ParseError):
        return None
    unit = record.unit
    return number * unit.factor if unit is not None and unit.text else number


def _display_of(name: str, value: Any, variant: "Variant") -> float:
    display = variant.displays.get(name)
    unit = display.unit if display is not None else None
    return value / unit.factor if unit is not None and unit.text else value


def _result_flags(step: Step) -> list[bool]:
    """For each placeholder of a step: whether it is a result (after '=', or the number that
    concludes the step's part)."""
    flags = []
    before = ""
    segments = step.text.segments
    for segment in segments:
        if isinstance(segment, str):
            before = segment
            continue
        flags.append(before.rstrip().endswith("="))
        before = ""
    if step.concludes is not None and flags:
        flags[-1] = True
    return flags


def _last(step: Step) -> Placeholder | None:
    return step.text.placeholders[-1] if step.text.placeholders else None


def _rounding(node: ast.AST) -> bool:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv):
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and (node.func.id in ("ceil", "floor") or node.func.id in ROUNDING_FUNCTIONS)
    )


def _swap_rounding(source: str, number: int) -> str:
    """`source` with its `number`-th rounding reversed: ceil <-> floor, a registered count
    rounded up minus one (rounded down plus one), a // b -> ceil(a / b)."""
    tree = ast.parse(source, mode="eval")
    site = [node for node in ast.walk(tree) if _rounding(node)][number]

    class Swap(ast.NodeTransformer):
        def visit(self, node: ast.AST) -> ast.AST:
            if node is not site:
                return self.generic_visit(node)
            if isinstance(node, ast.BinOp):
                return ast.Call(
                    ast.Name("ceil", ast.Load()),
                    [ast.BinOp(node.left, ast.Div(), node.right)],
                    [],
                )
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                return node  # `_rounding` finds a // b (above) or a call by name, nothing else
            name = node.func.id
            if name in ("ceil", "floor"):
                node.func = ast.Name("floor" if name == "ceil" else "ceil", ast.Load())
                return node
            step = ast.Sub() if ROUNDING_FUNCTIONS[name] == "ceil" else ast.Add()
            return ast.BinOp(node, step, ast.Constant(1))

    return ast.unparse(ast.fix_missing_locations(Swap().visit(tree)))


def _short(source: str, limit: int = 60) -> str:
    return source if len(source) <= limit else source[: limit - 1] + "…"


def _attribute_reads(source: str) -> set[tuple[str, str]]:
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError:
        return set()
    return {
        (node.value.id, node.attr)
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
    }


_TRACED_CLASSES: dict[type, type] = {}


def _traced(entry: object, param: str, log: set) -> object:
    """A stand-in for a catalogue entry that records which fields are read, as (param, field),
    and otherwise behaves as the entry (isinstance, equality, hashing, `__class__`)."""
    cls = type(entry)
    traced_class = _TRACED_CLASSES.get(cls)
    if traced_class is None:

        def __getattribute__(self: object, name: str) -> object:  # noqa: N807
            if name == "__class__":
                return cls
            if name[:1] != "_":
                state = object.__getattribute__(self, "__dict__")
                state["_lint_log"].add((state["_lint_param"], name))
            return object.__getattribute__(self, name)

        traced_class = type(
            f"Traced{cls.__name__}",
            (cls,),
            {
                "__getattribute__": __getattribute__,
                "__eq__": lambda self, other: self._lint_entry == other,
                "__hash__": lambda self: hash(self._lint_entry),
                "__repr__": lambda self: repr(self._lint_entry),
            },
        )
        _TRACED_CLASSES[cls] = traced_class
    proxy: Any = object.__new__(traced_class)
    names = (
        [f.name for f in dataclasses.fields(entry)]
        if dataclasses.is_dataclass(entry)
        else list(vars(entry))
    )
    for name in names:
        object.__setattr__(proxy, name, getattr(entry, name))
    state = object.__getattribute__(proxy, "__dict__")
    state.update({"_lint_log": log, "_lint_param": param, "_lint_entry": entry})
    return proxy


@lru_cache(maxsize=4096)
def _unit_of_word(word: str) -> UnitSpec | None:
    """The unit a word names, or None (cached: a failed parse looks for suggestions)."""
    try:
        return parse_unit(word)
    except ParseError:
        return None


def _is_unit_symbol(word: str) -> bool:
    """A short unit symbol that ends in s but is no plural ("ms", "tps")."""
    return len(word) <= 3 and _unit_of_word(word) is not None


def _following(template: Template, records: Sequence[Rendered]) -> Iterator[tuple[Rendered, str]]:
    """Each rendered placeholder with the literal text that follows it."""
    position = 0
    segments = template.segments
    for index, segment in enumerate(segments):
        if isinstance(segment, str):
            continue
        record = records[position] if position < len(records) else None
        position += 1
        following = segments[index + 1] if index + 1 < len(segments) else ""
        if record is not None:
            yield record, following if isinstance(following, str) else ""


def _one_plural(template: Template, records: Sequence[Rendered]) -> str | None:
    """A number shown as 1 and followed by a plural ("1 replicas", "1 GPU(s)" aside)."""
    for record, following in _following(template, records):
        if record.number_text != "1":
            continue
        if record.text != "1":
            continue  # shown with its unit, which with_unit already puts in the singular
        match = re.match(r"\s+([A-Za-z][A-Za-z-]*)", following)
        word = match[1] if match else ""
        if _plural(word):
            return f"'1 {word}': one takes the singular"
    return None


def _plural(word: str) -> bool:
    return (
        len(word) > 3
        and word.endswith("s")
        and not word.endswith("ss")
        and word.lower() not in _NOT_PLURALS
        and not _is_unit_symbol(word)
    )


def _repeated_unit(template: Template, records: Sequence[Rendered]) -> str | None:
    """A number shown with its unit and followed by the unit's name again ("8,192 tokens
    tokens", "300 tokens output tokens")."""
    for record, following in _following(template, records):
        if record.unit is None or not record.unit.text or record.number_text is None:
            continue
        if record.placeholder.bare:
            continue
        for word in re.findall(r"[A-Za-z$%][A-Za-z/]*", following)[:2]:
            if _same_unit(word, record.unit):
                return f"'{record.text} … {word}' names the unit twice"
    return None


def _same_unit(word: str, unit: UnitSpec) -> bool:
    if unit.noun:
        from .units import same_noun  # noqa: PLC0415

        return same_noun(word, unit.noun)
    if not unit.dimensions:
        return False
    parsed = _unit_of_word(word)
    return (
        parsed is not None
        and parsed.dimensions == unit.dimensions
        and math.isclose(parsed.factor, unit.factor)
    )


def _excerpt(text: str, problem: str) -> str:
    quoted = re.search(r"'([^']+)'", problem)
    needle = quoted[1].split(" … ")[0] if quoted else ""
    start = text.find(needle) if needle else -1
    if start < 0:
        return f'"{_short(" ".join(text.split()), 80)}"'
    snippet = " ".join(text[max(0, start - 30) : start + len(needle) + 30].split())
    return f'"…{snippet}…"'


def _value_key(value: Any) -> object:
    return getattr(value, "key", None) or value


def _listed_values(param: Param) -> list:
    if param.space in ("gpu", "model", "format", "values"):
        return list(param.choices)
    return [param.draw(index) for index in range(param.count() or 0)]


def _value_text(param: Param, value: Any) -> str:
    name = getattr(value, "name", None)
    if name is not None:
        return name
    unit = param.unit
    number = format_number(value)
    return with_unit(number, unit) if unit is not None and unit.text else number


def _key_text(param: Param, key: Any) -> str:
    if param.is_catalogue:
        entry = next((c for c in param.choices if getattr(c, "key", None) == key), None)
        return getattr(entry, "name", str(key))
    value = key / param.unit.factor if param.unit is not None and param.unit.factor != 1 else key
    return _value_text(param, as_number(round_significant(value, 12)))
