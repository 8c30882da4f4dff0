"""`bank check` of the numbers in a solution's texts: the model answer, trade-offs, follow-ups
and self-check must state the variant's numbers, not a worked example's.

Rules, for each rendered text of each checked variant:

- Every text renders (its placeholders evaluate for the variant).
- A number written outside a placeholder is an error, unless it is 0, 1 or 2 (K and V, "two
  per layer", "1/2"), or part of a name: joined to letters or to another number by ``-``,
  ``_``, ``.``, ``:`` or ``/`` (H100, FP8, Llama-3-70B, top-2, 4-bit, p99, HTTP/2, 2:4, 7Nh).
  A number followed by a magnitude letter (32K, 70B, 1.5M) is a number. Everything else comes
  from the variant through a placeholder, or is written as a constant placeholder
  (``{15} minutes``, ``{0.85:%}``): a fact that holds for every variant, marked as deliberate.
- A constant placeholder must not contradict the variant: it is an error when the variant has a
  value of the same kind (the same physical dimension, or the same counted noun, never a bare
  share or ratio; the unit is the placeholder's, or the word that follows it), a part's key or a
  given value, within a factor of 10 of the constant but more than 1% away from it. That is how
  a stale example reads ("24 GPUs" beside a key of 26 GPUs); a constant of another order of
  magnitude, or of the kind of an input the variant draws (an idle timeout beside a check
  interval), is not confused with it.
"""

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from .errors import FormulaError, ParseError
from .templates import Placeholder, Rendered
from .units import UnitSpec, display_unit, parse_unit, same_noun

if TYPE_CHECKING:  # the check runs this module
    from .check import _Report
    from .variant import Variant

SMALL_NUMBERS = {0.0, 1.0, 2.0}
NEARBY_FACTOR = 10.0
SAME_VALUE = 0.01
_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_MAGNITUDES = "kKMBT"
_WORD = re.compile(r"\s*([A-Za-z$%×µ][A-Za-z/$%×µ-]*)")


def check_solution_numbers(variant: "Variant", seed: int, report: "_Report") -> None:
    """Report, through `report.error`, every text of `variant`'s solution that fails to render
    or states a number the module docstring does not allow."""
    for where, template in variant.scenario.solution.templates():
        try:
            _, records = template.render_parts(variant.env, variant.displays)
        except FormulaError as error:
            report.error(
                seed,
                None,
                f"{where}: {error.message}",
                category=("solution", where),
                check="model-answer",
            )
            continue
        rendered = iter(records)
        stray: list[str] = []
        for index, segment in enumerate(template.segments):
            if isinstance(segment, Placeholder):
                record = next(rendered)
                following = (
                    template.segments[index + 1] if index + 1 < len(template.segments) else ""
                )
                _check_constant(variant, where, record, following, seed, report)
            else:
                stray.extend(stray_numbers(segment))
        for number in dict.fromkeys(stray):
            example = number.replace(",", "") if number[-1].isdigit() else "15"
            report.error(
                seed,
                None,
                f"{where}: the number '{number}' is written out, so it is not the variant's: "
                "show the variant's value with a placeholder, or write a fact that holds for "
                f"every variant as a constant placeholder such as {{{example}}}",
                category=("stray-number", where, number),
                check="model-answer",
            )


def stray_numbers(text: str) -> list[str]:
    """The numbers in literal text that are neither small (0, 1, 2) nor part of a name."""
    return list(_stray_numbers(text))


@lru_cache(maxsize=4096)
def _stray_numbers(text: str) -> tuple[str, ...]:
    # A text's literal segments are the same for every seed: scan each once.
    found = []
    for match in _NUMBER.finditer(text):
        before, after = text[: match.start()], text[match.end() :]
        if _part_of_name(before, after):
            continue
        number = match.group()
        magnitude = after[:1] in _MAGNITUDES and not after[1:2].isalpha()
        if not magnitude and float(number.replace(",", "")) in SMALL_NUMBERS:
            continue
        found.append(number + (after[:1] if magnitude else ""))
    return tuple(found)


def _part_of_name(before: str, after: str) -> bool:
    previous, following = before[-1:], after[:1]
    if previous and (previous.isalnum() or previous in "_."):
        return True
    if previous in ("-", "/", ":") and before[-2:-1].isalnum():
        return True
    if following == "_" or (following == "-" and after[1:2].isalpha()):
        return True
    if following.isalpha():
        # 70B, 32K are amounts; 7Nh, 2nd, 4x4 are names.
        return not (following in _MAGNITUDES and not after[1:2].isalpha())
    return False


def _check_constant(
    variant: "Variant",
    where: str,
    record: Rendered,
    following: object,
    seed: int,
    report: "_Report",
) -> None:
    placeholder = record.placeholder
    if placeholder.formula.names or not isinstance(record.value, (int, float)):
        return
    unit = record.unit
    value = record.value
    if unit is None or not unit.text:
        unit = _unit_after(following)
        if unit is None:
            return
        value = unit.to_base(value)
    for name, other, other_unit in _values_of_the_variant(variant):
        if not _same_kind(unit, other_unit) or other == 0:
            continue
        ratio = value / other
        if 1 / NEARBY_FACTOR <= ratio <= NEARBY_FACTOR and abs(value - other) > SAME_VALUE * abs(
            other
        ):
            shown = f"{other_unit.from_base(other):.4g} {other_unit.text}".strip()
            report.error(
                seed,
                None,
                f"{where}: the constant {{{placeholder.source}}} ('{record.text}' "
                f"{unit.text}) is close to {name} ({shown}) but not equal to it, so it reads as "
                f"the answer of another variant: show {{{name}}} instead, or a constant of "
                "another kind",
                category=("contradicts", where, placeholder.source, name),
                check="model-answer",
            )
            return


def _unit_after(text: object) -> UnitSpec | None:
    """The unit a bare constant is counted in: the word right after it ("15 minutes")."""
    if not isinstance(text, str):
        return None
    match = _WORD.match(text)
    if not match:
        return None
    return _unit_of_word(match.group(1).rstrip("-"))


@lru_cache(maxsize=1024)
def _unit_of_word(word: str) -> UnitSpec | None:
    # Cached: a word that is no unit raises, and building its suggestion costs a difflib search.
    try:
        return parse_unit(word)
    except ParseError:
        try:
            return display_unit(word)
        except ParseError:
            return None


def _values_of_the_variant(variant: "Variant") -> Iterator[tuple[str, float, UnitSpec]]:
    """(name, value in base units, display unit) of the parts' keys and the given values: the
    numbers a worked example states. A drawn parameter is an input, and a constant of its kind
    is usually another quantity (an idle timeout beside a check interval)."""
    scenario = variant.scenario
    for part in scenario.parts:
        yield part.key, variant.answer_values[part.key], part.unit
    for given in scenario.given:
        yield given.name, variant.env[given.name], given.unit


def _same_kind(unit: UnitSpec, other: UnitSpec) -> bool:
    if unit.noun or other.noun:
        return bool(unit.noun and other.noun and same_noun(unit.noun, other.noun))
    # A share or a ratio (%, ×) says nothing of what it measures: "kernels 20% slower" beside
    # "82% of the memory wasted" is no contradiction. Only physical kinds and nouns are compared.
    return bool(unit.dimensions) and unit.dimensions == other.dimensions
