"""What formulas may reach: catalogue entries, their readable fields, and registered functions.

The engine never imports the estimator at module load: `default_catalogue()` does, once, so the
engine's own tests can pass a small `Catalogue` of their own and everything else uses the real
one (`problems.estimator.catalogue` and `problems.estimator.registry`, see the contract in the
estimator's docstrings).
"""

import math
import numbers
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache

NUMBER = "number"
TEXT = "text"
OPAQUE = "value"

# The parameter-space keyword for each catalogue, and how an entry is named in messages.
KIND_WORDS = {"gpu": "a GPU", "model": "a model", "format": "a number format"}


@dataclass(frozen=True)
class Catalogue:
    """The catalogues and functions a scenario's formulas may use.

    - `entries`: parameter-space keyword ("gpu", "model", "format") -> {slug: entry}.
    - `classes`: the same keyword -> the entry class (GPU, Model, NumberFormat).
    - `fields`: entry class -> the attribute names formulas may read (FORMULA_FIELDS).
    - `functions`: name -> callable, the only functions formulas may call besides the engine's
      math builtins.
    - `units`: entry class -> {field: the unit it reads best in} (optional; for catalogue
      sheets and messages).
    """

    entries: Mapping[str, Mapping[str, object]]
    classes: Mapping[str, type]
    fields: Mapping[type, frozenset[str]]
    functions: Mapping[str, Callable]
    units: Mapping[type, Mapping[str, str]] = field(default_factory=dict)
    _field_kinds: dict = field(default_factory=dict, compare=False, repr=False)

    def keyword_of(self, cls: type) -> str:
        """The parameter-space keyword of an entry class ("gpu" for GPU)."""
        for keyword, candidate in self.classes.items():
            if candidate is cls:
                return keyword
        raise KeyError(cls)

    def describe_class(self, cls: type) -> str:
        """ "a GPU", "a model"… for messages."""
        keyword = self.keyword_of(cls)
        return KIND_WORDS.get(keyword, f"a {keyword}")

    def field_kind(self, cls: type, name: str) -> str:
        """NUMBER if every entry holds a number (or nothing) there, TEXT if text, else OPAQUE."""
        cached = self._field_kinds.get((cls, name))
        if cached is not None:
            return cached
        values = [
            getattr(entry, name, None) for entry in self.entries[self.keyword_of(cls)].values()
        ]
        present = [value for value in values if value is not None]
        if present and all(isinstance(value, str) for value in present):
            kind = TEXT
        elif all(
            isinstance(value, numbers.Real) and not isinstance(value, bool) for value in present
        ):
            kind = NUMBER
        else:
            kind = OPAQUE
        self._field_kinds[(cls, name)] = kind
        return kind

    def lookup(self, keyword: str, slug: str) -> object:
        return self.entries[keyword][slug]


def entry_spec(entry: object, catalogue: Catalogue) -> dict:
    """A JSON-able description of a catalogue entry: its key, name and readable fields."""
    cls = type(entry)
    spec = {"key": getattr(entry, "key", None), "name": getattr(entry, "name", None)}
    for name in sorted(catalogue.fields.get(cls, ())):
        spec[name] = _json_value(getattr(entry, name, None))
    return spec


def _json_value(value: object) -> object:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, numbers.Real):
        number = float(value)
        return number if math.isfinite(number) else None
    if isinstance(value, (list, tuple)):
        return [_json_value(item) for item in value]
    return str(value)


@cache
def default_catalogue() -> Catalogue:
    """The real catalogues and registered functions of `problems.estimator`."""
    from problems.estimator import catalogue, registry

    return Catalogue(
        entries={"gpu": catalogue.GPUS, "model": catalogue.MODELS, "format": catalogue.FORMATS},
        classes={"gpu": catalogue.GPU, "model": catalogue.Model, "format": catalogue.NumberFormat},
        fields=catalogue.FORMULA_FIELDS,
        functions=registry.FUNCTIONS,
        units=catalogue.FIELD_UNITS,
    )
