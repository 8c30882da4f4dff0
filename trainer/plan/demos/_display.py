"""Numbers as the demos show them: a readable text in the right unit, and the exact value.

Every number a demo shows is a :class:`Shown`: it renders as ``<data value="exact">text</data>``
(the HTML element made for a machine-readable value beside its human text), so tests and
screen readers get the estimator's exact figure while the learner reads "1.07 TB". Units are
decimal, as in the estimator (GB = 1e9 B); a GiB figure is written as such where it is shown.
"""

import math
from dataclasses import dataclass

from django.utils.html import format_html

_BYTE_UNITS = ((1e15, "PB"), (1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB"))
_FLOP_UNITS = ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def significant(value, digits=3):
    """``value`` rounded to ``digits`` significant figures, written without an exponent."""
    if value == 0 or not math.isfinite(value):
        return f"{value:g}"
    magnitude = math.floor(math.log10(abs(value)))
    decimals = max(digits - 1 - magnitude, 0)
    rounded = round(value, decimals)
    # Rounding can carry into the next power of ten (999.6 → 1,000): one decimal fewer then.
    if rounded and math.floor(math.log10(abs(rounded))) > magnitude:
        decimals = max(decimals - 1, 0)
    if rounded == int(rounded) and value == int(value):
        decimals = 0  # an exact whole number reads better without ".0"
    return f"{rounded:,.{decimals}f}"


def whole(value):
    """A count, with thousands separators."""
    return f"{value:,.0f}"


def bytes_text(value):
    """Bytes in decimal units: ``327,680 B`` below 1 MB exactly, else ``1.07 TB``."""
    if abs(value) < 1e6:
        return f"{whole(value)} B"
    for scale, unit in _BYTE_UNITS:
        if abs(value) >= scale:
            return f"{significant(value / scale)} {unit}"
    return f"{whole(value)} B"  # pragma: no cover (every value ≥ 1e6 matched above)


def seconds_text(value):
    """A duration: µs, ms, s, min or h, whichever reads best."""
    magnitude = abs(value)
    if magnitude == 0:
        return "0 s"
    if magnitude < 1e-3:
        return f"{significant(value * 1e6)} µs"
    if magnitude < 1:
        return f"{significant(value * 1e3)} ms"
    if magnitude < 120:
        return f"{significant(value)} s"
    if magnitude < 2 * 3600:
        return f"{significant(value / 60)} min"
    if magnitude < 3 * 86400:
        return f"{significant(value / 3600)} h"
    return f"{significant(value / 86400)} days"


def flops_text(value, unit="FLOP/s"):
    """FLOP/s (or FLOP) with an SI prefix: ``989 TFLOP/s``."""
    for scale, prefix in _FLOP_UNITS:
        if abs(value) >= scale:
            return f"{significant(value / scale)} {prefix}{unit}"
    return f"{significant(value)} {unit}"


def dollars_text(value):
    """Dollars: whole from $100, with cents from $1, else 3 significant figures ($0.0105)."""
    if abs(value) >= 100:
        return f"${whole(value)}"
    if abs(value) >= 1:
        return f"${value:,.2f}"
    return f"${significant(value)}"


def percent_text(value):
    """A share in [0, 1] as a percentage with up to 3 significant figures."""
    return f"{significant(value * 100)}%"


_FORMATTERS = {
    "bytes": bytes_text,
    "seconds": seconds_text,
    "flops": flops_text,
    "flop": lambda value: flops_text(value, "FLOP"),
    "dollars": dollars_text,
    "percent": percent_text,
    "count": whole,
    "number": significant,
}


@dataclass(frozen=True, slots=True)
class Shown:
    """One number of a demo: its name (stable, for tests), exact value, and how it reads."""

    name: str
    value: float
    text: str

    def __html__(self):
        return format_html(
            '<data value="{}" data-name="{}">{}</data>', repr(self.value), self.name, self.text
        )

    # Templates turn a value into a string before escaping it, so the string is the markup;
    # use ``text`` for plain text.
    __str__ = __html__


def show(name, value, kind, suffix=""):
    """A :class:`Shown` number; ``kind`` picks the unit (bytes, seconds, flops (FLOP/s), flop,
    dollars, percent, count, number) and ``suffix`` follows the text ("/token", " tokens/s")."""
    value = float(value)
    return Shown(name, value, _FORMATTERS[kind](value) + suffix)
