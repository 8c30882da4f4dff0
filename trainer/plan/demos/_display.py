"""Numbers as the demos show them: a readable text in the right unit, and the exact value.

Every number a demo shows is a :class:`Shown`: it renders as ``<data value="exact">text</data>``
(the HTML element made for a machine-readable value beside its human text), so tests and
screen readers get the estimator's exact figure while the learner reads "1.07 TB". Units are
decimal, as in the estimator (GB = 1e9 B); a GiB figure is written as such where it is shown.

The digits come from the engine's formatter (:func:`problems.engine.numbers.format_number`), so a
demo writes a number exactly as a worked solution does: rounded half up on its decimal text
(1.065 TB is 1.07 TB, where binary floating point would give 1.06), whole numbers in full,
others to 3 significant figures. Values are scaled into a unit in decimal too
(:func:`~problems.engine.numbers.in_unit`), and the unit is chosen after rounding, so 999.96 GB
reads "1 TB", not "1,000 GB".
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.utils.html import format_html
from django.utils.safestring import SafeString

from problems.engine.numbers import (
    format_number,
    in_unit,
    round_decimals,
    round_significant,
    to_decimal,
)

FIGURES = 3
# (shown from, unit size, unit): the first row whose threshold the rounded value reaches.
_BYTE_UNITS = ((1e15, 1e15, "PB"), (1e12, 1e12, "TB"), (1e9, 1e9, "GB"), (1e6, 1e6, "MB"))
_FLOP_PREFIXES = tuple(
    (10.0**power, 10.0**power, prefix)
    for power, prefix in ((18, "E"), (15, "P"), (12, "T"), (9, "G"), (6, "M"), (3, "k"))
)
# A duration moves to the larger unit from twice its size up (90 s, 1.5 h, 48 h, 3 days).
_DURATION_UNITS = (
    (3 * 86400, 86400, "days"),
    (2 * 3600, 3600, "h"),
    (120, 60, "min"),
    (1, 1, "s"),
    (1e-3, 1e-3, "ms"),
    (0, 1e-6, "µs"),
)


Number = float | int


def _shown_magnitude(value: Number) -> Decimal:
    """|value| as it will read, rounded to the figures shown: what picks the unit."""
    return abs(round_significant(value, FIGURES))


def _scaled(value: Number, units: Iterable[tuple[float, float, str]]) -> str | None:
    """``value`` in the first unit of ``units`` whose threshold it reaches once rounded, or
    None when it reaches none."""
    shown = _shown_magnitude(value)
    for threshold, size, unit in units:
        if shown >= to_decimal(threshold):
            return f"{format_number(in_unit(value, size))} {unit}"
    return None


def number_text(value: Number) -> str:
    """A plain number as the engine writes it: whole numbers in full (32,768), others to 3
    significant figures (3.36, 0.0123), magnitudes beyond 1e15 or below 1e-4 as × 10ⁿ."""
    return format_number(value)


def whole(value: Number) -> str:
    """A count, rounded half up to a whole number, with thousands separators."""
    return format_number(value, decimals=0)


def bytes_text(value: Number) -> str:
    """Bytes in decimal units: ``327,680 B`` below 1 MB exactly, else ``1.07 TB``."""
    return _scaled(value, _BYTE_UNITS) or f"{whole(value)} B"


def seconds_text(value: Number) -> str:
    """A duration: µs, ms, s, min, h or days, whichever reads best."""
    if value == 0:
        return "0 s"
    # The last unit's threshold is 0: every duration reaches one.
    return _scaled(value, _DURATION_UNITS) or f"{number_text(value)} s"


def flops_text(value: Number, unit: str = "FLOP/s") -> str:
    """FLOP/s (or FLOP) with an SI prefix: ``989 TFLOP/s``."""
    units = tuple((threshold, size, prefix + unit) for threshold, size, prefix in _FLOP_PREFIXES)
    return _scaled(value, units) or f"{number_text(value)} {unit}"


def dollars_text(value: Number) -> str:
    """Dollars: whole from $100, with cents from $1, else 3 significant figures ($0.0105)."""
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    if abs(round_decimals(magnitude, 2)) >= 100:
        return f"{sign}${whole(magnitude)}"
    if _shown_magnitude(magnitude) >= 1:
        return f"{sign}${format_number(magnitude, decimals=2)}"
    digits = number_text(magnitude)
    if "." in digits and "×" not in digits and len(digits.partition(".")[2]) == 1:
        digits += "0"  # $0.50, not $0.5
    return f"{sign}${digits}"


def percent_text(value: Number) -> str:
    """A share (0.75) as a percentage (75%), to 3 significant figures."""
    return f"{format_number(in_unit(value, 0.01))}%"


_FORMATTERS: dict[str, Callable[[float], str]] = {
    "bytes": bytes_text,
    "seconds": seconds_text,
    "flops": flops_text,
    "flop": lambda value: flops_text(value, "FLOP"),
    "dollars": dollars_text,
    "percent": percent_text,
    "count": whole,
    "number": number_text,
}


@dataclass(frozen=True, slots=True)
class Shown:
    """One number of a demo: its name (stable, for tests), exact value, and how it reads."""

    name: str
    value: float
    text: str

    def __html__(self) -> SafeString:
        return format_html(
            '<data value="{}" data-name="{}">{}</data>', repr(self.value), self.name, self.text
        )

    # Templates turn a value into a string before escaping it, so the string is the markup;
    # use ``text`` for plain text.
    __str__ = __html__


def show(name: str, value: Number | Decimal, kind: str, suffix: str = "") -> Shown:
    """A :class:`Shown` number; ``kind`` picks the unit (bytes, seconds, flops (FLOP/s), flop,
    dollars, percent, count, number) and ``suffix`` follows the text ("/token", " tokens/s")."""
    number = float(value)
    return Shown(name, number, _FORMATTERS[kind](number) + suffix)
