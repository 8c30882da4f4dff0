"""Text with placeholders: ``{formula}`` or ``{formula:options}``, rendered with a variant's values.

Options are comma-separated: a unit to show the value in (``TB``, ``GiB``, ``ms``, ``$/h``, ``%``),
``3s`` (three significant figures), ``2f`` (two decimals), ``exact`` (every digit), ``bare`` (the
number without its unit). ``{{`` and ``}}`` are literal braces. Without options, a parameter or
given value is shown exactly as drawn or rounded, in its own unit; any other whole number
exactly; anything else to three significant figures. A catalogue entry shows its name.
"""

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import lru_cache

from .catalogue import Catalogue
from .errors import FormulaError, ParseError
from .formula import Formula, compile_formula
from .numbers import format_number, in_unit
from .units import TIMES_SIGNS, UnitSpec, display_unit

MAX_TEMPLATE_LENGTH = 20_000
MAX_PLACEHOLDERS = 200
MAX_TEMPLATE_ERRORS = 10
_PRECISION = re.compile(r"^(?P<digits>\d{1,2})(?P<mode>[sf])$")


@dataclass(frozen=True)
class Display:
    """How a value is shown: a parameter or given value exactly as drawn or rounded, in its own
    unit; for a part's key (`value` None), only the unit it is shown in by default."""

    value: object  # a number, a catalogue entry, or None for a part's key
    unit: UnitSpec | None


@dataclass(frozen=True)
class Placeholder:
    formula: Formula
    source: str
    unit: UnitSpec | None = None
    significant: int | None = None
    decimals: int | None = None
    exact: bool = False
    bare: bool = False
    name: str | None = None
    """The single name this placeholder shows, if it is just a name."""


@dataclass(frozen=True)
class Rendered:
    """One rendered placeholder: the text shown, and the number/unit it states (for checks)."""

    placeholder: Placeholder
    text: str
    value: object
    number_text: str | None
    unit: UnitSpec | None


class Template:
    """A compiled text: literal segments and placeholders."""

    __slots__ = ("source", "segments", "placeholders")

    def __init__(self, source: str, segments: list):
        self.source = source
        self.segments = segments
        self.placeholders = [s for s in segments if isinstance(s, Placeholder)]

    @property
    def names(self) -> frozenset[str]:
        used: set[str] = set()
        for placeholder in self.placeholders:
            used |= placeholder.formula.names
        return frozenset(used)

    def render(self, env: Mapping, displays: Mapping[str, Display]) -> str:
        return "".join(
            segment if isinstance(segment, str) else render_placeholder(segment, env, displays).text
            for segment in self.segments
        )

    def render_parts(self, env: Mapping, displays: Mapping[str, Display]) -> tuple[str, list]:
        """The text and each placeholder's `Rendered` record."""
        pieces, records = [], []
        for segment in self.segments:
            if isinstance(segment, str):
                pieces.append(segment)
            else:
                record = render_placeholder(segment, env, displays)
                records.append(record)
                pieces.append(record.text)
        return "".join(pieces), records


def compile_template(
    source: str,
    names: Mapping,
    catalogue: Catalogue,
    on_error: Callable[[str], None] | None = None,
) -> Template:
    """Compile a text with placeholders. Raises `FormulaError` on the first bad placeholder
    unless `on_error` is given, which then receives every message and the bad placeholders
    are left out."""
    if not isinstance(source, str):
        raise FormulaError("text expected")
    if len(source) > MAX_TEMPLATE_LENGTH:
        raise FormulaError(f"the text is too long (over {MAX_TEMPLATE_LENGTH} characters)")
    segments: list = []
    literal: list[str] = []
    position = 0
    count = 0
    reported = 0

    def report(message: str) -> bool:
        """Report a problem; False once enough have been reported to stop reading."""
        nonlocal reported
        reported += 1
        if reported > MAX_TEMPLATE_ERRORS:
            _report(
                on_error,
                f"… and more problems in this text (only the first "
                f"{MAX_TEMPLATE_ERRORS} are listed)",
            )
            return False
        _report(on_error, message)
        return True

    while position < len(source):
        character = source[position]
        if character == "{" and source.startswith("{{", position):
            literal.append("{")
            position += 2
            continue
        if character == "}" and source.startswith("}}", position):
            literal.append("}")
            position += 2
            continue
        if character == "}":
            if not report(f"unmatched '}}' at character {position + 1} (write '}}}}')"):
                break
            literal.append("}")
            position += 1
            continue
        if character != "{":
            literal.append(character)
            position += 1
            continue
        end = source.find("}", position + 1)
        opening = source.find("{", position + 1)
        if end < 0 or (0 <= opening < end):
            if not report(f"'{{' at character {position + 1} is not closed (write '{{{{')"):
                break
            literal.append("{")
            position += 1
            continue
        count += 1
        if count > MAX_PLACEHOLDERS:
            report(f"too many placeholders (more than {MAX_PLACEHOLDERS})")
            break
        body = source[position + 1 : end]
        try:
            placeholder = compile_placeholder(body, names, catalogue)
        except FormulaError as error:
            if not report(f"placeholder {{{body}}}: {error.message}"):
                break
        else:
            if literal:
                segments.append("".join(literal))
                literal = []
            segments.append(placeholder)
        position = end + 1
    if literal:
        segments.append("".join(literal))
    return Template(source, segments)


def _report(on_error: Callable[[str], None] | None, message: str) -> None:
    if on_error is None:
        raise FormulaError(message)
    on_error(message)


def compile_placeholder(body: str, names: Mapping, catalogue: Catalogue) -> Placeholder:
    formula_text, _, options_text = body.partition(":")
    formula = compile_formula(formula_text, names, catalogue, result="any")
    unit = None
    significant = decimals = None
    exact = bare = False
    for option in (o.strip() for o in options_text.split(",")) if options_text else ():
        if not option:
            continue
        precision = _PRECISION.match(option)
        if precision:
            digits = int(precision["digits"])
            if precision["mode"] == "s":
                if not 1 <= digits <= 15:
                    raise FormulaError("significant figures must be from 1 to 15")
                significant = digits
            else:
                decimals = digits
        elif option == "exact":
            exact = True
        elif option == "bare":
            bare = True
        elif unit is None:
            try:
                unit = display_unit(option)
            except ParseError as error:
                raise FormulaError(f"unknown unit or option '{option}': {error.message}") from None
        else:
            raise FormulaError(f"unknown option '{option}' (a unit was already given)")
    if unit is not None and formula.kind != "number":
        raise FormulaError(
            f"'{formula.source}' is not a number, so it cannot be shown in {unit.text}"
        )
    name = formula.source if formula.source.isidentifier() else None
    return Placeholder(formula, body, unit, significant, decimals, exact, bare, name)


def render_placeholder(
    placeholder: Placeholder, env: Mapping, displays: Mapping[str, Display]
) -> Rendered:
    value = placeholder.formula.evaluate(env)
    if isinstance(value, str):
        return Rendered(placeholder, value, value, None, None)
    if not isinstance(value, (int, float)):
        name = getattr(value, "name", None)
        text = name if isinstance(name, str) else str(value)
        return Rendered(placeholder, text, value, None, None)
    unit = placeholder.unit
    display = displays.get(placeholder.name) if placeholder.name else None
    exact_display = False
    if display is not None:
        # A named parameter, given value or part key is shown in its own unit by default.
        same_unit = unit is None or unit == display.unit
        unit = unit or display.unit
        exact_display = (
            display.value is not None
            and same_unit
            and placeholder.significant is None
            and placeholder.decimals is None
        )
    if exact_display and display is not None and isinstance(display.value, (int, float)):
        # Exactly what was drawn or rounded: the number the learner computes with.
        number = format_number(display.value, exact=True)
    elif type(value) is int or type(value) is float:
        kind: type = type(value)  # cached apart: 1 and 1.0 are written differently
        number = _written(
            kind,
            value,
            unit.factor if unit is not None else None,
            placeholder.significant,
            placeholder.decimals,
            placeholder.exact,
        )
    else:
        number = format_number(
            in_unit(value, unit.factor) if unit is not None else value,
            significant=placeholder.significant,
            decimals=placeholder.decimals,
            exact=placeholder.exact,
        )
    shown_unit = unit
    if placeholder.bare or shown_unit is None:
        return Rendered(placeholder, number, value, number, shown_unit)
    return Rendered(placeholder, with_unit(number, shown_unit), value, number, shown_unit)


@lru_cache(maxsize=65536)
def _written(
    kind: type,
    value: float | int,
    factor: float | None,
    significant: int | None,
    decimals: int | None,
    exact: bool,
) -> str:
    """A number as a placeholder writes it, cached: a check over many seeds writes the same
    figures over and over, and the decimal arithmetic is the costly part."""
    return format_number(
        in_unit(value, factor) if factor is not None else value,
        significant=significant,
        decimals=decimals,
        exact=exact,
    )


def with_unit(number: str, unit: UnitSpec) -> str:
    """A written number with its unit: "$2.50/h", "12%", "2.8×", "8 GPUs", "1.07 TB"."""
    text = unit.text
    if not text:
        return number
    if text.startswith("$"):
        sign = "-" if number.startswith("-") else ""
        digits = number.lstrip("-")
        if "." in digits and "×" not in digits and len(digits.partition(".")[2]) == 1:
            digits += "0"
        rest = text[1:]
        return f"{sign}${digits}{rest if rest[:1] in ('/', '') else ' ' + rest.strip()}"
    if text == "%" or text in TIMES_SIGNS:
        return number + text
    if number == "1" and text.endswith("s") and len(text) > 2:
        singular = text.removesuffix("es") if text.endswith(("ches", "shes")) else text[:-1]
        if unit.noun or _same_unit_word(singular, unit):
            return f"1 {singular}"
    return f"{number} {text}"


def _same_unit_word(singular: str, unit: UnitSpec) -> bool:
    """Whether a unit written as a plural word ("tokens", "bytes") reads the same singular."""
    if len(singular) < 3 or not singular.isalpha():
        return False
    try:
        parsed = display_unit(singular)
    except ParseError:
        return False
    return parsed.dimensions == unit.dimensions and parsed.factor == unit.factor
