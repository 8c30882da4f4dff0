"""Reading a typed answer: a number as people write it, an optional unit, converted to the part's.

Accepted: ``1.07e12``, ``1.07 × 10^12`` (also ``x``, ``*``, ``·``, ``10**12``, ``10¹²``),
``1,070`` (commas group thousands), ``.5``, ``-3``, ``1.2 million``, ``1.07 TB``, ``996 GiB``,
``3.2 ms``, ``45 tok/s``, ``$1.20``, ``$2.50/h``, ``12%``, ``2.8×``, ``8 GPUs``, ``0.68 m``. A bare
number is in the part's unit, and so is a bare amount of money (``$0.59``, ``59 cents``) for a part
in money per something (``$/Mtok``, ``$/h``, ``$/1k req``): "what does a million tokens cost" is
naturally answered "$0.59". Anything else raises `ParseError` with a message that says exactly what
was wrong; a parse error costs the learner nothing.
"""

import math
import re
from decimal import Decimal, InvalidOperation

from .errors import ParseError
from .units import MONEY, TIMES_SIGNS, UnitSpec, display_unit, money_scale, parse_unit, same_noun

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


def parse_answer(text: str, unit: UnitSpec | str) -> float:
    """The value of a typed answer in the part's `unit` (a `UnitSpec` or unit text).

    Raises `ParseError` for an empty or over-long answer, a malformed number, an unknown unit,
    or a unit of another dimension than the part's (e.g. a time for a size).
    """
    part_unit = display_unit(unit) if isinstance(unit, str) else unit
    if not isinstance(text, str):
        raise ParseError("The answer must be text.")
    if len(text) > MAX_ANSWER_LENGTH:
        raise ParseError(f"The answer is too long (over {MAX_ANSWER_LENGTH} characters).")
    cleaned = " ".join(text.translate(_SPACES).split())
    if not cleaned:
        raise ParseError(f"Type a number, for example {EXAMPLES}.")
    match = _NUMBER.match(cleaned)
    if match is None:
        raise ParseError(
            f"'{cleaned}' does not start with a number. Type digits such as {EXAMPLES}."
        )
    if match["sign"] and match["sign_after_currency"]:
        raise ParseError(f"'{cleaned}' has two signs.")
    mantissa = match["mantissa"]
    if mantissa and "," in cleaned[: match.end("mantissa") + 1] and _BAD_COMMA.search(cleaned):
        raise ParseError(_comma_message(cleaned))
    rest = match["rest"]
    if rest[:1].isdigit() or rest[:1] in {".", ","}:
        if re.match(r"^[-+]?\$?\d{1,3}(?: \d{3})+", cleaned):
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
    return _convert(value, unit_text.strip(), part_unit, cleaned)


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
    if part_unit.noun:
        if same_noun(unit_text, part_unit.noun):
            return value
        try:
            typed = parse_unit(unit_text)
        except ParseError:
            raise ParseError(f"'{cleaned}': this part asks for {asked}, not {unit_text}.") from None
        raise ParseError(f"'{cleaned}' is {typed.phrase}, but this part asks for {asked}.")
    if unit_text in TIMES_SIGNS:
        typed = UnitSpec(text=unit_text, factor=1.0, dimensions=())
    else:
        try:
            typed = parse_unit(unit_text)
        except ParseError as error:
            message = error.message if error.message.endswith(("?", ".")) else error.message + "."
            raise ParseError(f"Unknown unit in '{cleaned}': {message}") from None
    if typed.dimensions == MONEY and (scale := money_scale(part_unit)) is not None:
        # "$0.59" for a part in $/Mtok: dollars per the part's own "per" term.
        converted = value * typed.factor / scale
    elif typed.dimensions != part_unit.dimensions:
        raise ParseError(f"'{cleaned}' is {typed.phrase}, but this part asks for {asked}.")
    else:
        converted = value * typed.factor / part_unit.factor
    if not math.isfinite(converted):
        raise ParseError(f"'{cleaned}' is too large.")
    return converted


def _asked(part_unit: UnitSpec) -> str:
    if part_unit.noun:
        return f"a number of {part_unit.noun}"
    if not part_unit.text or part_unit.text in TIMES_SIGNS:
        return "a plain number"
    return f"{part_unit.phrase} in {part_unit.text}"
