"""Grading typed answers: parse, compare within tolerance, match misconceptions, carry errors
forward.

Order of judgement for one part:
1. The answer is read (`read_answer`): an unreadable answer, or one that is right but written in
   a way the part does not read (`answers.reading_hint`: a fraction in a percentage box, tokens
   in a box in Mtok) and is no known mistake, is status "parse_error", score 0, no attempt
   charged.
2. Within tolerance of the key -> "correct".
3. The part builds on earlier parts the learner got wrong: within tolerance of the key
   recomputed with the learner's own earlier values -> "correct", `carried_forward` set, and the
   message says so (error carried forward).
4. Within tolerance of a misconception's value (one that does not itself coincide with the key
   for this variant) -> its tag and feedback; "partial" if also within the close band, else
   "incorrect".
5. Within `Partial.factor` times the tolerance -> "partial" with `Partial.score`.
6. Otherwise "incorrect".
"""

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .answers import read_answer_text, reading_hint
from .errors import FormulaError, ParseError
from .numbers import (
    as_number,
    format_number,
    round_down_significant,
    round_up_significant,
)
from .templates import with_unit
from .tolerance import Tolerance
from .units import UnitSpec

if TYPE_CHECKING:  # the variant grades with this module
    from .schema import Part, Scenario
    from .variant import Variant

CORRECT = "correct"
PARTIAL = "partial"
INCORRECT = "incorrect"
PARSE_ERROR = "parse_error"


@dataclass(frozen=True)
class GradeResult:
    """The verdict on one part.

    `value`, `key` and `interval` are in the part's unit; `key` is the true key even when the
    answer was graded against the learner's earlier values (`carried_forward`), in which case
    `carried_forward_key` holds the key that was used. A parse error charges no attempt.
    """

    part: str
    status: str
    score: float
    misconception: str | None
    message: str
    value: float | None
    key: float
    interval: tuple[float, float]
    accepted: str
    carried_forward: bool = False
    carried_forward_key: float | None = None
    unit: str = ""

    def to_json(self) -> dict[str, Any]:
        """The `bank grade --json` shape."""
        return {
            "status": self.status,
            "score": self.score,
            "misconception": self.misconception,
            "message": self.message,
        }


def grade_part(
    variant: "Variant",
    part_key: str,
    text: str,
    *,
    earlier: Mapping[str, GradeResult] | None = None,
) -> GradeResult:
    """Grade `text` typed for part `part_key` of `variant`.

    `earlier` maps earlier part keys to their `GradeResult`; parts this one builds on that were
    not correct are replaced by the learner's own values (error carried forward).
    """
    scenario = variant.scenario
    part = scenario.part(part_key)
    unit = part.unit
    key_base = variant.answer_values[part.key]
    key = unit.from_base(key_base)
    tolerance = part.tolerance
    width = tolerance.half_width(key)
    interval = (key - width, key + width)
    accepted = _accepted_words(key, width, tolerance, unit)
    base: dict[str, Any] = {
        "part": part.key,
        "key": key,
        "interval": interval,
        "accepted": accepted,
        "unit": unit.text,
    }

    def result(
        status: str,
        score: float,
        misconception: str | None,
        message: str,
        value: float | None,
        **extra: Any,
    ) -> GradeResult:
        return GradeResult(
            status=status,
            score=score,
            misconception=misconception,
            message=message,
            value=value,
            **base,
            **extra,
        )

    try:
        value = read_answer(variant, part.key, text)
    except ParseError as error:
        return result(PARSE_ERROR, 0.0, None, error.message, None)
    digits = _digits(key, width)
    shown = _shown(value, unit, digits)
    key_shown = _shown(key, unit, digits)

    if tolerance.accepts(value, key):
        return result(
            CORRECT, 1.0, None, f"Correct: {shown}. The key is {key_shown}; {accepted}.", value
        )
    note = ""
    if "iB" in unit.text and _DECIMAL_KB.search(text):
        note = " 'KB' is read as kB (1,000 bytes); a KiB is 1,024 bytes."

    env = variant.env
    substituted = _carried_forward(part, earlier or {}, scenario)
    carried_forward_env = carried_forward_key = None
    if substituted:
        carried_forward_env = dict(env)
        carried_forward_env.update({name: learner for name, (learner, _) in substituted.items()})
        try:
            carried_forward_key_base = part.answer.evaluate(carried_forward_env)
        except FormulaError:
            carried_forward_env = None
        else:
            carried_forward_key = unit.from_base(carried_forward_key_base)
            if tolerance.accepts(value, carried_forward_key):
                return result(
                    CORRECT,
                    1.0,
                    None,
                    f"Correct given {_earlier_answers(scenario, substituted)}: with it, this "
                    f"part comes to {_shown(carried_forward_key, unit, digits)}. With the right "
                    f"earlier values the key is {key_shown}.",
                    value,
                    carried_forward=True,
                    carried_forward_key=carried_forward_key,
                )

    band = part.partial.factor
    close = band > 0 and (
        abs(value - key) <= band * width
        or (
            carried_forward_key is not None
            and abs(value - carried_forward_key) <= band * tolerance.half_width(carried_forward_key)
        )
    )
    matched = _match_misconception(part, variant, env, key_base, value, key, width)
    if matched is None and carried_forward_env is not None and carried_forward_key is not None:
        matched = _match_misconception(
            part, variant, carried_forward_env, unit.to_base(carried_forward_key), value, key, width
        )
    if matched is not None:
        tag, feedback = matched
        status, score = (PARTIAL, part.partial.score) if close else (INCORRECT, 0.0)
        return result(
            status,
            score,
            tag,
            f"{feedback} (Your answer: {shown}; the key is {key_shown}.){note}",
            value,
            carried_forward_key=carried_forward_key,
        )
    if close:
        return result(
            PARTIAL,
            part.partial.score,
            None,
            f"Close: {shown} is near the key, {key_shown}, but outside the tolerance; "
            f"{accepted}.{note}",
            value,
            carried_forward_key=carried_forward_key,
        )
    return result(
        INCORRECT,
        0.0,
        None,
        f"Not correct: {shown}. The key is {key_shown}; {accepted}.{note}",
        value,
        carried_forward_key=carried_forward_key,
    )


_DECIMAL_KB = re.compile(r"(?<![A-Za-z])KB(?![A-Za-z])")


def read_answer(variant: "Variant", part_key: str, text: str) -> float:
    """The value of `text` typed for part `part_key` [part unit], or `ParseError` when it cannot
    be read, or is right only read another way (`reading_hint`) and is no known mistake: such
    an answer is pointed out and costs nothing. A mock reads each answer with this when it is
    recorded, so the hint comes at once there too."""
    part = variant.scenario.part(part_key)
    reading = read_answer_text(text, part.unit)
    value = reading.value
    key_base = variant.answer_values[part.key]
    key = part.unit.from_base(key_base)
    hint = reading_hint(text, reading, part.unit, lambda typed: part.tolerance.accepts(typed, key))
    if hint is None:
        return value
    # A bare fraction in a percentage box is the fraction-vs-percent mix-up's very value: the
    # hint is for it. Elsewhere a known mistake is graded as one, not hinted at.
    width = part.tolerance.half_width(key)
    if part.unit.is_percent or not _match_misconception(
        part, variant, variant.env, key_base, value, key, width
    ):
        raise ParseError(hint)
    return value


def grade_answers(variant: "Variant", answers: Mapping[str, str]) -> dict[str, GradeResult]:
    """Grade answers to several parts (part key -> typed text) in part order, carrying errors
    forward from earlier parts. Returns part key -> `GradeResult` for the parts answered."""
    known = {part.key for part in variant.scenario.parts}
    unknown = sorted(set(answers) - known)
    if unknown:
        raise KeyError(f"scenario '{variant.scenario.key}' has no part {unknown[0]!r}")
    results: dict[str, GradeResult] = {}
    for part in variant.scenario.parts:
        if part.key in answers:
            results[part.key] = grade_part(variant, part.key, answers[part.key], earlier=results)
    return results


def _carried_forward(
    part: "Part", earlier: Mapping[str, GradeResult], scenario: "Scenario"
) -> dict[str, tuple[float, str]]:
    """Earlier parts to replace by the learner's values: name -> (base value, shown text)."""
    substituted = {}
    for name in part.uses:
        result = earlier.get(name)
        if result is None or result.value is None:
            continue
        if result.status == CORRECT and not result.carried_forward:
            continue
        earlier_unit = scenario.part(name).unit
        shown = _shown(result.value, earlier_unit, 4)
        substituted[name] = (earlier_unit.to_base(result.value), shown)
    return substituted


def _earlier_answers(scenario: "Scenario", substituted: Mapping[str, tuple[float, str]]) -> str:
    """The learner's earlier answers an error was carried from, as the learner knows them: by
    part number, never by the part's key (an internal name such as users_per_gpu)."""
    numbers = {part.key: index for index, part in enumerate(scenario.parts, start=1)}
    named = [f"part {numbers[name]} ({shown})" for name, (_, shown) in substituted.items()]
    listed = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    return f"your answer{'s' if len(named) > 1 else ''} to {listed}"


def _match_misconception(
    part: "Part",
    variant: "Variant",
    env: Mapping[str, Any],
    key_base: float,
    value: float,
    key: float,
    width: float,
) -> tuple[str, str] | None:
    unit = part.unit
    for misconception in part.misconceptions:
        try:
            wrong_values, local = misconception.values(env, key_base)
        except FormulaError:
            continue
        for wrong_base in wrong_values:
            wrong = unit.from_base(wrong_base)
            if not math.isfinite(wrong) or abs(wrong - key) <= width:
                continue  # indistinguishable from the key for this variant: never fires
            if part.tolerance.accepts(value, wrong):
                try:
                    feedback = misconception.feedback.render(local, variant.displays)
                except FormulaError:
                    feedback = "This matches a known mistake."
                return misconception.tag, feedback
    return None


def _digits(key: float, width: float) -> int:
    """Significant figures that show the accepted interval's ends distinctly."""
    if key == 0 or width == 0:
        return 4
    return max(3, min(12, 2 + math.ceil(math.log10(abs(key) / width))))


def _shown(value: float, unit: UnitSpec, digits: int) -> str:
    if value == int(value) and abs(value) < 1e15:
        number = format_number(value)
    else:
        number = format_number(value, significant=digits)
        number = _trim(number)
    return with_unit(number, unit) if unit.text else number


def _trim(number: str) -> str:
    if "." not in number or "×" in number:
        return number
    return number.rstrip("0").rstrip(".")


def _accepted_words(key: float, width: float, tolerance: Tolerance, unit: UnitSpec) -> str:
    digits = _digits(key, width)
    # Rounded inwards, so any number the words allow is accepted.
    low = as_number(round_up_significant(key - width, digits))
    high = as_number(round_down_significant(key + width, digits))
    low_text, high_text = format_number(low, exact=True), format_number(high, exact=True)
    if unit.text:
        low_text, high_text = with_unit(low_text, unit), with_unit(high_text, unit)
    return f"accepted from {low_text} to {high_text} ({tolerance.describe()})"
