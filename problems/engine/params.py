"""Parameter spaces and reproducible draws.

Every draw comes from SHA-256 of (scenario key, version, seed, attempt, parameter name), never
from a pseudo-random generator whose stream could change between Python or numpy releases, so a
(scenario version, seed) gives the same variant on every machine and in every process. Values are
drawn at display precision (a step, or significant figures) in exact decimal arithmetic,
including the logarithms of log-uniform spaces, so what the learner reads is exactly what the
formulas compute with.
"""

import hashlib
from dataclasses import dataclass
from decimal import ROUND_FLOOR, Decimal, localcontext
from typing import Any

from .catalogue import NUMBER
from .numbers import (
    as_number,
    round_down_significant,
    round_significant,
    round_up_significant,
    to_decimal,
)
from .units import UnitSpec

_TWO_64 = Decimal(2) ** 64


def draw_integer(scenario: str, version: int, seed: int, attempt: int, name: str) -> int:
    """A 64-bit integer determined by its inputs alone [0, 2**64)."""
    message = f"{scenario}\x1f{version}\x1f{seed}\x1f{attempt}\x1f{name}".encode()
    return int.from_bytes(hashlib.sha256(message).digest()[:8], "big")


@dataclass(frozen=True)
class Param:
    """One parameter and its space.

    `space` is one of:
    - "gpu" / "model" / "format": a catalogue choice; `choices` holds the entries.
    - "values": one of the numbers in `choices`.
    - "int": low..high (inclusive) in steps of `step`.
    - "float": low..high in steps of `step`, or uniform rounded to `significant` figures.
    - "log": log-uniform on [low, high], rounded to `significant` figures (whole if `integer`).
    - "value": the fixed number `choices[0]`.

    Numbers are in `unit` (display unit); the formulas see them in base units.
    """

    name: str
    space: str
    choices: tuple[Any, ...] = ()  # catalogue entries, or numbers
    low: Decimal | None = None
    high: Decimal | None = None
    step: Decimal | None = None
    significant: int | None = None
    integer: bool = False
    unit: UnitSpec | None = None
    kind: str | type = NUMBER  # NUMBER, or a catalogue parameter's entry class

    @property
    def is_catalogue(self) -> bool:
        return self.space in ("gpu", "model", "format")

    def _bounds(self) -> tuple[Decimal, Decimal]:
        """`low` and `high`, which every space but a list of choices has (the schema checks)."""
        if self.low is None or self.high is None:
            raise ValueError(f"parameter {self.name!r} ({self.space}) has no range")
        return self.low, self.high

    def count(self) -> int | None:
        """How many values the space holds (None for continuous spaces)."""
        if self.space in ("gpu", "model", "format", "values", "value"):
            return len(self.choices)
        if self.step is not None:
            low, high = self._bounds()
            return int((high - low) / self.step) + 1
        return None

    def draw(self, bits: int) -> Any:
        """The parameter's value (display units) for 64 random `bits`: a catalogue entry, or a
        number."""
        if self.space in ("gpu", "model", "format", "values", "value"):
            return self.choices[bits % len(self.choices)]
        low, high = self._bounds()
        if self.step is not None:
            index = bits % (int((high - low) / self.step) + 1)
            return as_number(low + self.step * index)
        fraction = Decimal(bits) / _TWO_64
        with localcontext() as context:
            context.prec = 40
            if self.space == "log":
                log_low, log_high = low.ln(), high.ln()
                value = (log_low + (log_high - log_low) * fraction).exp()
            else:
                value = low + (high - low) * fraction
        return self._rounded(value)

    def _figures(self) -> int:
        if self.significant is None:
            raise ValueError(f"parameter {self.name!r} ({self.space}) has no significant figures")
        return self.significant

    def _rounded(self, value: Decimal) -> int | float:
        low, high = self._bounds()
        figures = self._figures()
        rounded = round_significant(value, figures)
        if rounded < low:
            rounded = round_up_significant(low, figures)
        elif rounded > high:
            rounded = round_down_significant(high, figures)
        if self.integer:
            rounded = rounded.to_integral_value(rounding=ROUND_FLOOR)
            rounded = max(rounded, low.to_integral_value(rounding="ROUND_CEILING"))
        return as_number(rounded)

    def to_base(self, value: Any) -> Any:
        """A drawn numeric value in base units (entries pass through)."""
        if self.is_catalogue or self.unit is None or self.unit.factor == 1:
            return value
        return value * self.unit.factor

    def representable(self) -> bool:
        """Whether a continuous space holds at least one value at its display precision."""
        if self.significant is None:
            return True
        bottom, top = self._bounds()
        low = round_up_significant(bottom, self.significant)
        high = round_down_significant(top, self.significant)
        if self.integer:
            return high.to_integral_value(rounding=ROUND_FLOOR) >= low
        return low <= high


def decimal_of(value: float | int | Decimal) -> Decimal:
    """A YAML/JSON number as an exact decimal (floats by their shortest repr)."""
    return to_decimal(value)
