"""Units of the domain: one Pint registry, a small safe unit-expression reader, conversions.

Every value a formula computes is in base units: bytes, seconds, FLOP, tokens, requests, USD,
watts, metres (and products of these: B/s, FLOP/s, tok/s, $/s, m/s). A part's `unit` is only how
its answer is shown and read; `UnitSpec.factor` is the number of base units in one display unit
(GB -> 1e9, GiB -> 2**30, ms -> 1e-3, % -> 0.01).

Unit expressions are read by our own tokenizer, not by Pint's expression parser, because that
parser evaluates numbers (``GB**9**9**9`` would hang it). Pint resolves single unit names only
(prefixes, plurals, aliases), from the definitions in ``units.txt``.

Reference: Pint 0.26 definitions syntax, https://pint.readthedocs.io/en/stable/advanced/defining.html
"""

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import cast

import pint

from .errors import ParseError

UNITS = pint.UnitRegistry(str(Path(__file__).with_name("units.txt")))
"""The engine's Pint registry (decimal and binary prefixes, bytes, bits, FLOP, tokens, USD…)."""

MAX_UNIT_LENGTH = 40
MAX_UNIT_TERMS = 6
MAX_UNIT_EXPONENT = 3

Dimensions = tuple[tuple[str, int], ...]
DIMENSIONLESS: Dimensions = ()

# Things that are counted: a prefix below one (milli-, micro-) makes no sense on them and is
# almost always a mistyped capital ("mb" for MB).
_COUNTED = {"[information]", "[compute]", "[token]", "[request]"}
_SUB_UNIT_PREFIXES = {"nano": "n", "micro": "µ", "milli": "m"}

_PHRASES: dict[Dimensions, str] = {
    (): "a plain number",
    (("[information]", 1),): "an amount of data",
    (("[time]", 1),): "a time",
    (("[information]", 1), ("[time]", -1)): "a bandwidth (data per time)",
    (("[compute]", 1),): "an amount of compute (FLOP)",
    (("[compute]", 1), ("[time]", -1)): "a compute rate (FLOP/s)",
    (("[token]", 1),): "a number of tokens",
    (("[time]", -1), ("[token]", 1)): "a token rate",
    (("[request]", 1),): "a number of requests",
    (("[request]", 1), ("[time]", -1)): "a request rate",
    (("[currency]", 1),): "an amount of money",
    (("[currency]", 1), ("[time]", -1)): "a cost per time",
    (("[currency]", 1), ("[token]", -1)): "a cost per token",
    (("[currency]", 1), ("[request]", -1)): "a cost per request",
    (("[information]", 1), ("[token]", -1)): "data per token",
    (("[power]", 1),): "a power",
    (("[power]", 1), ("[time]", 1)): "an energy",
    (("[time]", -1),): "a rate (per time)",
    (("[length]", 1),): "a length",
    (("[length]", 1), ("[time]", -1)): "a speed",
}

_BASE_SYMBOLS = {
    "[information]": "B",
    "[time]": "s",
    "[compute]": "FLOP",
    "[token]": "tok",
    "[request]": "req",
    "[currency]": "USD",
    "[power]": "W",
    "[length]": "m",
}

# Shown when a unit is unknown: the spellings people mean.
COMMON_UNITS = (
    "B",
    "kB",
    "MB",
    "GB",
    "TB",
    "PB",
    "KiB",
    "MiB",
    "GiB",
    "TiB",
    "PiB",
    "b",
    "kb",
    "Mb",
    "Gb",
    "Tb",
    "bit",
    "byte",
    "s",
    "ms",
    "µs",
    "us",
    "ns",
    "min",
    "h",
    "FLOP",
    "GFLOP",
    "TFLOP",
    "PFLOP",
    "FLOPS",
    "GFLOPS",
    "TFLOPS",
    "PFLOPS",
    "tok",
    "tokens",
    "Mtok",
    "tok/s",
    "req",
    "requests",
    "req/s",
    "$",
    "USD",
    "cents",
    "%",
    "W",
    "kW",
    "kWh",
    "J",
    "m",
    "cm",
    "km",
)


@dataclass(frozen=True)
class UnitSpec:
    """A unit as written (`text`), its size in base units (`factor`) and its `dimensions`.

    `noun` is set for a counted noun that is not a physical unit ("GPUs", "replicas"): its
    values are plain counts, and an answer may repeat the noun ("8 GPUs"). `synonyms` are other
    ways a part's scenario lets a learner write this unit (see `synonym_error`).
    """

    text: str
    factor: float
    dimensions: Dimensions
    noun: str | None = None
    synonyms: tuple[str, ...] = ()

    @property
    def phrase(self) -> str:
        """Plain words for the kind of quantity ("an amount of data")."""
        if self.noun:
            return f"a number of {self.noun}"
        return dimension_phrase(self.dimensions)

    @property
    def is_percent(self) -> bool:
        return self.text.strip() == "%"

    def to_base(self, value: float) -> float:
        """`value` in this unit -> base units."""
        return value * self.factor

    def from_base(self, value: float) -> float:
        """`value` in base units -> this unit."""
        return value / self.factor


def dimension_phrase(dimensions: Dimensions) -> str:
    """Plain words for a dimension: "a bandwidth (data per time)", or its base units."""
    if dimensions in _PHRASES:
        return _PHRASES[dimensions]
    return "a quantity in " + base_unit_text(dimensions)


def base_unit_text(dimensions: Dimensions) -> str:
    """The base unit of a dimension, written out: (("[information]", 1), ("[time]", -1)) -> B/s."""
    if not dimensions:
        return "1"
    top = [_power(dimension, exponent) for dimension, exponent in dimensions if exponent > 0]
    bottom = [_power(dimension, -exponent) for dimension, exponent in dimensions if exponent < 0]
    text = "·".join(top) or "1"
    if bottom:
        text += "/" + ("·".join(bottom) if len(bottom) == 1 else "(" + "·".join(bottom) + ")")
    return text


def _power(dimension: str, exponent: int) -> str:
    symbol = _BASE_SYMBOLS.get(dimension, dimension.strip("[]"))
    return symbol if exponent == 1 else f"{symbol}^{exponent}"


_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SCALE_WORDS = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_TOKEN = re.compile(
    r"""\s*(?:
        (?P<op>/|\*|·|⋅)
      | (?P<num>(?:\d{1,3}(?:,\d{3}){1,4}|\d{1,13})(?:\.\d{1,6})?)
        (?:\s*(?P<numscale>[kKM])(?![A-Za-zµμ]))?
      | (?P<name>[A-Za-zµμ]+|\$|%)
        (?:\s*(?:\^|\*\*)\s*(?P<exp>[-+−]?\d)|(?P<sup>[⁻⁺]?[⁰¹²³⁴⁵⁶⁷⁸⁹]))?
    )""",
    re.VERBOSE,
)
_NUMBER_SCALES = {"k": 1e3, "K": 1e3, "M": 1e6}
# "per", and "a"/"an" between two units as in "$2.50 an hour", "45 tokens a second".
_PER_WORDS = re.compile(r"\bper\b|(?<=\S)\s*\ban?\s+(?=[A-Za-z$\d])")


def parse_unit(text: str) -> UnitSpec:
    """Read a unit expression such as ``GB``, ``tok/s``, ``$/h``, ``$ per million tokens``.

    Supports products and quotients (``*``, ``·``, ``/``, ``per``), small integer exponents
    (``s^2``, ``s**-1``, ``s²``), scale words and numbers (``per 1M tokens``). Names resolve
    through `UNITS` with SI and binary prefixes and plurals. Raises `ParseError` with a
    suggestion for an unknown or ambiguous name.
    """
    if not isinstance(text, str):
        raise ParseError("a unit must be text")
    if len(text) > MAX_UNIT_LENGTH:
        raise ParseError(f"the unit is too long (over {MAX_UNIT_LENGTH} characters)")
    return _parse_unit_cached(text)


@lru_cache(maxsize=2048)
def _parse_unit_cached(text: str) -> UnitSpec:
    source = _PER_WORDS.sub("/", text.strip())
    factor = 1.0
    exponents: dict[str, int] = {}
    position = 0
    divide = False
    expect_term = True
    scale = 1.0
    scaled = False
    terms = 0
    while position < len(source):
        if source[position:].isspace():
            break
        match = _TOKEN.match(source, position)
        if not match or match.end() == position:
            rest = source[position:].strip()
            raise ParseError(f"'{rest}' is not part of a unit I can read")
        position = match.end()
        if match["op"]:
            if terms == 0:
                raise ParseError(f"'{text.strip()}' starts with an operator")
            if expect_term or scaled:
                raise ParseError(f"'{text.strip()}' has an operator where a unit should be")
            divide = match["op"] == "/"
            expect_term = True
            continue
        name = match["name"]
        letter_scale = name in _NUMBER_SCALES and _name_follows(source, position, match)
        if match["num"] or name.lower() in _SCALE_WORDS or letter_scale:
            if scaled:
                raise ParseError(f"'{text.strip()}' has two numbers in a row")
            if match["num"]:
                number = float(match["num"].replace(",", ""))
                scale = number * _NUMBER_SCALES.get(match["numscale"] or "", 1.0)
            elif letter_scale:
                scale = _NUMBER_SCALES[name]
            else:
                scale = _SCALE_WORDS[name.lower()]
            scaled = True
            continue
        exponent_text = match["exp"] or (match["sup"] or "").translate(_SUPERSCRIPTS)
        exponent = int(exponent_text.replace("−", "-")) if exponent_text else 1
        if not 1 <= abs(exponent) <= MAX_UNIT_EXPONENT:
            raise ParseError(
                f"'{text.strip()}' raises a unit to the power {exponent} (powers from "
                f"-{MAX_UNIT_EXPONENT} to {MAX_UNIT_EXPONENT}, not 0, are allowed)"
            )
        name_factor, name_dimensions = _resolve_name(name)
        sign = -1 if divide else 1
        factor *= (scale * name_factor) ** (sign * exponent)
        if not 1e-60 < factor < 1e60:
            raise ParseError(f"'{text.strip()}' is too large or too small a unit")
        for dimension, power in name_dimensions:
            exponents[dimension] = exponents.get(dimension, 0) + sign * exponent * power
        terms += 1
        if terms > MAX_UNIT_TERMS:
            raise ParseError(f"the unit has more than {MAX_UNIT_TERMS} parts")
        divide = False
        expect_term = False
        scale = 1.0
        scaled = False
    if scaled:
        raise ParseError(f"'{text.strip()}' ends with a number that scales no unit")
    if terms == 0:
        raise ParseError("no unit was given")
    if expect_term:
        raise ParseError(f"'{text.strip()}' ends with an operator")
    dimensions = tuple(sorted((d, e) for d, e in exponents.items() if e != 0))
    return UnitSpec(text=text.strip(), factor=factor, dimensions=dimensions)


def _name_follows(source: str, position: int, match: re.Match) -> bool:
    """Whether a lone "k", "K" or "M" is a scale ("$2.16/M tokens", "per k requests"): another
    unit name follows it after a space, and it carries no exponent."""
    if match["exp"] or match["sup"] or not source[position : position + 1].isspace():
        return False
    following = _TOKEN.match(source, position)
    return following is not None and following["name"] is not None


@lru_cache(maxsize=1024)
def _resolve_name(name: str) -> tuple[float, Dimensions]:
    """The size in base units and the dimensions of one unit name ("GB", "tokens", "MTok").

    A name in the wrong case is read as the one unit whose spelling it matches in any case
    ("MTok" and "mtok" are Mtok, "KW" is kW, "MS" ms), leaving out spellings no one means
    (millitokens, megaseconds), and refused when the spellings it matches mean different
    things: "mb" could be MB or Mb, "Kb" kb or kB, "mw" mW or MW. So bits and bytes stay apart,
    and so do milli- and mega- wherever both make sense.
    """
    try:
        return _resolve_exact(name)
    except ParseError:
        meanings = _case_folded(name)
        if len(meanings) == 1:
            return meanings[0]
        raise


def _resolve_exact(name: str) -> tuple[float, Dimensions]:
    found = _lookup(name)
    if found is None:
        raise ParseError(f"'{name}' is not a unit I know{_suggestion(name)}")
    prefix, unit, factor, dimensions = found
    if _is_odd_time(prefix, unit, dimensions):
        raise ParseError(f"'{name}' would mean {prefix}{unit}s{_suggestion(name)}")
    if _is_sub_unit_count(prefix, dimensions):
        upper = name[0].upper() + name[1:]
        suggestion = _suggestion(name) or f" (did you mean {upper}?)"
        units = unit if unit.endswith("s") else unit + "s"
        raise ParseError(
            f"'{name}' would mean {prefix}{units}, a fraction of one {unit}{suggestion}"
        )
    return factor, dimensions


def _lookup(name: str) -> tuple[str, str, float, Dimensions] | None:
    """(prefix, unit name, size in base units, dimensions) of a unit name as Pint reads it."""
    if name == "$":
        name = "USD"
    elif name == "%":
        name = "percent"
    try:
        candidates = UNITS.parse_unit_name(name)
    except (pint.errors.PintError, ValueError, KeyError):
        candidates = ()
    if not candidates:
        return None
    prefix, unit, _suffix = candidates[0]
    quantity = UNITS.Quantity(1, name).to_base_units()
    # Pint types an exponent as any scalar; a unit's are whole numbers.
    dimensions = tuple(sorted((d, int(cast(float, e))) for d, e in quantity.dimensionality.items()))
    return prefix, unit, float(quantity.magnitude), dimensions


def _is_sub_unit_count(prefix: str, dimensions: Dimensions) -> bool:
    """A prefix below one on a counted thing (millibytes): a mistyped capital, not a unit."""
    return prefix in _SUB_UNIT_PREFIXES and bool(_COUNTED & {d for d, _ in dimensions})


def _is_odd_time(prefix: str, unit: str, dimensions: Dimensions) -> bool:
    """Megaseconds, kilohours, millihours: no one means them ("Ms" and "MS" are milliseconds).
    Only the second takes a prefix, and only one below one."""
    if not prefix or dimensions != (("[time]", 1),):
        return False
    return unit != "second" or prefix not in _SUB_UNIT_PREFIXES


def _is_meaningless(prefix: str, unit: str, dimensions: Dimensions) -> bool:
    """A spelling no one means: millibytes, megaseconds."""
    return _is_sub_unit_count(prefix, dimensions) or _is_odd_time(prefix, unit, dimensions)


def _case_folded(name: str) -> tuple[tuple[float, Dimensions], ...]:
    """The distinct meanings of the unit spellings that equal `name` in any case."""
    return tuple(meaning for meaning, _ in _folds(name))


def _folds(name: str) -> list[tuple[tuple[float, Dimensions], str]]:
    """(meaning, a spelling of it) for each distinct meaning of the unit spellings other than
    `name` that equal it in any case; the spelling is a common one where there is one. A
    single letter is never folded: "M" is more often "million" than the metre."""
    if len(name) < 2:
        return []
    meanings: dict[tuple[str, Dimensions], tuple[tuple[float, Dimensions], list[str]]] = {}
    for spelling in _spellings().get(name.lower(), ()):
        if spelling == name:
            continue
        found = _lookup(spelling)
        if found is None or _is_meaningless(found[0], found[1], found[3]):
            continue  # a meaningless spelling such as millitokens
        factor, dimensions = found[2], found[3]
        entry = meanings.setdefault((f"{factor:.12g}", dimensions), ((factor, dimensions), []))
        entry[1].append(spelling)
    return [
        (meaning, min(spellings, key=lambda s: (s not in COMMON_UNITS, len(s), s)))
        for meaning, spellings in meanings.values()
    ]


@lru_cache(maxsize=1)
def _spellings() -> dict[str, frozenset[str]]:
    """Every prefixed unit spelling of the registry, in singular and plural, by lower case."""
    by_lower: dict[str, set[str]] = {}
    # Pint lists prefixes only in its registry's table; unit names come from iterating it.
    prefixes = [""] + [p for p in UNITS._prefixes if p]
    for unit in UNITS:
        for prefix in prefixes:
            for suffix in ("", "s"):
                spelling = prefix + unit + suffix
                by_lower.setdefault(spelling.lower(), set()).add(spelling)
    return {lower: frozenset(spellings) for lower, spellings in by_lower.items()}


def _suggestion(name: str) -> str:
    folded = sorted(spelling for _, spelling in _folds(name))
    same_letters = folded or [unit for unit in COMMON_UNITS if unit.lower() == name.lower()]
    close = same_letters or difflib.get_close_matches(name, COMMON_UNITS, n=3, cutoff=0.6)
    if not close:
        return ""
    return " (did you mean " + " or ".join(close) + "?)"


MONEY: Dimensions = (("[currency]", 1),)
_PER = re.compile(r"/|\bper\b")


@lru_cache(maxsize=256)
def money_scale(unit: UnitSpec) -> float | None:
    """For a money-per-something unit ("$/Mtok", "cents per 1k tokens", "$/h"), the size in USD of
    its money term (1 for "$", 0.01 for "cents"); None for any other unit."""
    if unit.noun or unit.dimensions == MONEY or ("[currency]", 1) not in unit.dimensions:
        return None
    numerator = _PER.split(unit.text, maxsplit=1)[0].strip()
    try:
        money = parse_unit(numerator)
    except ParseError:
        return None
    return money.factor if money.dimensions == MONEY else None


_NOUN = re.compile(r"^[A-Za-z][A-Za-z-]{0,30}$")
TIMES_SIGNS = ("×", "x")


@lru_cache(maxsize=512)
def display_unit(text: str) -> UnitSpec:
    """The unit of a part or parameter as authored: a physical unit, "" (a plain number),
    "×"/"x" (a ratio), or a counted noun ("GPUs").

    Raises `ParseError` for something that looks like a mistyped unit ("GIB", "TBB").
    """
    text = text.strip()
    if text == "":
        return UnitSpec(text="", factor=1.0, dimensions=DIMENSIONLESS)
    if text in TIMES_SIGNS:
        return UnitSpec(text=text, factor=1.0, dimensions=DIMENSIONLESS)
    try:
        return parse_unit(text)
    except ParseError:
        # A plain word that resembles no unit is a counted noun; "GIB" or "TBB" are typos.
        if not _NOUN.match(text) or _suggestion(text):
            raise
        return UnitSpec(text=text, factor=1.0, dimensions=DIMENSIONLESS, noun=text)


def same_noun(typed: str, noun: str) -> bool:
    """Whether `typed` names the counted noun `noun`: in singular or plural, in any case, with a
    space or a hyphen between its words ("GPU" ~ "GPUs", "GPU hours" ~ "GPU-hours")."""
    return _noun_words(typed) == _noun_words(noun)


def names_noun(typed: str, noun: str) -> bool:
    """Whether `typed` names the counted noun `noun` (as `same_noun`), perhaps after words that
    only qualify it: "12 spare replicas", "8 H100 GPUs", "171 concurrent seqs". A qualifier is a
    word that is not a unit, "per", "a" or "each" ("4 GPUs per replica" is not a number of
    replicas)."""
    words = _WORDS.split(typed.strip())
    length = len(_noun_words(noun))
    if not length or len(words) < length:
        return False
    if not same_noun(" ".join(words[-length:]), noun):
        return False
    return all(is_qualifier(word) for word in words[:-length])


_WORDS = re.compile(r"[\s-]+")
_QUALIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,30}$")
_NOT_QUALIFIERS = frozenset({"per", "a", "an", "each", "every", "of"})


def is_qualifier(word: str) -> bool:
    """A word that qualifies a unit or noun after it without changing it ("spare", "H100")."""
    if not _QUALIFIER.match(word) or word.lower() in _NOT_QUALIFIERS:
        return False
    try:
        parse_unit(word)
    except ParseError:
        return True
    return False


def _noun_words(text: str) -> tuple[str, ...]:
    words = [word.lower() for word in _WORDS.split(text.strip()) if word]
    if words:
        words[-1] = _singular(words[-1])
    return tuple(words)


def _singular(word: str) -> str:
    word = word.strip().lower()
    for ending in ("es", "s"):
        if word.endswith(ending) and len(word) > len(ending) + 1:
            stem = word[: -len(ending)]
            if ending == "es" and not stem.endswith(("ch", "sh", "x", "ss")):
                continue
            return stem
    return word


# Synonyms: other ways a scenario lets a learner write a part's unit.

MAX_SYNONYMS = 12
MAX_SYNONYM_LENGTH = 40
_NOUN_SYNONYM = re.compile(r"^[A-Za-z][A-Za-z0-9]*(?:[ -][A-Za-z0-9]+){0,3}$")


@dataclass(frozen=True)
class Synonyms:
    """A part unit's synonyms, sorted into counted nouns ("seqs", "GPU-h", "experts"), each read as
    one of the part's unit, and units of another dimension ("$/1k req" for a part in $ that asks
    what 1,000 requests cost), each of which is one of the part's unit."""

    nouns: tuple[str, ...]
    units: tuple[UnitSpec, ...]


@lru_cache(maxsize=512)
def synonyms_of(unit: UnitSpec) -> Synonyms:
    """The nouns and units a learner may write for `unit`: its own noun and its synonyms."""
    nouns = [unit.noun] if unit.noun else []
    units = []
    for synonym in unit.synonyms:
        spec = _synonym_unit(synonym)
        if spec is None:
            nouns.append(synonym)
        else:
            units.append(spec)
    return Synonyms(tuple(nouns), tuple(units))


def _synonym_unit(synonym: str) -> UnitSpec | None:
    try:
        return parse_unit(synonym)
    except ParseError:
        return None


def synonym_error(unit: UnitSpec, synonym: object, others: tuple[str, ...] = ()) -> str | None:
    """Why `synonym` cannot be a synonym of the part unit `unit` (None when it can). `others`
    are the synonyms listed before it.

    A synonym is a counted noun (letters and digits, up to four words joined by spaces or
    hyphens) that is not a unit, or a unit of another dimension than the part's, not a plain
    number: one of the same dimension is read at its own size already, and would contradict the
    part's unit if it were declared equal to it.
    """
    if not isinstance(synonym, str):
        return "must be text"
    text = synonym.strip()
    if not text or len(text) > MAX_SYNONYM_LENGTH:
        return f"must be 1 to {MAX_SYNONYM_LENGTH} characters"
    spec = _synonym_unit(text)
    if spec is not None:
        if not spec.dimensions:
            return f"'{text}' is a plain number, not another way to write {_named(unit)}"
        if spec.dimensions == unit.dimensions:
            return (
                f"'{text}' is {spec.phrase}, like the part's unit, so it is read at its own size "
                "already; a synonym is a noun, or a unit of another kind that means one "
                f"{unit.text or 'unit'} (such as '$/1k req' for the cost of 1,000 requests)"
            )
        for other in others:
            other_spec = _synonym_unit(other.strip())
            if other_spec is not None and other_spec.dimensions == spec.dimensions:
                return (
                    f"'{text}' and '{other.strip()}' are both {spec.phrase}: only one unit of "
                    "each kind can mean the part's unit"
                )
        return None
    if not _NOUN_SYNONYM.match(text):
        return (
            f"'{text}' is neither a unit nor a noun (letters and digits, up to four words "
            "joined by spaces or hyphens)"
        )
    if unit.noun and same_noun(text, unit.noun):
        return f"'{text}' is the part's unit already"
    for other in others:
        if same_noun(text, other):
            return f"'{text}' is listed twice (as '{other.strip()}')"
    return None


def _named(unit: UnitSpec) -> str:
    return unit.text if unit.text else "a plain number"
