"""What a worked solution shows besides its steps: the model interview answer, trade-offs,
follow-up questions an interviewer asks next, a self-check, code, and the sources of its claims.

The texts (model answer, trade-offs, follow-ups, self-check) are templates in the same language
as the question and the steps, so every number in them is the variant's own. Code is shown as
written. A problem may give these at problem level for all its scenarios; a scenario's own
value replaces the problem's (the whole list, not item by item).

A stored scenario version is compiled from its definition alone, so `with_problem_texts` folds
the problem-level values a scenario shows into its definition: a change of a problem-level text
then changes the definition (a new version), and an old attempt keeps the text it was shown.
"""

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .catalogue import Catalogue
from .errors import FormulaError
from .formula import Kind
from .templates import Display, Template, compile_template

if TYPE_CHECKING:  # the schema compiles solutions with this module
    from .schema import Scenario, _Checker
    from .variant import Variant

TEXT_FIELDS = ("model_answer", "tradeoffs", "follow_ups", "self_check")
"""The fields rendered with the variant's values."""
SOLUTION_FIELDS = (*TEXT_FIELDS, "code", "sources")
"""Every field a scenario shows with its solution; problem-level ones are folded into versions."""
CODE_LANGUAGES = ("python", "cuda", "cpp", "c", "bash", "yaml", "json", "text")
MAX_ITEMS = 20
MAX_TEXT = 20_000


@dataclass(frozen=True)
class FollowUp:
    question: Template
    answer: Template


@dataclass(frozen=True)
class CodeBlock:
    """Code shown verbatim (never a template: braces are code), highlighted by `language`."""

    title: str
    language: str
    text: str


@dataclass(frozen=True)
class Source:
    """Where a claim of the problem comes from: a paper, engine documentation or source."""

    claim: str
    references: tuple[str, ...]


@dataclass(frozen=True)
class Solution:
    """A scenario's compiled solution texts; None where neither it nor its problem gives one."""

    model_answer: Template | None = None
    tradeoffs: tuple[Template, ...] | None = None
    follow_ups: tuple[FollowUp, ...] | None = None
    self_check: tuple[Template, ...] | None = None
    code: tuple[CodeBlock, ...] | None = None
    sources: tuple[Source, ...] | None = None

    def templates(self) -> list[tuple[str, Template]]:
        """Every text template with its field path (for checks), in display order."""
        listed: list[tuple[str, Template]] = []
        if self.model_answer is not None:
            listed.append(("model_answer", self.model_answer))
        for index, template in enumerate(self.tradeoffs or ()):
            listed.append((f"tradeoffs[{index}]", template))
        for index, follow_up in enumerate(self.follow_ups or ()):
            listed.append((f"follow_ups[{index}].question", follow_up.question))
            listed.append((f"follow_ups[{index}].answer", follow_up.answer))
        for index, template in enumerate(self.self_check or ()):
            listed.append((f"self_check[{index}]", template))
        return listed


def with_problem_texts(
    problem_data: Mapping[str, Any], scenario_definition: Mapping[str, Any]
) -> dict[str, Any]:
    """The scenario definition with the problem-level solution fields it does not override
    folded in (model_answer, tradeoffs, follow_ups, self_check, code, sources).

    Pure and idempotent: `scenario_definition` is not changed, a field the scenario gives is
    kept as it is, and a field the problem does not give is not added. Store the result as the
    version's definition, so that the version carries the texts it shows.
    """
    folded = copy.deepcopy(dict(scenario_definition))
    for name in SOLUTION_FIELDS:
        if name not in folded and name in problem_data:
            folded[name] = copy.deepcopy(problem_data[name])
    return folded


def compile_solution(
    fields_: Mapping[str, Any],
    path: Callable[[str], str],
    check: "_Checker",
    names: Mapping[str, Kind] | None,
    catalogue: Catalogue,
    inherited: Iterable[str] = (),
) -> Solution:
    """Validate and compile the solution fields of a (folded) scenario definition.

    `check` is the schema's error collector; `path(name)` gives the field path to report a
    field's errors at. A field in `inherited` came from the problem: its errors name the
    scenario whose values it failed with. With `names` None only the shape is checked.
    """

    def template(value: object, where: str, empty: bool = False) -> Template | None:
        if names is None:  # the shape only: no scenario's names to compile with
            check.text(value, where, MAX_TEXT, empty=empty)
            return None
        return check.template(value, where, names, catalogue, empty=empty)

    values: dict[str, Any] = {}
    if "model_answer" in fields_:
        values["model_answer"] = template(fields_["model_answer"], path("model_answer"), True)
    for name in ("tradeoffs", "self_check"):
        if name in fields_:
            items = _list(fields_[name], path(name), check, allow_text=True)
            values[name] = tuple(
                template(item, f"{path(name)}[{index}]") for index, item in enumerate(items)
            )
    if "follow_ups" in fields_:
        values["follow_ups"] = _follow_ups(
            fields_["follow_ups"], path("follow_ups"), check, template
        )
    if "code" in fields_:
        values["code"] = _code(fields_["code"], path("code"), check)
    if "sources" in fields_:
        values["sources"] = _sources(fields_["sources"], path("sources"), check)
    for name, value in values.items():
        if isinstance(value, tuple) and any(item is None for item in value):
            values[name] = tuple(item for item in value if item is not None)
    return Solution(**values)


def _list(raw: object, where: str, check: "_Checker", allow_text: bool = False) -> list[Any]:
    if allow_text and isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list):
        check.error(where, "must be a list")
        return []
    if len(raw) > MAX_ITEMS:
        check.error(where, f"has more than {MAX_ITEMS} entries")
    return raw


def _follow_ups(
    raw: object,
    where: str,
    check: "_Checker",
    template: Callable[[object, str], Template | None],
) -> tuple[FollowUp, ...]:
    compiled = []
    for index, item in enumerate(_list(raw, where, check)):
        item_path = f"{where}[{index}]"
        fields_ = check.mapping(item, item_path, {"question", "answer"}, {"question", "answer"})
        if not fields_ or {"question", "answer"} - fields_.keys():
            continue
        question = template(fields_["question"], f"{item_path}.question")
        answer = template(fields_["answer"], f"{item_path}.answer")
        if question is not None and answer is not None:
            compiled.append(FollowUp(question, answer))
    return tuple(compiled)


def _code(raw: object, where: str, check: "_Checker") -> tuple[CodeBlock, ...]:
    blocks = []
    for index, item in enumerate(_list(raw, where, check)):
        item_path = f"{where}[{index}]"
        fields_ = check.mapping(
            item, item_path, {"title", "language", "text"}, {"language", "text"}
        )
        if not fields_:
            continue
        language = fields_.get("language")
        if language not in CODE_LANGUAGES:
            check.error(f"{item_path}.language", f"must be one of {', '.join(CODE_LANGUAGES)}")
            continue
        text = check.text(fields_.get("text"), f"{item_path}.text", MAX_TEXT)
        title = check.text(fields_.get("title", ""), f"{item_path}.title", 300, empty=True)
        blocks.append(CodeBlock(title, language, text))
    return tuple(blocks)


def _sources(raw: object, where: str, check: "_Checker") -> tuple[Source, ...]:
    sources = []
    for index, item in enumerate(_list(raw, where, check)):
        item_path = f"{where}[{index}]"
        fields_ = check.mapping(item, item_path, {"claim", "source"}, {"claim", "source"})
        if not fields_ or {"claim", "source"} - fields_.keys():
            continue
        claim = check.text(fields_["claim"], f"{item_path}.claim", 2_000)
        references = check.text_list(fields_["source"], f"{item_path}.source")
        if not references:
            check.error(f"{item_path}.source", "must name at least one source")
        sources.append(Source(claim, tuple(references)))
    return tuple(sources)


# Rendering.


def render_solution(
    scenario: "Scenario", env: Mapping[str, Any], displays: Mapping[str, Display]
) -> dict[str, Any]:
    """The scenario's solution texts rendered with a variant's values (see `Variant`).

    A text whose formula fails for this variant is left out rather than failing the page that
    shows the solution; `bank check` and the authoring validation report it.
    """
    solution = scenario.solution

    def rendered(template: Template) -> str | None:
        try:
            return template.render(env, displays)
        except FormulaError:
            return None

    def all_rendered(templates: Iterable[Template] | None) -> tuple[str, ...]:
        return tuple(text for text in map(rendered, templates or ()) if text is not None)

    follow_ups = []
    for follow_up in solution.follow_ups or ():
        question, answer = rendered(follow_up.question), rendered(follow_up.answer)
        if question is not None and answer is not None:
            follow_ups.append((question, answer))
    return {
        "model_answer": None if solution.model_answer is None else rendered(solution.model_answer),
        "tradeoffs": all_rendered(solution.tradeoffs),
        "follow_ups": tuple(follow_ups),
        "self_check": all_rendered(solution.self_check),
        "code": solution.code or (),
        "sources": solution.sources or (),
    }


def solution_texts(variant: "Variant", fallback: object = None) -> dict[str, Any]:
    """What a solution page shows for `variant`: ``{"model_answer": str, "tradeoffs": (str,),
    "follow_ups": ((question, answer),), "self_check": (str,), "code": (CodeBlock,),
    "sources": (Source,)}``, rendered with the variant's values.

    A field the scenario's definition does not carry is taken from `fallback` (the problem: any
    object with `model_answer`, `tradeoffs`, `self_check`… attributes, such as a stored
    problem), rendered with the variant's values. This covers versions stored before texts were
    folded into definitions; a text that does not fit the scenario (a name it lacks, a formula
    that fails for the variant) is left out rather than shown with its placeholders.
    """
    solution = variant.scenario.solution
    texts: dict[str, Any] = {
        "model_answer": variant.model_answer or "",
        "tradeoffs": variant.tradeoffs,
        "follow_ups": variant.follow_ups,
        "self_check": variant.self_check,
        "code": variant.code,
        "sources": variant.sources,
    }
    if fallback is None:
        return texts
    if solution.model_answer is None:
        model_answer = getattr(fallback, "model_answer", "") or ""
        texts["model_answer"] = _render_loose(variant, model_answer) or ""
    for name in ("tradeoffs", "self_check"):
        if getattr(solution, name) is None:
            items = getattr(fallback, name, None) or ()
            items = [items] if isinstance(items, str) else items
            texts[name] = _rendered(variant, items)
    if solution.follow_ups is None:
        pairs = []
        for item in getattr(fallback, "follow_ups", None) or ():
            if isinstance(item, Mapping) and {"question", "answer"} <= item.keys():
                question, answer = _rendered(variant, (item["question"], item["answer"]), True)
                if question and answer:
                    pairs.append((question, answer))
        texts["follow_ups"] = tuple(pairs)
    return texts


def _rendered(
    variant: "Variant", sources: Iterable[object], keep_places: bool = False
) -> tuple[str | None, ...]:
    rendered = (_render_loose(variant, source) for source in sources)
    if keep_places:
        return tuple(rendered)
    return tuple(text for text in rendered if text is not None)


def _render_loose(variant: "Variant", source: object) -> str | None:
    """A problem-level text rendered for a scenario it was not compiled with; None if it does
    not fit the scenario's names or fails to evaluate for the variant."""
    if not isinstance(source, str):
        return None
    scenario = variant.scenario
    try:
        template = compile_template(source, scenario.names, scenario.catalogue)
        return template.render(variant.env, variant.displays)
    except FormulaError:
        return None
