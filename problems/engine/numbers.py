"""Rounding and writing numbers for people, in exact decimal arithmetic.

Values shown to a learner are rounded in `decimal` from the shortest repr of the float, so
rounding is the same on every machine and "1.065 to 3 significant figures" is 1.07, as a person
rounds it (half up), not 1.06 as binary floating point would.
"""

import math
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from functools import lru_cache

SCIENTIFIC_ABOVE = Decimal("1e15")
SCIENTIFIC_BELOW = Decimal("1e-4")
DEFAULT_SIGNIFICANT_FIGURES = 3
_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


Real = float | int | Decimal
"""A number as the engine holds it: a float or int computed by a formula, or an exact decimal."""


def to_decimal(value: Real) -> Decimal:
    """The decimal a person reads for `value`: ints exactly, floats by their shortest repr."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, int):
        return Decimal(value)
    return Decimal(repr(float(value)))


def in_unit(value: Real, factor: float) -> Decimal:
    """`value` (base units) divided by a unit's `factor`, in decimal, so that 0.0032 s is
    exactly 3.2 ms and a value on a rounding boundary rounds the same way in every unit."""
    if factor == 1:
        return to_decimal(value)
    return to_decimal(value) / to_decimal(factor)


def round_significant(value: Real, figures: int, rounding: str = ROUND_HALF_UP) -> Decimal:
    """`value` rounded to `figures` significant figures (half up by default) [exact decimal]."""
    number = to_decimal(value)
    if number == 0:
        return Decimal(0)
    exponent = number.adjusted() - figures + 1
    rounded = number.quantize(Decimal(1).scaleb(exponent), rounding=rounding)
    if rounded.adjusted() > number.adjusted():
        # Rounding carried into the next power of ten (9.996 → 10.00): one place fewer, so the
        # result keeps `figures` figures when written (10.0).
        rounded = rounded.quantize(Decimal(1).scaleb(exponent + 1), rounding=rounding)
    return rounded


def round_decimals(value: Real, decimals: int, rounding: str = ROUND_HALF_UP) -> Decimal:
    """`value` rounded to `decimals` places after the point (negative: tens, hundreds…)."""
    return to_decimal(value).quantize(Decimal(1).scaleb(-decimals), rounding=rounding)


def round_up_significant(value: Real, figures: int) -> Decimal:
    """The smallest number with `figures` significant figures that is >= `value`."""
    return round_significant(value, figures, ROUND_CEILING)


def round_down_significant(value: Real, figures: int) -> Decimal:
    """The largest number with `figures` significant figures that is <= `value`."""
    return round_significant(value, figures, ROUND_FLOOR)


def as_number(number: Decimal) -> int | float:
    """A rounded decimal as the Python number formulas compute with (int when whole)."""
    if number == number.to_integral_value() and abs(number) < 2**53:
        return int(number)
    return float(number)


def format_number(
    value: Real,
    *,
    significant: int | None = None,
    decimals: int | None = None,
    exact: bool = False,
) -> str:
    """Write `value` for a reader (see `_format_number`). Results are cached: the same numbers
    are written over and over (a 1,000-seed check writes each catalogue figure thousands of
    times), and the decimal arithmetic is the costly part."""
    kind: type = value.__class__
    if kind is float and value != value:
        raise ValueError(f"cannot write the non-finite number {value}")
    if kind is not int and kind is not float:
        # Decimal("1.0") == Decimal("1.00") but they are written differently: not cached.
        return _format_number(value, significant=significant, decimals=decimals, exact=exact)
    return _format_cached(kind, value, significant, decimals, exact)


@lru_cache(maxsize=65536)
def _format_cached(
    kind: type, value: float | int, significant: int | None, decimals: int | None, exact: bool
) -> str:
    return _format_number(value, significant=significant, decimals=decimals, exact=exact)


def _format_number(
    value: Real,
    *,
    significant: int | None = None,
    decimals: int | None = None,
    exact: bool = False,
) -> str:
    """Write `value` for a reader.

    - ``exact``: every digit of the value as stored (for numbers already rounded for display).
    - ``significant``: that many significant figures, trailing zeros kept (1.10).
    - ``decimals``: that many digits after the point.
    - none of these: whole numbers exactly, others to 3 significant figures without trailing
      zeros (0.73, not 0.730).

    Thousands are grouped with commas (32,768); magnitudes of 1e15 and above or below 1e-4 are
    written in scientific notation (1.07 × 10¹⁵), which the answer parser reads back.
    """
    automatic = not exact and significant is None and decimals is None
    if automatic:
        # Fast path for whole numbers, the most common case in texts and steps.
        if value.__class__ is int and -(10**15) < value < 10**15:
            return f"{value:,}"
        if value.__class__ is float and value.is_integer() and abs(value) < 1e15:
            return f"{int(value):,}"
    if isinstance(value, bool):
        value = int(value)
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"cannot write the non-finite number {value}")
    number = to_decimal(value)
    if automatic:
        if number == number.to_integral_value() and abs(number) < SCIENTIFIC_ABOVE:
            exact = True
        else:
            significant = DEFAULT_SIGNIFICANT_FIGURES
    magnitude = abs(number)
    if magnitude != 0 and (magnitude >= SCIENTIFIC_ABOVE or magnitude < SCIENTIFIC_BELOW):
        return _scientific(number, significant, exact, strip=automatic)
    if exact:
        rounded = number
    elif decimals is not None:
        rounded = round_decimals(number, decimals)
    else:
        # `significant` is set here: `automatic` set it, and `exact` and `decimals` return above.
        figures = DEFAULT_SIGNIFICANT_FIGURES if significant is None else significant
        rounded = round_significant(number, figures)
        if rounded != 0 and abs(rounded) >= SCIENTIFIC_ABOVE:
            return _scientific(number, significant, exact, strip=automatic)
    return _grouped(rounded, strip=exact or automatic)


def _grouped(number: Decimal, strip: bool) -> str:
    text = format(number, "f")
    if strip and "." in text:
        text = text.rstrip("0").rstrip(".")
    sign = "-" if text.startswith("-") else ""
    text = text.lstrip("-")
    whole, _, fraction = text.partition(".")
    whole = f"{int(whole):,}"
    if sign and set(whole + fraction) <= {"0", ","}:
        sign = ""
    return sign + whole + ("." + fraction if fraction else "")


def _scientific(number: Decimal, significant: int | None, exact: bool, strip: bool) -> str:
    exponent = number.adjusted()
    mantissa = number.scaleb(-exponent)
    if exact or significant is None:
        text = format(mantissa.normalize(), "f")
    else:
        mantissa = mantissa.quantize(Decimal(1).scaleb(1 - significant), rounding=ROUND_HALF_UP)
        if abs(mantissa) >= 10:
            mantissa = mantissa.scaleb(-1)
            exponent += 1
            mantissa = mantissa.quantize(Decimal(1).scaleb(1 - significant), rounding=ROUND_HALF_UP)
        text = format(mantissa, "f")
        if strip and "." in text:
            text = text.rstrip("0").rstrip(".")
    return f"{text} × 10{str(exponent).translate(_SUPERSCRIPT)}"
