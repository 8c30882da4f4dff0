"""Known wrong answers: per-part misconceptions and the shared library.

A misconception is one or more wrong formulas (over the scenario's names and `key`, the part's
correct value in base units) with feedback and a stable tag that statistics count. A part lists
its own (``{tag, formula, feedback}``) and library ones (``{use: <tag>, <slot>: <formula>…}``).
The unit-level library entries (bits/bytes, GB/GiB, ms/s, fraction/percent) also apply
automatically to every part whose unit they fit, unless the part sets
``unit_misconceptions: false``.

A misconception whose value falls within the tolerance of the key for a variant is suppressed
for that variant: it cannot be told apart from the right answer.
"""

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .formula import Formula
from .templates import Template
from .units import UnitSpec

TAG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MAX_TAG_LENGTH = 60


@dataclass(frozen=True)
class Misconception:
    """One misconception as compiled for a part.

    `formulas` compute wrong values (base units) from the env plus `key` and the `bindings`
    (slot name -> formula, evaluated first); `factors` are multiples of the key (unit-level
    misconceptions). `origin` is "part", "library" or "unit".
    """

    tag: str
    feedback: Template
    formulas: tuple[Formula, ...] = ()
    bindings: tuple[tuple[str, Formula], ...] = ()
    factors: tuple[float, ...] = ()
    origin: str = "part"

    def values(self, env: Mapping[str, Any], key: float) -> tuple[list[float], Mapping[str, Any]]:
        """The wrong values for a variant, and the env the feedback is rendered with."""
        if self.factors:
            return [key * factor for factor in self.factors], env
        local = dict(env)
        local["key"] = key
        for name, formula in self.bindings:
            local[name] = formula.evaluate(local)
        return [formula.evaluate(local) for formula in self.formulas], local


@dataclass(frozen=True)
class LibraryEntry:
    """A generic misconception. `slots` maps each slot to its default formula (None: the part
    must bind it). `unit_factors`, for unit-level entries, gives the multiples of the key that
    apply to a part's unit (empty when the unit does not fit)."""

    tag: str
    summary: str
    feedback: str
    formulas: tuple[str, ...] = ()
    slots: dict[str, str | None] = field(default_factory=dict)
    unit_factors: Callable[[UnitSpec], tuple[float, ...]] | None = None


def _has_information(unit: UnitSpec) -> bool:
    return any(d == "[information]" and abs(e) == 1 for d, e in unit.dimensions)


def _bits_bytes(unit: UnitSpec) -> tuple[float, ...]:
    return (8.0, 1 / 8) if _has_information(unit) and not unit.noun else ()


_PREFIX_POWERS = {"k": 1, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6}
_DATA_TERM = re.compile(r"(?<![A-Za-z])([kKMGTPE])(i?)(?:B|b|bit|byte)s?(?![A-Za-z])")


def _decimal_binary(unit: UnitSpec) -> tuple[float, ...]:
    if not _has_information(unit) or unit.noun:
        return ()
    match = _DATA_TERM.search(unit.text)
    if not match:
        return ()
    power = _PREFIX_POWERS[match[1]]
    ratio = 10.0 ** (3 * power) / 2.0 ** (10 * power)
    # A decimal unit asked (GB): the learner divided by 2**30; a binary one (GiB): by 1e9.
    return (1 / ratio,) if match[2] else (ratio,)


def _milliseconds(unit: UnitSpec) -> tuple[float, ...]:
    return (1000.0, 1 / 1000) if unit.dimensions == (("[time]", 1),) else ()


def _percent(unit: UnitSpec) -> tuple[float, ...]:
    return (0.01, 100.0) if unit.is_percent else ()


LIBRARY: dict[str, LibraryEntry] = {
    entry.tag: entry
    for entry in (
        LibraryEntry(
            tag="kv-missing-factor-2",
            summary="forgot the ×2 for keys and values",
            feedback=(
                "The cache holds a key and a value for every token, layer and KV head: "
                "2 × layers × KV heads × head dim × bytes. Your answer is half the key, as if "
                "only K or only V were stored."
            ),
            formulas=("key / 2",),
        ),
        LibraryEntry(
            tag="bits-vs-bytes",
            summary="bits where bytes belong, or bytes where bits belong",
            feedback=(
                "Your answer is off by exactly 8: check bits against bytes (1 byte = 8 bits; "
                "Gb is gigabits, GB gigabytes)."
            ),
            unit_factors=_bits_bytes,
        ),
        LibraryEntry(
            tag="gb-vs-gib",
            summary="decimal GB (1e9 B) mixed up with binary GiB (2^30 B)",
            feedback=(
                "Your answer is off by the GB/GiB ratio: 1 GB = 10^9 bytes but 1 GiB = 2^30 "
                "bytes (7.4% more; 10% for TB/TiB). Convert with the unit the part asks for."
            ),
            unit_factors=_decimal_binary,
        ),
        LibraryEntry(
            tag="ms-vs-s",
            summary="milliseconds where seconds belong, or the reverse",
            feedback=(
                "Your answer is off by exactly 1000: check milliseconds against seconds "
                "(1 s = 1000 ms)."
            ),
            unit_factors=_milliseconds,
        ),
        LibraryEntry(
            tag="fraction-vs-percent",
            summary="a fraction where a percentage belongs, or the reverse",
            feedback=(
                "Your answer is off by exactly 100: the part asks for a percentage (12 means "
                "12%), not a fraction (0.12)."
            ),
            unit_factors=_percent,
        ),
        LibraryEntry(
            tag="per-token-vs-per-batch",
            summary="a per-token (or per-sequence) figure where the batch total belongs",
            feedback=(
                "Your answer is off by exactly {batch}: check the figure for one token or "
                "sequence against the figure for the whole batch of {batch}."
            ),
            formulas=("key / batch", "key * batch"),
            slots={"batch": None},
        ),
        LibraryEntry(
            tag="query-heads-for-kv-heads",
            summary="counted query (attention) heads instead of KV heads",
            feedback=(
                "With grouped-query attention only the {kv_heads} KV heads are cached, not all "
                "{heads} query heads: your answer is {heads / kv_heads} times too large."
            ),
            formulas=("key * heads / kv_heads",),
            slots={"heads": "model.attention_heads", "kv_heads": "model.kv_heads"},
        ),
        LibraryEntry(
            tag="one-layer-for-all",
            summary="computed one layer and forgot the others",
            feedback=(
                "That is the figure for one layer: each of the {layers} layers keeps its own, "
                "so multiply by {layers}."
            ),
            formulas=("key / layers",),
            slots={"layers": "model.layers"},
        ),
        LibraryEntry(
            tag="total-vs-active-params",
            summary="total parameters where active ones belong, or the reverse (MoE)",
            feedback=(
                "Total and active parameters are mixed up: memory holds all "
                "{total / 1e9:3s} B parameters, but each token's compute and weight reads use "
                "only the {active / 1e9:3s} B active ones."
            ),
            formulas=("key * total / active", "key * active / total"),
            slots={"total": "model.total_params", "active": "model.active_params"},
        ),
    )
}


def library_reference() -> list[dict]:
    """The library for the authoring page and FORMAT.md: tag, summary, slots and defaults."""
    return [
        {
            "tag": entry.tag,
            "summary": entry.summary,
            "automatic": entry.unit_factors is not None,
            "slots": dict(entry.slots),
            "formulas": list(entry.formulas),
        }
        for entry in LIBRARY.values()
    ]
