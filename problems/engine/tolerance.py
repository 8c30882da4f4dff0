"""How close an answer must be: tolerance modes, the accepted interval, the "close" band.

Modes (as PrairieLearn's number input): relative (default 1%), absolute (in the part's unit, for
keys near zero), both (the wider wins), or significant figures (the answer must agree with the key
to that many figures). A value within `Partial.factor` times the tolerance earns partial credit.
"""

import math
from dataclasses import dataclass

DEFAULT_RELATIVE = 0.01


@dataclass(frozen=True)
class Tolerance:
    """Accepted distance from the key, in the part's display unit."""

    relative: float = DEFAULT_RELATIVE
    absolute: float = 0.0
    significant: int | None = None

    def half_width(self, key: float) -> float:
        """Half the width of the accepted interval around `key` [part unit]."""
        if self.significant is not None:
            if key == 0:
                return self.absolute
            exponent = math.floor(math.log10(abs(key)))
            return max(0.5 * 10.0 ** (exponent - self.significant + 1), self.absolute)
        return max(self.relative * abs(key), self.absolute)

    def accepts(self, value: float, key: float) -> bool:
        # A hair of slack so that a bound typed exactly as stated ("1.063") is accepted.
        width = self.half_width(key)
        return abs(value - key) <= width * (1 + 1e-9) + 1e-300

    def describe(self) -> str:
        """The rule in words: "within 1%", "within ±0.5", "to 3 significant figures"."""
        if self.significant is not None:
            return f"to {self.significant} significant figures"
        relative = f"within {_percent(self.relative)}" if self.relative else ""
        absolute = f"within ±{self.absolute:g}" if self.absolute else ""
        if relative and absolute:
            return f"{relative} or {absolute.removeprefix('within ')}, whichever is wider"
        return relative or absolute or "exactly"

    def to_json(self) -> dict:
        if self.significant is not None:
            return {"significant": self.significant}
        data = {"relative": self.relative}
        if self.absolute:
            data["absolute"] = self.absolute
        return data


@dataclass(frozen=True)
class Partial:
    """Partial credit for an answer within `factor` times the tolerance (0 disables it)."""

    factor: float = 3.0
    score: float = 0.5


def _percent(fraction: float) -> str:
    return f"{fraction * 100:g}%"
