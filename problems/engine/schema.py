"""The scenario format: validation with field paths, and compilation into `Problem`/`Scenario`.

A definition is a JSON-able dict (a YAML file in problems/bank/, or JSON in the database). The
loaders check every field, collect every error with its path (``scenarios[1].parts[0].answer:
unknown name 'layerz' (did you mean 'layers'?)``) and raise one `ScenarioError`, or return an
immutable compiled object whose formulas are ready to evaluate. The format is documented in
problems/engine/FORMAT.md.
"""

import copy
import dataclasses
import hashlib
import json
import keyword
import re
import sys
from collections.abc import Callable, Collection, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import yaml

from .catalogue import NUMBER, Catalogue, default_catalogue
from .errors import FieldError, FormulaError, ParseError, ScenarioError
from .formula import BUILTINS, Formula, Kind, compile_formula
from .misconceptions import LIBRARY, MAX_TAG_LENGTH, TAG, Misconception
from .params import Param, decimal_of
from .solution import SOLUTION_FIELDS, Solution, compile_solution, with_problem_texts
from .templates import Template, compile_template
from .tolerance import Partial, Tolerance
from .units import MAX_SYNONYMS, UnitSpec, display_unit, synonym_error

MAX_YAML_BYTES = 256 * 1024
MAX_NODES = 20_000
MAX_PARAMS = 40
MAX_DEFINITIONS = 80
MAX_PARTS = 20
MAX_STEPS = 60
MAX_MISCONCEPTIONS = 20
MAX_CHOICES = 200
MAX_SHORT_TEXT = 300
MAX_LONG_TEXT = 20_000
DEFAULT_SIGNIFICANT_FIGURES = 3
NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,39}$")
SLUG = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
RESERVED = {"key", "value", "true", "false", "none"}
_NUMBER_TEXT = re.compile(r"^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")

# Every field of each level, in the order an exported file writes them (a database need not keep
# the order of a JSON object's keys).
PROBLEM_FIELDS = (
    "number",
    "page",
    "title",
    "expected_minutes",
    "concepts",
    "tradeoffs",
    "model_answer",
    "follow_ups",
    "self_check",
    "code",
    "sources",
    "scenarios",
)
SCENARIO_FIELDS = (
    "key",
    "title",
    "params",
    "derived",
    "given",
    "constraints",
    "assumed",
    "text",
    "parts",
    "steps",
    *SOLUTION_FIELDS,
)
PART_FIELDS = (
    "key",
    "prompt",
    "unit",
    "synonyms",
    "answer",
    "tolerance",
    "partial",
    "uses",
    "range",
    "unit_misconceptions",
    "misconceptions",
)
DEFAULT_EXPECTED_MINUTES = 5
"""Minutes a problem takes in an interview when its file does not say."""


@dataclass(frozen=True)
class Constraint:
    formula: Formula
    message: str
    index: int


@dataclass(frozen=True)
class Given:
    """A value computed from the parameters, rounded to `significant` figures in `unit` and
    shown to the learner; everything downstream uses the rounded value."""

    name: str
    formula: Formula
    unit: UnitSpec
    significant: int


@dataclass(frozen=True)
class Derived:
    name: str
    formula: Formula


@dataclass(frozen=True)
class Part:
    key: str
    index: int
    prompt: Template
    unit: UnitSpec
    answer: Formula
    tolerance: Tolerance
    partial: Partial
    misconceptions: tuple[Misconception, ...]
    uses: tuple[str, ...]
    range: tuple[float, float] | None


@dataclass(frozen=True)
class Step:
    text: Template
    concludes: str | None


@dataclass(frozen=True, eq=False)
class Scenario:
    """A compiled scenario. `data` is the validated definition (JSON-able); `version` and
    `problem` come from where it is stored. Draw variants with `draw(seed)`."""

    key: str
    title: str
    version: int
    problem: int | None
    params: tuple[Param, ...]
    constraints: tuple[Constraint, ...]
    given: tuple[Given, ...]
    derived: tuple[Derived, ...]
    plan: tuple
    text: Template
    parts: tuple[Part, ...]
    steps: tuple[Step, ...]
    tradeoffs: tuple[str, ...] | None
    model_answer: str | None
    data: dict = field(repr=False)
    catalogue: Catalogue = field(repr=False, compare=False)
    solution: Solution = field(default_factory=Solution, repr=False, compare=False)
    """The model answer, trade-offs, follow-ups, self-check, code and sources, compiled."""
    names: Mapping = field(default_factory=dict, repr=False, compare=False)
    """Every name a text of the scenario may use, with its kind (for compiling more texts)."""
    assumed: tuple[tuple[str, str | None], ...] = ()
    """Catalogue figures the question does not show but the learner may look up on the entry's
    catalogue sheet: (parameter, field), or (parameter, None) for every figure of the entry."""

    def part(self, key: str) -> Part:
        for part in self.parts:
            if part.key == key:
                return part
        raise KeyError(f"scenario '{self.key}' has no part '{key}'")

    @property
    def content_hash(self) -> str:
        return content_hash(self.data)


@dataclass(frozen=True, eq=False)
class Problem:
    number: int
    page: int
    title: str
    concepts: str
    tradeoffs: tuple[str, ...]
    model_answer: str
    self_check: tuple[str, ...]
    expected_minutes: int
    scenarios: tuple[Scenario, ...]
    data: dict = field(repr=False)
    follow_ups: tuple[dict, ...] = ()
    """Problem-level follow-ups as written: {question, answer} texts with placeholders."""

    def scenario(self, key: str | None = None) -> Scenario:
        """The scenario with `key`, or the first one."""
        if key is None:
            return self.scenarios[0]
        for scenario in self.scenarios:
            if scenario.key == key:
                return scenario
        raise KeyError(f"problem {self.number} has no scenario '{key}'")


def content_hash(definition: Mapping) -> str:
    """SHA-256 of the canonical JSON of a definition: equal for equal content, in any key order."""
    text = json.dumps(definition, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


# YAML.


def load_yaml(text: str | bytes, *, max_bytes: int = MAX_YAML_BYTES) -> Any:
    """Parse a YAML document with PyYAML's safe loader only (the C `CSafeLoader` when libyaml is
    present, else `SafeLoader`: the loaders of `yaml.safe_load`), after a size cap.

    Refused before anything is built: documents over `max_bytes`, anchors and aliases (they let
    a small document expand enormously), more than MAX_NODES values, nesting deeper than
    MAX_YAML_DEPTH. Errors are a `ScenarioError` with the line and column, those of a value
    that parses but cannot be built too (`2026-02-30`, `!!int abc`, an offset of `+99:00`).
    """
    if isinstance(text, bytes):
        if len(text) > max_bytes:
            raise ScenarioError([FieldError("", f"the document is larger than {max_bytes} bytes")])
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ScenarioError([FieldError("", "the document is not UTF-8 text")]) from None
    if not isinstance(text, str):
        raise ScenarioError([FieldError("", "the document must be text")])
    if len(text) > max_bytes or len(text.encode("utf-8")) > max_bytes:
        raise ScenarioError([FieldError("", f"the document is larger than {max_bytes} bytes")])
    try:
        _scan_yaml(text)
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = getattr(error, "problem", None) or str(error)
        if isinstance(error, _ValueError):
            raise ScenarioError([FieldError("", f"{where}{problem}")]) from None
        raise ScenarioError([FieldError("", f"{where}not valid YAML ({problem})")]) from None
    except RecursionError:
        raise ScenarioError([FieldError("", "the document is nested too deeply")]) from None


_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_KINDS = {
    "tag:yaml.org,2002:int": "a whole number",
    "tag:yaml.org,2002:float": "a number",
    "tag:yaml.org,2002:timestamp": "a date or time",
    "tag:yaml.org,2002:bool": "true or false",
}


class _ValueError(yaml.constructor.ConstructorError):
    """A value the safe loader parsed but could not build, with where it is."""


class _Loader(_SAFE_LOADER):  # type: ignore[misc,valid-type]
    """The safe loader, turning the exceptions its constructors raise for values they cannot
    build (ValueError from `datetime`, `int` or `float`; AttributeError from a `!!timestamp`
    that is not one) into errors that name the value and its line."""

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep)
        except (yaml.YAMLError, RecursionError):
            raise
        except Exception as error:
            limit = sys.get_int_max_str_digits()
            if isinstance(error, ValueError) and "digits" in str(error):
                # int() of a decimal text of more than sys.get_int_max_str_digits() digits.
                problem = f"a number in the document has more than {limit:,} digits"
            else:
                kind = _KINDS.get(node.tag, node.tag)
                problem = f"{str(node.value)[:80]!r} is not {kind}"
                if node.tag == "tag:yaml.org,2002:timestamp":
                    problem += " that exists (check the day of the month and the UTC offset)"
            raise _ValueError(None, None, problem, node.start_mark) from None


MAX_YAML_DEPTH = 40


def _scan_yaml(text: str) -> None:
    nodes = depth = 0
    for event in yaml.parse(text, Loader=_SAFE_LOADER):
        line = event.start_mark.line + 1 if event.start_mark else 0
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise ScenarioError(
                [
                    FieldError(
                        "",
                        f"line {line}: YAML anchors and aliases (& and *) "
                        "are not allowed; write the value out",
                    )
                ]
            )
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_YAML_DEPTH:
                raise ScenarioError(
                    [
                        FieldError(
                            "",
                            f"line {line}: the document is nested more "
                            f"than {MAX_YAML_DEPTH} levels deep",
                        )
                    ]
                )
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
        nodes += 1
        if nodes > MAX_NODES:
            raise ScenarioError([FieldError("", f"the document has more than {MAX_NODES} values")])


def load_problem_yaml(text: str | bytes, catalogue: Catalogue | None = None) -> Problem:
    """`load_problem` of a YAML document."""
    return load_problem(load_yaml(text), catalogue=catalogue)


def load_scenario_yaml(
    text: str | bytes,
    *,
    version: int = 1,
    problem: int | None = None,
    catalogue: Catalogue | None = None,
) -> Scenario:
    """`load_scenario` of a YAML document."""
    return load_scenario(load_yaml(text), version=version, problem=problem, catalogue=catalogue)


# Loaders.


def load_problem(data: Any, catalogue: Catalogue | None = None) -> Problem:
    """Validate and compile a problem definition (problem fields plus ``scenarios:``).

    Scenario versions are 1 here; the database layer loads stored versions with
    `load_scenario(..., version=N)`. Raises `ScenarioError` listing every error.
    """
    catalogue = catalogue or default_catalogue()
    check = _Checker()
    fields_ = check.mapping(data, "", PROBLEM_FIELDS, {"number", "page", "title", "scenarios"})
    if fields_ is None:
        raise ScenarioError(check.errors)
    number = check.integer(fields_.get("number"), "number", 1, 999)
    page = check.integer(fields_.get("page"), "page", 1, 10)
    title = check.text(fields_.get("title"), "title", MAX_SHORT_TEXT)
    concepts = check.text(fields_.get("concepts", ""), "concepts", MAX_LONG_TEXT, empty=True)
    tradeoffs = check.text_list(fields_.get("tradeoffs", []), "tradeoffs")
    model_answer = check.text(
        fields_.get("model_answer", ""), "model_answer", MAX_LONG_TEXT, empty=True
    )
    self_check = check.text_list(fields_.get("self_check", []), "self_check")
    # The shape of the other solution fields; their texts are compiled with each scenario.
    compile_solution(
        {name: fields_[name] for name in ("follow_ups", "code", "sources") if name in fields_},
        lambda name: name,
        check,
        None,
        catalogue,
    )
    minutes = check.integer(
        fields_.get("expected_minutes", DEFAULT_EXPECTED_MINUTES), "expected_minutes", 1, 240
    )
    scenarios: list[Scenario] = []
    raw = fields_.get("scenarios")
    if not isinstance(raw, list) or not raw:
        check.error("scenarios", "must be a non-empty list of scenarios")
    else:
        seen: set[str] = set()
        for index, item in enumerate(raw):
            path = f"scenarios[{index}]"
            inherited: tuple[str, ...] = ()
            if isinstance(item, dict):
                inherited = tuple(n for n in SOLUTION_FIELDS if n in fields_ and n not in item)
                item = with_problem_texts(fields_, item)
            scenario = _compile_scenario(item, path, check, 1, number, catalogue, inherited)
            if scenario is not None:
                if scenario.key in seen:
                    check.error(f"{path}.key", f"'{scenario.key}' is used by another scenario")
                seen.add(scenario.key)
                scenarios.append(scenario)
    check.raise_if_any()
    return Problem(
        number=number,
        page=page,
        title=title,
        concepts=concepts,
        tradeoffs=tuple(tradeoffs),
        model_answer=model_answer,
        self_check=tuple(self_check),
        expected_minutes=minutes,
        scenarios=tuple(scenarios),
        data=copy.deepcopy(data),
        follow_ups=tuple(
            item for item in fields_.get("follow_ups", []) or [] if isinstance(item, dict)
        ),
    )


def load_scenario(
    data: Any,
    *,
    version: int = 1,
    problem: int | None = None,
    catalogue: Catalogue | None = None,
) -> Scenario:
    """Validate and compile one scenario definition. Raises `ScenarioError` listing every
    error with its field path."""
    catalogue = catalogue or default_catalogue()
    check = _Checker()
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        check.error("version", "must be a whole number of at least 1")
    scenario = _compile_scenario(data, "", check, version, problem, catalogue)
    if scenario is None:  # what stopped it is in `check.errors`
        raise ScenarioError(check.errors)
    check.raise_if_any()
    return scenario


class _Checker:
    def __init__(self) -> None:
        self.errors: list[FieldError] = []

    def error(self, path: str, message: str) -> None:
        self.errors.append(FieldError(path, message))

    def raise_if_any(self) -> None:
        if self.errors:
            raise ScenarioError(self.errors)

    def mapping(
        self,
        value: Any,
        path: str,
        allowed: Collection[str],
        required: Iterable[str],
    ) -> dict | None:
        if not isinstance(value, dict):
            self.error(path, f"must be a mapping of fields, got {_type_name(value)}")
            return None
        good = True
        for name in value:
            if not isinstance(name, str):
                self.error(
                    path,
                    f"field names must be text, got {name!r} (quote it in YAML: "
                    "on/off/yes/no are read as true/false)",
                )
                good = False
            elif name not in allowed:
                self.error(join(path, name), f"unknown field{_suggest(name, allowed)}")
        for name in sorted(required):
            if name not in value:
                self.error(join(path, name), "is required")
        return value if good else {k: v for k, v in value.items() if isinstance(k, str)}

    def text(self, value: Any, path: str, limit: int, empty: bool = False) -> str:
        if not isinstance(value, str):
            self.error(path, f"must be text, got {_type_name(value)}")
            return ""
        if not empty and not value.strip():
            self.error(path, "must not be empty")
        if len(value) > limit:
            self.error(path, f"is too long ({len(value)} characters; at most {limit})")
        return value

    def text_list(self, value: Any, path: str) -> list[str]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            self.error(path, f"must be a list of texts, got {_type_name(value)}")
            return []
        return [self.text(item, f"{path}[{i}]", MAX_LONG_TEXT) for i, item in enumerate(value)]

    def integer(self, value: Any, path: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(path, f"must be a whole number, got {_type_name(value)}")
            return low
        if not low <= value <= high:
            self.error(path, f"must be from {low} to {high}, got {value}")
        return value

    def number(
        self,
        value: Any,
        path: str,
        *,
        positive: bool = False,
        non_negative: bool = False,
    ) -> Decimal | None:
        if isinstance(value, str) and _NUMBER_TEXT.match(value.strip()):
            value = float(value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.error(path, f"must be a number, got {_type_name(value)}")
            return None
        number = decimal_of(value)
        if not number.is_finite() or abs(number) > Decimal("1e30"):
            self.error(path, f"must be a finite number below 1e30, got {value}")
            return None
        if positive and number <= 0:
            self.error(path, f"must be above zero, got {value}")
            return None
        if non_negative and number < 0:
            self.error(path, f"must not be negative, got {value}")
            return None
        return number

    def formula(
        self,
        value: Any,
        path: str,
        names: Mapping[str, Kind],
        catalogue: Catalogue,
        result: str = NUMBER,
    ) -> Formula | None:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = repr(value)
        if not isinstance(value, str):
            self.error(path, f"must be a formula (text), got {_type_name(value)}")
            return None
        try:
            return compile_formula(value, names, catalogue, result=result)
        except FormulaError as error:
            self.error(path, error.message)
            return None

    def template(
        self,
        value: Any,
        path: str,
        names: Mapping[str, Kind],
        catalogue: Catalogue,
        empty: bool = False,
    ) -> Template | None:
        if not isinstance(value, str):
            self.error(path, f"must be text, got {_type_name(value)}")
            return None
        if not empty and not value.strip():
            self.error(path, "must not be empty")
        return compile_template(value, names, catalogue, on_error=lambda m: self.error(path, m))

    def unit(self, value: Any, path: str) -> UnitSpec:
        if not isinstance(value, str):
            self.error(path, f"must be a unit (text), got {_type_name(value)}")
            return display_unit("")
        try:
            return display_unit(value)
        except ParseError as error:
            self.error(path, error.message)
            return display_unit("")


def join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    return {
        bool: "true/false",
        int: "a number",
        float: "a number",
        str: "text",
        list: "a list",
        dict: "a mapping",
    }.get(type(value), type(value).__name__)


def _suggest(name: str, candidates: Iterable[str]) -> str:
    import difflib

    close = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _compile_scenario(
    data: Any,
    root: str,
    check: _Checker,
    version: int,
    problem: int | None,
    catalogue: Catalogue,
    inherited: tuple[str, ...] = (),
) -> Scenario | None:
    """Compile one scenario; `inherited` names the solution fields folded in from its problem
    (their errors are reported at the problem's field, naming this scenario)."""
    errors_before = len(check.errors)
    fields_ = check.mapping(data, root, SCENARIO_FIELDS, {"key", "title", "text", "parts"})
    if fields_ is None:
        return None
    key = fields_.get("key")
    if not isinstance(key, str) or not SLUG.match(key) or len(key) > 60:
        check.error(
            join(root, "key"),
            "must be a slug of lower-case letters, digits, '-' and '_' (at most 60 characters)",
        )
        key = "?"
    title = check.text(fields_.get("title"), join(root, "title"), MAX_SHORT_TEXT)

    reserved = set(BUILTINS) | set(catalogue.functions) | RESERVED
    names: dict[str, Kind] = {}
    origins: dict[str, str] = {}

    def claim(name: object, path: str, origin: str) -> bool:
        if not isinstance(name, str) or not NAME.match(name) or keyword.iskeyword(name):
            check.error(
                path,
                f"'{name}' is not a valid name (a letter, then letters, digits or "
                "'_'; at most 40 characters)",
            )
            return False
        if name in reserved:
            check.error(
                path,
                f"'{name}' is reserved (a function or keyword of the formula "
                "language); choose another name",
            )
            return False
        if name in origins:
            check.error(path, f"'{name}' is already defined as {origins[name]}")
            return False
        origins[name] = origin
        return True

    params = _compile_params(
        fields_.get("params", {}), join(root, "params"), check, catalogue, claim, names
    )

    assumed = _assumed(fields_.get("assumed", []), join(root, "assumed"), check, params, catalogue)
    given_raw = _definitions(fields_.get("given", {}), join(root, "given"), check)
    derived_raw = _definitions(fields_.get("derived", {}), join(root, "derived"), check)
    for name, (path, _) in given_raw.items():
        if claim(name, path, "a given value"):
            names[name] = NUMBER
    for name, (path, _) in derived_raw.items():
        if claim(name, path, "a derived value"):
            names[name] = NUMBER
    # The definitions see every parameter, given and derived name; cycles are refused below.
    given: dict[str, Given] = {}
    for name, (path, spec) in given_raw.items():
        compiled = _compile_given(name, spec, path, check, names, catalogue)
        if compiled is not None:
            given[name] = compiled
    derived: dict[str, Derived] = {}
    for name, (path, spec) in derived_raw.items():
        source = spec.get("formula") if isinstance(spec, dict) else spec
        if isinstance(spec, dict):
            check.mapping(spec, path, {"formula"}, {"formula"})
        formula = check.formula(
            source,
            join(path, "formula") if isinstance(spec, dict) else path,
            {k: v for k, v in names.items() if k != name},
            catalogue,
        )
        if formula is not None:
            derived[name] = Derived(name, formula)

    constraints = _compile_constraints(
        fields_.get("constraints", []), join(root, "constraints"), check, names, catalogue
    )
    definitions = {
        **{n: g.formula for n, g in given.items()},
        **{n: d.formula for n, d in derived.items()},
    }
    order = _order(definitions, check, root, given_raw, derived_raw)
    plan = _plan(order, given, derived, constraints)

    # Part keys are claimed up front, so that texts naming an answer get a clear refusal.
    raw_parts = fields_.get("parts")
    part_keys: list[str | None] = []
    for index, item in enumerate(raw_parts if isinstance(raw_parts, list) else []):
        key_path = join(f"{join(root, 'parts')}[{index}]", "key")
        claimed = (
            isinstance(item, dict)
            and "key" in item
            and claim(item["key"], key_path, f"the answer to part {index}")
        )
        part_keys.append(item["key"] if claimed else None)
    all_names = {**names, **dict.fromkeys(filter(None, part_keys), NUMBER)}

    visible = set(origins) - set(derived_raw) - set(filter(None, part_keys))
    text = check.template(fields_.get("text"), join(root, "text"), all_names, catalogue)
    if text is not None:
        _only_visible(text, visible, origins, join(root, "text"), check)

    parts = _compile_parts(
        raw_parts, join(root, "parts"), check, names, catalogue, part_keys, visible, origins
    )
    steps = _compile_steps(
        fields_.get("steps", []), join(root, "steps"), check, all_names, catalogue, parts
    )

    tradeoffs = None
    if "tradeoffs" in fields_:
        raw_tradeoffs = fields_["tradeoffs"]
        tradeoffs = tuple([raw_tradeoffs] if isinstance(raw_tradeoffs, str) else raw_tradeoffs)
    model_answer = fields_.get("model_answer")

    def solution_path(name: str) -> str:
        if name in inherited:
            return f"{name} (with the values of scenario '{key}')"
        return join(root, name)

    solution = compile_solution(fields_, solution_path, check, all_names, catalogue)
    if len(check.errors) > errors_before or text is None:
        return None
    return Scenario(
        key=key,
        title=title,
        version=version,
        problem=problem,
        params=tuple(params),
        constraints=tuple(constraints),
        given=tuple(given[name] for name in order if name in given),
        derived=tuple(derived[name] for name in order if name in derived),
        plan=plan,
        text=text,
        parts=tuple(parts),
        steps=tuple(steps),
        tradeoffs=tradeoffs,
        model_answer=model_answer,
        data=copy.deepcopy(data),
        catalogue=catalogue,
        solution=solution,
        names=all_names,
        assumed=assumed,
    )


def _assumed(
    raw: Any,
    path: str,
    check: _Checker,
    params: Sequence[Param],
    catalogue: Catalogue,
) -> tuple[tuple[str, str | None], ...]:
    """`assumed: [gpu.hbm_bandwidth, model.layers, kv_format]`: catalogue figures the learner is
    expected to know or look up on the drawn entry's catalogue sheet (a parameter alone: all
    of its figures)."""
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        check.error(
            path, f"must be a list such as [gpu.hbm_bandwidth, model.layers], got {_type_name(raw)}"
        )
        return ()
    catalogue_params = {param.name: param for param in params if param.is_catalogue}
    result = []
    for index, item in enumerate(raw):
        item_path = f"{path}[{index}]"
        if not isinstance(item, str) or not re.fullmatch(r"[A-Za-z]\w*(\.[A-Za-z]\w*)?", item):
            check.error(
                item_path,
                "must be a catalogue parameter or one of its fields, e.g. gpu.hbm_bandwidth",
            )
            continue
        name, _, field_name = item.partition(".")
        param = catalogue_params.get(name)
        if param is None:
            check.error(
                item_path,
                f"'{name}' is not a catalogue parameter (gpu, model or format) of this scenario"
                f"{_suggest(name, catalogue_params)}",
            )
            continue
        if field_name and isinstance(param.kind, type):  # a catalogue parameter's entry class
            allowed = catalogue.fields.get(param.kind, frozenset())
            if field_name not in allowed:
                check.error(
                    item_path,
                    f"{catalogue.describe_class(param.kind)} has no figure '{field_name}'"
                    f"{_suggest(field_name, allowed)}",
                )
                continue
        if (name, field_name or None) in result:
            check.error(item_path, f"'{item}' is listed twice")
            continue
        result.append((name, field_name or None))
    return tuple(result)


def _only_visible(
    template: Template,
    visible: Container[str],
    origins: Mapping[str, str],
    path: str,
    check: _Checker,
) -> None:
    hidden = sorted(name for name in template.names if name not in visible)
    for name in hidden:
        what = origins.get(name, "a hidden value")
        check.error(
            path,
            f"cannot show '{name}' ({what}): the question may show parameters and "
            "given values only, never derived values or answers",
        )


def _definitions(raw: Any, path: str, check: _Checker) -> dict[str, tuple[str, object]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        check.error(path, f"must be a mapping of name: formula, got {_type_name(raw)}")
        return {}
    if len(raw) > MAX_DEFINITIONS:
        check.error(path, f"has more than {MAX_DEFINITIONS} entries")
    return {name: (join(path, str(name)), spec) for name, spec in raw.items()}


def _compile_given(
    name: str,
    spec: Any,
    path: str,
    check: _Checker,
    names: Mapping[str, Kind],
    catalogue: Catalogue,
) -> Given | None:
    if isinstance(spec, dict):
        fields_ = check.mapping(spec, path, {"formula", "unit", "sig"}, {"formula"}) or {}
        source = fields_.get("formula")
        formula_path = join(path, "formula")
        unit = check.unit(fields_.get("unit", ""), join(path, "unit"))
        significant = check.integer(
            fields_.get("sig", DEFAULT_SIGNIFICANT_FIGURES), join(path, "sig"), 1, 15
        )
    else:
        source, formula_path = spec, path
        unit, significant = display_unit(""), DEFAULT_SIGNIFICANT_FIGURES
    local = {k: v for k, v in names.items() if k != name}
    formula = check.formula(source, formula_path, local, catalogue)
    if formula is None:
        return None
    return Given(name, formula, unit, significant)


def _compile_params(
    raw: Any,
    path: str,
    check: _Checker,
    catalogue: Catalogue,
    claim: Callable[[object, str, str], bool],
    names: dict[str, Kind],
) -> list[Param]:
    """The parameters; `names` receives the kind of every claimed name, even of a parameter
    with errors, so that formulas using it are not also reported."""
    if raw is None:
        return []
    if not isinstance(raw, dict):
        check.error(path, f"must be a mapping of name: space, got {_type_name(raw)}")
        return []
    if len(raw) > MAX_PARAMS:
        check.error(path, f"has more than {MAX_PARAMS} parameters")
    params = []
    for name, spec in raw.items():
        param_path = join(path, str(name))
        if not claim(name, param_path, "a parameter"):
            continue
        space = next(
            (s for s in ("gpu", "model", "format") if isinstance(spec, dict) and s in spec), None
        )
        names[name] = (
            catalogue.classes[space] if space is not None and space in catalogue.classes else NUMBER
        )
        param = _compile_param(name, spec, param_path, check, catalogue)
        if param is not None:
            params.append(param)
    return params


def _compile_param(
    name: str,
    spec: Any,
    path: str,
    check: _Checker,
    catalogue: Catalogue,
) -> Param | None:
    if not isinstance(spec, dict):
        value = check.number(spec, path)
        if value is None:
            return None
        return Param(name, "value", choices=(_number(value),), unit=display_unit(""))
    spaces = [
        space
        for space in ("gpu", "model", "format", "values", "int", "float", "log", "value")
        if space in spec
    ]
    if len(spaces) != 1:
        check.error(
            path,
            "must give exactly one space: gpu, model, format (catalogue choices), "
            "values, int, float, log or value",
        )
        return None
    space = spaces[0]
    if space in ("gpu", "model", "format"):
        check.mapping(spec, path, {space}, {space})
        return _catalogue_param(name, space, spec[space], join(path, space), check, catalogue)
    allowed = {space, "unit"}
    if space in ("int", "float"):
        allowed |= {"step"}
    if space in ("float", "log"):
        allowed |= {"sig"}
    if space == "log":
        allowed |= {"integer"}
    check.mapping(spec, path, allowed, {space})
    unit = check.unit(spec.get("unit", ""), join(path, "unit"))
    if space == "value":
        value = check.number(spec["value"], join(path, "value"))
        return None if value is None else Param(name, "value", (_number(value),), unit=unit)
    if space == "values":
        raw = spec["values"]
        if not isinstance(raw, list) or not raw or len(raw) > MAX_CHOICES:
            check.error(join(path, "values"), f"must be a list of 1 to {MAX_CHOICES} numbers")
            return None
        values = [check.number(v, f"{join(path, 'values')}[{i}]") for i, v in enumerate(raw)]
        numbers = [v for v in values if v is not None]
        if len(numbers) < len(values):
            return None
        return Param(name, "values", tuple(_number(v) for v in numbers), unit=unit)
    bounds = spec[space]
    bounds_path = join(path, space)
    if not isinstance(bounds, list) or len(bounds) != 2:
        check.error(bounds_path, "must be [low, high]")
        return None
    low = check.number(bounds[0], f"{bounds_path}[0]", positive=space == "log")
    high = check.number(bounds[1], f"{bounds_path}[1]", positive=space == "log")
    if low is None or high is None:
        return None
    if low > high:
        check.error(bounds_path, f"low ({low}) is above high ({high})")
        return None
    if space == "int":
        step = check.number(spec.get("step", 1), join(path, "step"), positive=True)
        if step is None:
            return None
        if (
            low != low.to_integral_value()
            or high != high.to_integral_value()
            or (step != step.to_integral_value())
        ):
            check.error(path, "int: low, high and step must be whole numbers")
            return None
        return _stepped(name, "int", low, high, step, unit, path, check)
    if space == "float":
        if ("step" in spec) == ("sig" in spec):
            check.error(
                path,
                "float: give either step (values low, low+step, …) or sig "
                "(uniform, rounded to that many significant figures)",
            )
            return None
        if "step" in spec:
            step = check.number(spec["step"], join(path, "step"), positive=True)
            if step is None:
                return None
            return _stepped(name, "float", low, high, step, unit, path, check)
    if "sig" not in spec:
        check.error(join(path, "sig"), "is required: the significant figures values are drawn at")
        return None
    significant = check.integer(spec["sig"], join(path, "sig"), 1, 15)
    integer = spec.get("integer", False)
    if not isinstance(integer, bool):
        check.error(join(path, "integer"), "must be true or false")
        integer = False
    param = Param(
        name, space, low=low, high=high, significant=significant, integer=integer, unit=unit
    )
    if not param.representable():
        check.error(
            bounds_path,
            f"holds no value with {significant} significant figures"
            f"{' that is whole' if integer else ''}; widen it or raise sig",
        )
        return None
    return param


def _stepped(
    name: str,
    space: str,
    low: Decimal,
    high: Decimal,
    step: Decimal,
    unit: UnitSpec,
    path: str,
    check: _Checker,
) -> Param | None:
    count = int((high - low) / step) + 1
    if count > 10**9:
        check.error(path, f"{space}: the range holds more than 10^9 steps; use log with sig")
        return None
    return Param(name, space, low=low, high=high, step=step, unit=unit)


def _number(value: Decimal) -> int | float:
    from .numbers import as_number

    return as_number(value)


def _catalogue_param(
    name: str,
    space: str,
    raw: Any,
    path: str,
    check: _Checker,
    catalogue: Catalogue,
) -> Param | None:
    entries = catalogue.entries.get(space, {})
    cls = catalogue.classes.get(space)
    if raw == "all":
        keys = sorted(entries)
    elif isinstance(raw, list) and raw and all(isinstance(k, str) for k in raw):
        keys = raw
    else:
        check.error(path, f"must be a list of {space} keys or 'all'")
        return None
    if len(set(keys)) != len(keys):
        check.error(path, "lists a key twice")
    chosen = []
    for index, slug in enumerate(keys):
        if slug not in entries:
            check.error(f"{path}[{index}]", f"unknown {space} '{slug}'{_suggest(slug, entries)}")
        else:
            chosen.append(entries[slug])
    if len(chosen) != len(keys) or not chosen or cls is None:
        return None
    return Param(name, space, tuple(chosen), kind=cls)


def _compile_constraints(
    raw: Any,
    path: str,
    check: _Checker,
    names: Mapping[str, Kind],
    catalogue: Catalogue,
) -> list[Constraint]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        check.error(path, f"must be a list of {{formula, message}}, got {_type_name(raw)}")
        return []
    constraints = []
    for index, item in enumerate(raw):
        item_path = f"{path}[{index}]"
        source: object
        if isinstance(item, str):
            source, message, formula_path = item, item, item_path
        else:
            fields_ = check.mapping(item, item_path, {"formula", "message"}, {"formula"})
            if fields_ is None:
                continue
            source = fields_.get("formula")
            message = check.text(
                fields_.get("message", str(source)), join(item_path, "message"), MAX_SHORT_TEXT
            )
            formula_path = join(item_path, "formula")
        formula = check.formula(source, formula_path, names, catalogue)
        if formula is not None:
            constraints.append(Constraint(formula, message, index))
    return constraints


def _order(
    definitions: dict[str, Formula],
    check: _Checker,
    root: str,
    given_raw: Mapping[str, tuple[str, object]],
    derived_raw: Mapping[str, tuple[str, object]],
) -> list[str]:
    """A dependency order of the given and derived values, the same for any key order."""
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            cycle = trail[trail.index(name) :] + [name]
            defined = given_raw.get(name) or derived_raw.get(name)
            check.error(
                defined[0] if defined else root, "is defined in a circle: " + " → ".join(cycle)
            )
            return
        state[name] = 1
        for dependency in sorted(definitions[name].names & definitions.keys()):
            visit(dependency, trail + [name])
        state[name] = 2
        order.append(name)

    for name in sorted(definitions):
        visit(name, [])
    return order


def _plan(
    order: Sequence[str],
    given: Mapping[str, Given],
    derived: Mapping[str, Derived],
    constraints: Sequence[Constraint],
) -> tuple:
    """Evaluation steps: each given/derived in dependency order, each constraint as soon as the
    values it reads exist (so later formulas only run on draws the constraints accept)."""
    steps: list[tuple] = []
    pending = list(constraints)
    available: set[str] = set()

    def flush() -> None:
        for constraint in list(pending):
            if constraint.formula.names & (set(given) | set(derived)) <= available:
                steps.append(("constraint", constraint))
                pending.remove(constraint)

    flush()
    for name in order:
        if name in given:
            steps.append(("given", given[name]))
        elif name in derived:
            steps.append(("derived", derived[name]))
        available.add(name)
        flush()
    steps.extend(("constraint", c) for c in pending)
    return tuple(steps)


def _compile_parts(
    raw: Any,
    path: str,
    check: _Checker,
    names: Mapping[str, Kind],
    catalogue: Catalogue,
    part_keys: Sequence[str | None],
    visible: Container[str],
    origins: Mapping[str, str],
) -> list[Part]:
    if not isinstance(raw, list) or not raw:
        check.error(path, "must be a non-empty list of parts")
        return []
    if len(raw) > MAX_PARTS:
        check.error(path, f"has more than {MAX_PARTS} parts")
    parts: list[Part] = []
    earlier: dict[str, Kind] = {}
    answers = dict.fromkeys(filter(None, part_keys), NUMBER)
    for index, item in enumerate(raw):
        part_path = f"{path}[{index}]"
        fields_ = check.mapping(item, part_path, PART_FIELDS, {"key", "prompt", "answer"})
        key = part_keys[index]
        if fields_ is None or key is None:
            continue
        scope = {**names, **earlier}
        prompt = check.template(
            fields_.get("prompt"), join(part_path, "prompt"), {**names, **answers}, catalogue
        )
        if prompt is not None:
            _only_visible(prompt, visible, origins, join(part_path, "prompt"), check)
        unit = check.unit(fields_.get("unit", ""), join(part_path, "unit"))
        if "synonyms" in fields_:
            unit = _with_synonyms(unit, fields_["synonyms"], join(part_path, "synonyms"), check)
        answer = check.formula(
            fields_.get("answer"), join(part_path, "answer"), {**names, **answers}, catalogue
        )
        if answer is not None:
            later = sorted(answer.names & (answers.keys() - earlier.keys()))
            if later:
                check.error(
                    join(part_path, "answer"),
                    f"uses '{later[0]}', which is this part or a later one: a part can build "
                    "only on earlier parts",
                )
                answer = None
        uses = _uses(fields_, answer, earlier, part_path, check)
        tolerance = _tolerance(fields_.get("tolerance"), join(part_path, "tolerance"), check)
        partial = _partial(fields_.get("partial"), join(part_path, "partial"), check)
        value_range = _range(fields_.get("range"), join(part_path, "range"), check)
        automatic = fields_.get("unit_misconceptions", True)
        if not isinstance(automatic, bool):
            check.error(join(part_path, "unit_misconceptions"), "must be true or false")
            automatic = True
        misconceptions = _compile_misconceptions(
            fields_.get("misconceptions", []),
            join(part_path, "misconceptions"),
            check,
            {**scope, "key": NUMBER},
            catalogue,
            unit,
            automatic,
        )
        earlier[key] = NUMBER
        if prompt is None or answer is None or tolerance is None or partial is None:
            continue
        parts.append(
            Part(
                key,
                index,
                prompt,
                unit,
                answer,
                tolerance,
                partial,
                tuple(misconceptions),
                uses,
                value_range,
            )
        )
    return parts


def _with_synonyms(unit: UnitSpec, raw: Any, path: str, check: _Checker) -> UnitSpec:
    """The part's unit with the other ways a learner may write it (see `synonym_error`)."""
    if not isinstance(raw, list):
        check.error(path, f"must be a list of nouns or units, got {_type_name(raw)}")
        return unit
    if len(raw) > MAX_SYNONYMS:
        check.error(path, f"has more than {MAX_SYNONYMS} synonyms")
        return unit
    good: list[str] = []
    for index, synonym in enumerate(raw):
        message = synonym_error(unit, synonym, tuple(good))
        if message is not None:
            check.error(f"{path}[{index}]", message)
        else:
            good.append(synonym.strip())
    return dataclasses.replace(unit, synonyms=tuple(good))


def _uses(
    fields_: Mapping[str, Any],
    answer: Formula | None,
    earlier: Mapping[str, Kind],
    path: str,
    check: _Checker,
) -> tuple[str, ...]:
    referenced = sorted(answer.names & earlier.keys()) if answer is not None else []
    if "uses" not in fields_:
        return tuple(referenced)
    raw = fields_["uses"]
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not all(isinstance(k, str) for k in raw):
        check.error(join(path, "uses"), "must be a list of earlier part keys")
        return tuple(referenced)
    for index, key in enumerate(raw):
        if key not in earlier:
            check.error(
                f"{join(path, 'uses')}[{index}]",
                f"'{key}' is not an earlier part{_suggest(key, earlier)}",
            )
        elif answer is not None and key not in answer.names:
            check.error(
                f"{join(path, 'uses')}[{index}]",
                f"the answer formula does not use "
                f"'{key}'; build on a part by naming it in the formula",
            )
    for key in referenced:
        if key not in raw:
            check.error(join(path, "uses"), f"the answer uses part '{key}': list it here too")
    return tuple(referenced)


def _tolerance(raw: Any, path: str, check: _Checker) -> Tolerance | None:
    if raw is None:
        return Tolerance()
    if isinstance(raw, str) and raw.strip().endswith("%"):
        value = check.number(raw.strip()[:-1], path, positive=True)
        return None if value is None else Tolerance(relative=float(value) / 100)
    fields_ = check.mapping(raw, path, {"relative", "absolute", "sig"}, set())
    if fields_ is None:
        return None
    if not fields_:
        check.error(path, "give relative, absolute or sig")
        return None
    if "sig" in fields_:
        if set(fields_) - {"sig", "absolute"}:
            check.error(path, "sig cannot be combined with relative")
            return None
        significant = check.integer(fields_["sig"], join(path, "sig"), 1, 15)
        absolute = check.number(
            fields_.get("absolute", 0), join(path, "absolute"), non_negative=True
        )
        return Tolerance(relative=0.0, absolute=float(absolute or 0), significant=significant)
    relative = check.number(fields_.get("relative", 0), join(path, "relative"), non_negative=True)
    absolute = check.number(fields_.get("absolute", 0), join(path, "absolute"), non_negative=True)
    if relative is None or absolute is None:
        return None
    if relative == 0 and absolute == 0:
        check.error(path, "must accept something: relative or absolute above zero")
        return None
    if relative >= 1:
        check.error(join(path, "relative"), "must be a fraction below 1 (0.01 is 1%)")
        return None
    return Tolerance(relative=float(relative), absolute=float(absolute))


def _partial(raw: Any, path: str, check: _Checker) -> Partial | None:
    if raw is None:
        return Partial()
    if raw is False:
        return Partial(factor=0.0, score=0.0)
    fields_ = check.mapping(raw, path, {"factor", "score"}, set())
    if fields_ is None:
        return None
    factor = check.number(fields_.get("factor", 3), join(path, "factor"), positive=True)
    score = check.number(fields_.get("score", 0.5), join(path, "score"), positive=True)
    if factor is None or score is None:
        return None
    if factor <= 1:
        check.error(join(path, "factor"), "must be above 1 (a multiple of the tolerance)")
    if score >= 1:
        check.error(join(path, "score"), "must be below 1")
    return Partial(factor=float(factor), score=float(score))


def _range(raw: Any, path: str, check: _Checker) -> tuple[float, float] | None:
    if raw is None:
        return None
    if not isinstance(raw, list) or len(raw) != 2:
        check.error(path, "must be [low, high] in the part's unit")
        return None
    low = check.number(raw[0], f"{path}[0]")
    high = check.number(raw[1], f"{path}[1]")
    if low is None or high is None:
        return None
    if low > high:
        check.error(path, f"low ({low}) is above high ({high})")
        return None
    return float(low), float(high)


def _compile_misconceptions(
    raw: Any,
    path: str,
    check: _Checker,
    names: Mapping[str, Kind],
    catalogue: Catalogue,
    unit: UnitSpec,
    automatic: bool,
) -> list:
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        check.error(path, f"must be a list of misconceptions, got {_type_name(raw)}")
        raw = []
    if len(raw) > MAX_MISCONCEPTIONS:
        check.error(path, f"has more than {MAX_MISCONCEPTIONS} misconceptions")
    result: list[Misconception] = []
    tags: set[str] = set()
    for index, item in enumerate(raw):
        item_path = f"{path}[{index}]"
        if not isinstance(item, dict):
            check.error(item_path, f"must be a mapping, got {_type_name(item)}")
            continue
        compiled = (
            _library_misconception(item, item_path, check, names, catalogue, unit)
            if "use" in item
            else _part_misconception(item, item_path, check, names, catalogue)
        )
        if compiled is None:
            continue
        if compiled.tag in tags:
            check.error(item_path, f"the tag '{compiled.tag}' is used twice in this part")
            continue
        tags.add(compiled.tag)
        result.append(compiled)
    if automatic:
        for tag, entry in LIBRARY.items():
            if entry.unit_factors is None or tag in tags:
                continue
            factors = entry.unit_factors(unit)
            if factors:
                feedback = compile_template(entry.feedback, names, catalogue)
                result.append(Misconception(tag, feedback, factors=factors, origin="unit"))
    return result


def _part_misconception(
    item: Any,
    path: str,
    check: _Checker,
    names: Mapping[str, Kind],
    catalogue: Catalogue,
) -> Misconception | None:
    fields_ = check.mapping(
        item, path, {"tag", "formula", "feedback"}, {"tag", "formula", "feedback"}
    )
    if fields_ is None or {"tag", "formula", "feedback"} - fields_.keys():
        return None
    tag = fields_["tag"]
    if not isinstance(tag, str) or not TAG.match(tag) or len(tag) > MAX_TAG_LENGTH:
        check.error(
            join(path, "tag"),
            "must be a stable tag of lower-case words joined by '-' (e.g. forgot-kv-factor)",
        )
        return None
    if tag in LIBRARY:
        check.error(
            join(path, "tag"), f"'{tag}' is a library misconception: write {{use: {tag}}} instead"
        )
        return None
    formula = check.formula(fields_["formula"], join(path, "formula"), names, catalogue)
    feedback = check.template(fields_["feedback"], join(path, "feedback"), names, catalogue)
    if formula is None or feedback is None:
        return None
    return Misconception(tag, feedback, formulas=(formula,), origin="part")


def _library_misconception(
    item: Any,
    path: str,
    check: _Checker,
    names: Mapping[str, Kind],
    catalogue: Catalogue,
    unit: UnitSpec,
) -> Misconception | None:
    tag = item.get("use")
    if tag not in LIBRARY:
        check.error(
            join(path, "use"), f"unknown library misconception '{tag}'{_suggest(str(tag), LIBRARY)}"
        )
        return None
    entry = LIBRARY[tag]
    allowed = {"use", "feedback", *entry.slots}
    fields_ = check.mapping(item, path, allowed, {"use"})
    if fields_ is None:
        return None
    if "feedback" in fields_:
        feedback = check.template(
            fields_["feedback"],
            join(path, "feedback"),
            {**names, **dict.fromkeys(entry.slots, NUMBER)},
            catalogue,
        )
    else:
        feedback = None
    if entry.unit_factors is not None:
        factors = entry.unit_factors(unit)
        if not factors:
            check.error(
                join(path, "use"),
                f"'{tag}' does not apply to a part in '{unit.text or 'a plain number'}'",
            )
            return None
        if feedback is None:
            feedback = compile_template(entry.feedback, names, catalogue)
        return Misconception(tag, feedback, factors=factors, origin="library")
    bindings = []
    scope = dict(names)
    for slot, default in entry.slots.items():
        source = fields_.get(slot, default)
        slot_path = join(path, slot)
        if source is None:
            check.error(slot_path, f"is required by '{tag}': the formula for {slot}")
            return None
        try:
            formula = compile_formula(str(source), scope, catalogue)
        except FormulaError as error:
            if slot in fields_:
                check.error(slot_path, error.message)
            else:
                check.error(
                    slot_path,
                    f"is required by '{tag}' here: its default ({default}) "
                    f"does not fit this scenario ({error.message})",
                )
            return None
        bindings.append((slot, formula))
        scope[slot] = NUMBER
    formulas = tuple(compile_formula(source, scope, catalogue) for source in entry.formulas)
    if feedback is None:
        feedback = compile_template(entry.feedback, scope, catalogue)
    return Misconception(
        tag, feedback, formulas=formulas, bindings=tuple(bindings), origin="library"
    )


def _compile_steps(
    raw: Any,
    path: str,
    check: _Checker,
    names: Mapping[str, Kind],
    catalogue: Catalogue,
    parts: Sequence[Part],
) -> list[Step]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        check.error(path, f"must be a list of steps, got {_type_name(raw)}")
        return []
    if len(raw) > MAX_STEPS:
        check.error(path, f"has more than {MAX_STEPS} steps")
    part_keys = {part.key for part in parts}
    steps = []
    for index, item in enumerate(raw):
        item_path = f"{path}[{index}]"
        concludes = None
        if isinstance(item, dict):
            fields_ = check.mapping(item, item_path, {"text", "concludes"}, {"text"})
            if fields_ is None:
                continue
            text_source, text_path = fields_.get("text"), join(item_path, "text")
            concludes = fields_.get("concludes")
            if concludes is not None and concludes not in part_keys:
                check.error(
                    join(item_path, "concludes"),
                    f"'{concludes}' is not a part{_suggest(str(concludes), part_keys)}",
                )
                concludes = None
        else:
            text_source, text_path = item, item_path
        template = check.template(text_source, text_path, names, catalogue)
        if template is None:
            continue
        if concludes is None and template.placeholders:
            last = template.placeholders[-1].name
            if last in part_keys:
                concludes = last
        steps.append(Step(template, concludes))
    return steps
