"""Reading a typed answer: a number as people write it, an optional unit, converted to the part's.

Accepted: ``1.07e12``, ``1.07 × 10^12`` (also ``x``, ``*``, ``·``, ``10**12``, ``10¹²``),
``1,070`` (commas group thousands), ``.5``, ``-3``, ``1.2 million``, ``1.07 TB``, ``996 GiB``,
``3.2 ms``, ``45 tok/s``, ``$1.20``, ``$2.50/h``, ``12%``, ``2.8×``, ``8 GPUs``, ``0.68 m``. A bare
number is in the part's unit, and so is a bare amount of money (``$0.59``, ``59 cents``) for a part
in money per something (``$/Mtok``, ``$/h``, ``$/1k req``): "what does a million tokens cost" is
naturally answered "$0.59". A unit may be written in any case where no two units collide
("MTok"), with a lone scale letter ("$2.16/M tokens"), and a counted noun or a synonym the part's
scenario lists may be qualified ("12 spare replicas", "52 seqs") or come first ("Config 2").
Anything else raises `ParseError` with a message that says exactly what was wrong; a parse error
costs the learner nothing. `reading_hint` finds the answers that are right but written in a way
the part does not read (a bare number in tokens for a part in Mtok), for a free second try.
"""

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from .errors import ParseError
from .numbers import as_number, format_number, round_significant
from .units import (
    MONEY,
    TIMES_SIGNS,
    UnitSpec,
    display_unit,
    is_qualifier,
    money_scale,
    names_noun,
    parse_unit,
    synonyms_of,
)

MAX_ANSWER_LENGTH = 100
MAX_EXPONENT = 300
EXAMPLES = "1.07e12, 1,070, 1.07 × 10^12 or 1.07 TB"

_SPACES = str.maketrans(
    {
        "\u00a0": " ",
        "\u2009": " ",
        "\u202f": " ",
        "\u2002": " ",
        "\u2003": " ",
        "\t": " ",
        "\u2212": "-",
        "\u2013": "-",
        "\uff04": "$",
    }
)
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SCALE_WORDS = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12}
_SUFFIXES = {"k": 3, "K": 3, "M": 6}  # "13.9k", "1.2M": attached to the number
_DECIMAL_PREFIXES = {"k": 3, "M": 6, "G": 9, "T": 12, "P": 15}

_NUMBER = re.compile(
    r"""^
    (?P<sign>[-+])?\s*
    (?P<currency>\$)?\s*
    (?P<sign_after_currency>[-+])?\s*
    (?:
        10\s*(?:\^|\*\*)\s*(?P<power_exponent>[-+]?\d+)
      | 10(?P<power_superscript>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)
      | (?P<mantissa>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)
        (?:
            \s*[eE](?P<e_exponent>[-+]?\d+)
          | \s*(?:[x×*·⋅])\s*10\s*(?:\^|\*\*)\s*(?P<caret_exponent>[-+]?\d+)
          | \s*(?:[x×*·⋅])\s*10(?P<superscript_exponent>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+)
        )?
    )
    (?:
        \s*(?P<word>thousand|million|billion|trillion)\b
      | (?P<suffix>(?-i:[kKM]))(?![A-Za-zµμ])
    )?
    \s*(?P<rest>.*?)\s*$""",
    re.VERBOSE | re.IGNORECASE | re.DOTALL,
)
_BAD_COMMA = re.compile(r"\d,(?!\d{3}(?:\D|$))|,\d{3}\d")


@dataclass(frozen=True)
class Reading:
    """A typed answer as read: its `value` in the part's unit, and whether it was `bare` (a number
    with no unit, scale word or currency sign, read in the part's unit only because nothing
    else was written) or `percent` (a number with "%", "percent" or "pct" and nothing else)."""

    value: float
    bare: bool
    percent: bool = False


def parse_answer(text: str, unit: UnitSpec | str) -> float:
    """The value of a typed answer in the part's `unit` (a `UnitSpec` or unit text).

    Raises `ParseError` for an empty or over-long answer, a malformed number, an unknown unit,
    or a unit of another dimension than the part's (e.g. a time for a size).
    """
    return read_answer_text(text, unit).value


def read_answer_text(text: str, unit: UnitSpec | str) -> Reading:
    """`parse_answer`, with how the answer was written (see `Reading`)."""
    part_unit = display_unit(unit) if isinstance(unit, str) else unit
    if not isinstance(text, str):
        raise ParseError("The answer must be text.")
    if len(text) > MAX_ANSWER_LENGTH:
        raise ParseError(f"The answer is too long (over {MAX_ANSWER_LENGTH} characters).")
    cleaned = " ".join(text.translate(_SPACES).split())
    if not cleaned:
        raise ParseError(f"Type a number, for example {EXAMPLES}.")
    number_text = _without_leading_noun(cleaned, part_unit)
    match = _NUMBER.match(number_text)
    if match is None:
        raise ParseError(
            f"'{cleaned}' does not start with a number. Type digits such as {EXAMPLES}."
        )
    if match["sign"] and match["sign_after_currency"]:
        raise ParseError(f"'{cleaned}' has two signs.")
    mantissa = match["mantissa"]
    if mantissa and "," in number_text[: match.end("mantissa") + 1] and _BAD_COMMA.search(cleaned):
        raise ParseError(_comma_message(cleaned))
    rest = match["rest"]
    if rest[:1].isdigit() or rest[:1] in {".", ","}:
        if re.match(r"^[-+]?\$?\d{1,3}(?: \d{3})+", number_text):
            raise ParseError(
                f"'{cleaned}' groups digits with spaces. Group thousands with commas (1,070) "
                "or not at all (1070)."
            )
        if "," in cleaned and _BAD_COMMA.search(cleaned):
            raise ParseError(_comma_message(cleaned))
        raise ParseError(f"'{cleaned}' is not a number I can read. Type digits such as {EXAMPLES}.")
    if re.fullmatch(r"[eE][-+]?", rest):
        raise ParseError(f"'{cleaned}' has an 'e' with no exponent after it (e.g. 1.07e12).")
    value = _number_value(match, cleaned)
    unit_text = ("$" + rest) if match["currency"] else rest
    if unit_text.startswith("$") and match["currency"] and rest.startswith("$"):
        raise ParseError(f"'{cleaned}' has two dollar signs.")
    if _scale(match) and not unit_text.strip():
        value = _scaled_count(value, _scale(match), part_unit, cleaned)
    bare = not unit_text.strip() and not _scale(match)
    converted = _convert(value, unit_text.strip(), part_unit, cleaned)
    percent = not _scale(match) and unit_text.strip().lower() in {"%", "percent", "pct"}
    return Reading(converted, bare=bare, percent=percent)


_LEADING_NOUN = re.compile(
    r"^(?P<words>[A-Za-z][A-Za-z0-9 -]*?)\s*(?:#|no\.|number\s)?\s*(?P<number>[-+$.\d].*)$",
    re.IGNORECASE,
)


def _without_leading_noun(cleaned: str, part_unit: UnitSpec) -> str:
    """The answer without a counted noun of the part written before the number ("Config 2",
    "configuration #2"), when the part's unit or its synonyms name it."""
    nouns = synonyms_of(part_unit).nouns
    match = _LEADING_NOUN.match(cleaned) if nouns and cleaned[:1].isalpha() else None
    if match and any(names_noun(match["words"], noun) for noun in nouns):
        return match["number"]
    return cleaned


def _scale(match: re.Match) -> int:
    """The power of ten of a scale word ("million") or suffix ("k") after the number, or 0."""
    if match["word"]:
        return _SCALE_WORDS[match["word"].lower()]
    if match["suffix"]:
        return _SUFFIXES[match["suffix"]]
    return 0


def _scaled_count(value: float, power: int, part_unit: UnitSpec, cleaned: str) -> float:
    """A scaled number typed without a unit ("3.94 million") for a part in a prefixed unit.

    "3.94 million" in a part in Mtok counts tokens, so it is 3.94 Mtok, not 3.94 million Mtok;
    likewise "1.2 billion" in GB. Where the scale and the unit's prefix differ ("2.5k" in
    TFLOP) the learner's meaning is unclear, so they are asked to write the unit.
    """
    prefix = _unit_prefix(part_unit)
    if prefix is None:
        return value
    if prefix == power:
        return value / 10.0**power
    raise ParseError(
        f"'{cleaned}': this part is in {part_unit.text}; write the unit too (for example "
        f"'{cleaned} {part_unit.text}') so that it is clear which unit the scale applies to."
    )


def _unit_prefix(part_unit: UnitSpec) -> int | None:
    """The power of ten of a part unit's leading decimal prefix (6 for Mtok, 9 for GB/s)."""
    text = part_unit.text
    if part_unit.noun or len(text) < 2 or text[0] not in _DECIMAL_PREFIXES:
        return None
    if not (text[1].isalpha() and text[1] != "i"):
        return None
    try:
        bare = parse_unit(text[1:])
    except ParseError:
        return None
    power = _DECIMAL_PREFIXES[text[0]]
    if bare.dimensions != part_unit.dimensions:
        return None
    return power if math.isclose(part_unit.factor, bare.factor * 10.0**power) else None


def _comma_message(cleaned: str) -> str:
    return (
        f"'{cleaned}' has a comma that does not separate thousands. Commas group thousands "
        "(1,070); write decimals with a point (1.07)."
    )


def _number_value(match: re.Match, cleaned: str) -> float:
    exponent_text = (
        match["e_exponent"]
        or match["caret_exponent"]
        or (match["superscript_exponent"] or "").translate(_SUPERSCRIPTS)
        or match["power_exponent"]
        or (match["power_superscript"] or "").translate(_SUPERSCRIPTS)
        or "0"
    )
    exponent = int(exponent_text)
    exponent += _scale(match)
    if abs(exponent) > MAX_EXPONENT:
        raise ParseError(f"'{cleaned}' is out of range (the exponent is over {MAX_EXPONENT}).")
    mantissa = match["mantissa"]
    if mantissa is None:
        mantissa = "1"
    try:
        number = Decimal(mantissa.replace(",", "")).scaleb(exponent)
    except InvalidOperation:
        raise ParseError(f"'{cleaned}' is not a number I can read.") from None
    if (match["sign"] or match["sign_after_currency"]) == "-":
        number = -number
    value = float(number)
    if not math.isfinite(value):
        raise ParseError(f"'{cleaned}' is too large.")
    return value


def _convert(value: float, unit_text: str, part_unit: UnitSpec, cleaned: str) -> float:
    if not unit_text:
        return value
    asked = _asked(part_unit)
    synonyms = synonyms_of(part_unit)
    if any(names_noun(unit_text, noun) for noun in synonyms.nouns):
        return value
    if part_unit.noun:
        try:
            typed = _unit_after_qualifiers(unit_text)
        except ParseError:
            raise ParseError(f"'{cleaned}': this part asks for {asked}, not {unit_text}.") from None
        for synonym in synonyms.units:
            if typed.dimensions == synonym.dimensions:
                return _finite(value * typed.factor / synonym.factor, cleaned)
        raise ParseError(f"'{cleaned}' is {typed.phrase}, but this part asks for {asked}.")
    if part_unit.text in TIMES_SIGNS:
        _check_percent_comparison(value, unit_text, cleaned)
    if part_unit.text in (*TIMES_SIGNS, "") and _FACTOR_WORDS.match(unit_text):
        return value
    if unit_text in TIMES_SIGNS:
        typed = UnitSpec(text=unit_text, factor=1.0, dimensions=())
    else:
        try:
            typed = _unit_after_qualifiers(unit_text)
        except ParseError as error:
            message = error.message if error.message.endswith(("?", ".")) else error.message + "."
            raise ParseError(f"Unknown unit in '{cleaned}': {message}") from None
    for synonym in synonyms.units:
        if typed.dimensions == synonym.dimensions:
            # One of the synonym is one of the part's unit ("$/1k req" for a part in $).
            return _finite(value * typed.factor / synonym.factor, cleaned)
    if typed.dimensions == MONEY and (scale := money_scale(part_unit)) is not None:
        # "$0.59" for a part in $/Mtok: dollars per the part's own "per" term.
        converted = value * typed.factor / scale
    elif typed.dimensions != part_unit.dimensions:
        raise ParseError(f"'{cleaned}' is {typed.phrase}, but this part asks for {asked}.")
    else:
        converted = value * typed.factor / part_unit.factor
    return _finite(converted, cleaned)


def _finite(value: float, cleaned: str) -> float:
    if not math.isfinite(value):
        raise ParseError(f"'{cleaned}' is too large.")
    return value


def _unit_after_qualifiers(unit_text: str) -> UnitSpec:
    """The unit of "5,000 prompt tokens" or "1.2 GB": the unit expression, after words that
    only qualify it. Raises the `ParseError` of the whole text when no ending is a unit."""
    try:
        return parse_unit(unit_text)
    except ParseError as error:
        words = unit_text.split(" ")
        for start in range(1, len(words)):
            if not is_qualifier(words[start - 1]):
                break
            try:
                return parse_unit(" ".join(words[start:]))
            except ParseError:
                continue
        raise error from None


# "2.1× faster", "2.1 times", "2.1x speed-up": the factor, with words that only repeat what it is.
_FACTOR_WORDS = re.compile(
    r"^(?:×|x|times|fold)(?:\s*(?:faster|quicker|speed-?up|more|higher|larger|bigger|better|"
    r"the throughput|as fast|as much))?$",
    re.IGNORECASE,
)
_PERCENT_COMPARISON = re.compile(
    r"^%\s*(?P<word>faster|quicker|more|higher|better|speed-?up|slower)$", re.IGNORECASE
)


def _check_percent_comparison(value: float, unit_text: str, cleaned: str) -> None:
    """ "20% faster" in a box that asks for a factor: say which factor that is."""
    match = _PERCENT_COMPARISON.match(unit_text)
    if match is None:
        return
    share = value / 100
    factor = 1 - share if match["word"].lower() == "slower" else 1 + share
    shown = _written(factor)
    raise ParseError(
        f"'{cleaned}' is a factor of {shown}×, and this part asks for the factor: type {shown} "
        "(this cost you no attempt)."
    )


def _asked(part_unit: UnitSpec) -> str:
    if part_unit.noun:
        return f"a number of {part_unit.noun}"
    if not part_unit.text or part_unit.text in TIMES_SIGNS:
        return "a plain number"
    return f"{part_unit.phrase} in {part_unit.text}"


# Hints: an answer that is right, but written in a way the part does not read.

NO_ATTEMPT = "(this cost you no attempt)"


def reading_hint(
    text: str, reading: Reading, unit: UnitSpec, accepts: Callable[[float], bool]
) -> str | None:
    """A hint for an answer that `accepts` refuses as read but would accept read another way
    the learner plausibly meant, or None. `reading` is `text` as read in `unit`
    (`read_answer_text`); `accepts` tells whether a value in the part's unit is correct.

    - A bare fraction in a percentage box (0.167 for 16.7%): right once multiplied by 100. A
      number below 1 that is not is graded as the percentage it says (0.5 is 0.5%). The other
      way round, a bare percentage in a box for a plain number (60 for an acceptance rate of
      0.6).
    - A percentage in a box for a factor ("20%" for a speed-up): the factor it means (1.2×).
    - A bare number in a unit with a prefix (Mtok, TFLOP, GB, KiB) that is right in one of the
      smaller units of the same kind (4,010,000 tokens for 4.01 Mtok; 1.63e14 FLOP for 163
      TFLOP): the hint names that unit.

    The caller decides whether the answer is a known mistake instead (which is graded).
    """
    value = reading.value
    if accepts(value):
        return None
    typed = " ".join(text.translate(_SPACES).split())
    if unit.is_percent and reading.bare and accepts(value * 100):
        as_percent = _written(value * 100)
        return (
            f"'{typed}' looks like a fraction, but this part asks for a percentage: {typed} is "
            f"{as_percent}%. Type {as_percent} or {as_percent}% {NO_ATTEMPT}."
        )
    plain = not unit.text and not unit.noun
    if plain and reading.bare and 1 < abs(value) <= 100 and accepts(value / 100):
        as_fraction = _written(value / 100)
        return (
            f"'{typed}' looks like a percentage, but this part asks for a plain number: {typed}% "
            f"is {as_fraction}. Type {as_fraction} or {typed}% {NO_ATTEMPT}."
        )
    if unit.text in TIMES_SIGNS and reading.percent:
        return _factor_hint(typed, value)
    if reading.bare and not unit.noun:
        for smaller in smaller_units(unit):
            in_part_unit = value * smaller.factor / unit.factor
            if accepts(in_part_unit):
                shown = _written(in_part_unit)
                return (
                    f"'{typed}' is read in {unit.text}, the unit of this part, but it looks like "
                    f"it is in {smaller.text}: {typed} {smaller.text} is {shown} {unit.text}. "
                    f"Type {shown}, or {typed} {smaller.text} {NO_ATTEMPT}."
                )
    return None


def _factor_hint(typed: str, value: float) -> str:
    """ "20%" in a box for a factor: 20% faster is 1.2×, and 120% may be either 1.2× or 2.2×."""
    faster = _written(1 + value)
    if value < 1:
        reading = f"{typed.rstrip(' %')}% faster is {faster}×"
    else:
        reading = f"{typed} of the speed is {_written(value)}×, and {typed} faster is {faster}×"
    return (
        f"'{typed}' is a percentage, but this part asks for a factor (×): {reading}. Type the "
        f"factor, such as {faster} {NO_ATTEMPT}."
    )


_PREFIX_FAMILIES = (("k", "M", "G", "T", "P", "E"), ("Ki", "Mi", "Gi", "Ti", "Pi", "Ei"))


@lru_cache(maxsize=256)
def smaller_units(unit: UnitSpec) -> tuple[UnitSpec, ...]:
    """The units of the same kind as a prefixed `unit` with a smaller prefix of the same family,
    and with none, largest first: GB -> MB, kB, B; Mtok -> ktok, tok; KiB -> B. Empty for a unit
    with no such prefix (ms, $/Mtok, tok/s, GPUs)."""
    if unit.noun:
        return ()
    for family in _PREFIX_FAMILIES:
        for index, prefix in enumerate(family):
            rest = unit.text[len(prefix) :]
            if not unit.text.startswith(prefix) or not rest[:1].isalpha():
                continue
            found = []
            for smaller in (*reversed(family[:index]), ""):
                try:
                    spec = parse_unit(smaller + rest)
                except ParseError:
                    continue
                if spec.dimensions == unit.dimensions and spec.factor < unit.factor:
                    found.append(spec)
            base = found[-1] if found else None
            if base is not None and base.text == rest:
                return tuple(found)
    return ()


def _written(value: float) -> str:
    """A number to six significant figures, as the answer parser reads it back."""
    return format_number(as_number(round_significant(value, 6)), exact=True)
