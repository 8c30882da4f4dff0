"""The course's 10 pages and its 24-hour plan, read from ``curriculum.yaml`` and checked.

Pure Python and PyYAML: no Django, so the plan's views, services and tests all read the same
immutable objects.

- ``load_curriculum() -> Curriculum``: the built-in curriculum, read and validated once per process.
- ``read_curriculum(path) -> Curriculum``: read and validate another file (uncached).
- ``parse_curriculum(data, source) -> Curriculum``: validate already-loaded YAML data.

Every refusal is a ``ValueError`` that lists every fault found, each with where it is
(``pages[2].words_to_know[3].definition: …``, positions counted from 0 in the file), so an
author fixes the file in one pass.

What a valid curriculum guarantees:

- pages 1–10 appear once each, and each of the course's problems 1–25 is on exactly one page
  (a built-in problem added beyond them may be on one page too: docs/adding-a-problem.md);
- each page has one of the ten demos, each demo on exactly one page;
- the blocks, in order of their numbers 1, 2, …, cover hours 0–24 without gap or overlap;
- every block's pages exist, its problems are on its pages, and every page and problem is in
  some block;
- the text has the shape the course uses: 2–4 "start here" paragraphs, 3–6 "how it works" steps,
  4–8 words to know, and 3–5 goals per block;
- each goal has a key, a slug unique in the whole plan, so a learner's ticked goals can be
  stored against the key alone and survive a rewording of the goal's text.

Reference: the course text (Vishal Singh's 25 LLM-inference interview problems, as the course's
module 09 presents them: the map of 10 pages and "A 24-hour prep plan").
"""

import dataclasses
import re
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

CURRICULUM_PATH = Path(__file__).with_name("curriculum.yaml")

PROBLEM_NUMBERS = range(1, 26)
"""The course's 25 problems."""

PAGE_NUMBERS = range(1, 11)
"""The course's 10 pages."""

PLAN_HOURS = 24
"""Length of the plan [h]; its blocks cover hours 0 to this."""

DEMOS = (
    "ttft_robot",
    "kv_cache",
    "batching",
    "prefix_cache",
    "speculative",
    "gpu_formats",
    "roofline",
    "cost_metrics",
    "canary_autoscale",
    "moe_capacity",
)
"""The interactive demos, one per page, in page order."""

START_HERE_PARAGRAPHS = (2, 4)
HOW_IT_WORKS_STEPS = (3, 6)
WORDS_TO_KNOW = (4, 8)
GOALS_PER_BLOCK = (3, 5)

_MISSING = object()  # a key that is absent, already reported; unlike an explicit null

_GOAL_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True, slots=True)
class Term:
    """One entry of a page's "words to know"."""

    term: str
    definition: str


@dataclass(frozen=True, slots=True)
class Page:
    """One of the course's 10 pages."""

    number: int
    title: str
    demo: str  # one of DEMOS
    problems: tuple[int, ...]  # in the order the course lists them
    start_here: tuple[str, ...]  # paragraphs
    how_it_works: tuple[str, ...]  # numbered steps, in order
    why_robots_care: str | None  # None where robots add nothing to the page
    try_it: str
    words_to_know: tuple[Term, ...]

    @property
    def label(self) -> str:
        """The page number as the course writes it: ``"01"`` … ``"10"``."""
        return f"{self.number:02d}"


@dataclass(frozen=True, slots=True)
class Goal:
    """One checklist item of a block; ``key`` is stable, so learners' ticks survive rewording."""

    key: str
    text: str


@dataclass(frozen=True, slots=True)
class Block:
    """One block of the 24-hour plan."""

    number: int
    start_hour: int  # [h] from the start of the plan
    end_hour: int  # [h]
    pages: tuple[int, ...]
    problems: tuple[int, ...]  # what this block practises: all its pages' problems unless narrowed
    goal: str  # the course's goal sentence, verbatim
    goals: tuple[Goal, ...]  # the checklist that together means the goal is met

    @property
    def hours(self) -> int:
        """Length of the block [h]."""
        return self.end_hour - self.start_hour

    @property
    def label(self) -> str:
        """The hours as the course writes them, e.g. ``"0–4"``."""
        return f"{self.start_hour}–{self.end_hour}"


@dataclass(frozen=True, slots=True)
class Curriculum:
    """The 10 pages (by number) and the blocks of the plan (in plan order)."""

    pages: tuple[Page, ...]
    blocks: tuple[Block, ...]

    def page(self, number: int) -> Page:
        """The page with this number; ``KeyError`` if there is none."""
        for page in self.pages:
            if page.number == number:
                return page
        raise KeyError(f"there is no page {number!r}; pages are numbered 1–10")

    def page_of_problem(self, problem: int) -> Page:
        """The page a problem is on; ``KeyError`` if no page has it."""
        for page in self.pages:
            if problem in page.problems:
                return page
        raise KeyError(f"problem {problem!r} is on no page of the course")

    def block(self, number: int) -> Block:
        """The block with this number; ``KeyError`` if there is none."""
        for block in self.blocks:
            if block.number == number:
                return block
        raise KeyError(f"there is no block {number!r}; blocks are numbered 1–{len(self.blocks)}")

    def blocks_for_page(self, number: int) -> tuple[Block, ...]:
        """The blocks that study a page, in plan order (page 10 is in two)."""
        self.page(number)
        return tuple(block for block in self.blocks if number in block.pages)

    def problems_in_plan_order(self) -> tuple[int, ...]:
        """Every problem once, in the order the plan first reaches it."""
        seen: dict[int, None] = {}
        for block in self.blocks:
            for problem in block.problems:
                seen.setdefault(problem, None)
        return tuple(seen)


@cache
def load_curriculum() -> Curriculum:
    """The built-in curriculum (``curriculum.yaml`` beside this module), validated once."""
    return read_curriculum(CURRICULUM_PATH)


def read_curriculum(path: Path | str) -> Curriculum:
    """Read and validate a curriculum file; ``ValueError`` says everything wrong with it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"{path}: cannot read the curriculum: {error}") from error
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 (a safe loader subclass)
    except yaml.YAMLError as error:
        raise ValueError(f"{path} is not valid YAML: {error}") from error
    return parse_curriculum(data, source=str(path))


def parse_curriculum(data: object, source: str = "curriculum") -> Curriculum:
    """Validate YAML data (as loaded) and build the curriculum; ``ValueError`` lists all faults."""
    errors: list[str] = []
    top = _mapping(data, "the file", {"pages", "blocks"}, set(), errors)
    read_pages = [
        _page(item, f"pages[{index}]", errors)
        for index, item in enumerate(_sequence(top.get("pages", _MISSING), "pages", errors))
    ]
    pages = sorted((page for page in read_pages if page is not None), key=_number)
    # Cross-checks over entries that could not be read would only repeat their faults.
    if not errors:
        _check_pages(pages, errors)
    count = len(errors)
    read_blocks = [
        _block(item, f"blocks[{index}]", errors)
        for index, item in enumerate(_sequence(top.get("blocks", _MISSING), "blocks", errors))
    ]
    blocks = [block for block in read_blocks if block is not None]
    if len(errors) == count:
        page_by_number = {page.number: page for page in pages}
        blocks = sorted((_with_problems(b, page_by_number) for b in blocks), key=_number)
        # A page that is there but could not be read has had its say above.
        declared = {item.get("number") for item in top.get("pages") or () if isinstance(item, dict)}
        _check_blocks(blocks, pages, declared, errors)
    if errors:
        listing = "\n".join(f"  - {error}" for error in errors)
        raise ValueError(f"{source} is not a valid curriculum:\n{listing}")
    return Curriculum(pages=tuple(pages), blocks=tuple(blocks))


# libyaml, when PyYAML was built with it: the pure-Python loader is several times slower.
_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _StrictLoader(_SafeLoader):  # type: ignore[valid-type,misc]  # chosen at import time
    """Safe loading that refuses a repeated key, which plain YAML loading silently overwrites."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    "while reading a mapping",
                    node.start_mark,
                    f"found the key {key!r} twice",
                    key_node.start_mark,
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


Errors = list[str]


def _page(data: object, where: str, errors: Errors) -> Page | None:
    required = {
        "number",
        "title",
        "demo",
        "problems",
        "start_here",
        "how_it_works",
        "try_it",
        "words_to_know",
    }
    item = _mapping(data, where, required, {"why_robots_care"}, errors)
    if not item:
        return None
    count = len(errors)
    number = _integer(item.get("number", _MISSING), f"{where}.number", errors)
    if number is not None and number not in PAGE_NUMBERS:
        errors.append(f"{where}.number: {number} is not a page of the course (1–10)")
    demo = _text(item.get("demo", _MISSING), f"{where}.demo", errors)
    if demo is not None and demo not in DEMOS:
        errors.append(f"{where}.demo: {demo!r} is not one of the demos {', '.join(DEMOS)}")
    problems = _integers(item.get("problems", _MISSING), f"{where}.problems", errors)
    for problem in problems:
        if problem < 1:
            errors.append(f"{where}.problems: {problem} is not a problem number")
    for problem in {p for p in problems if problems.count(p) > 1}:
        errors.append(f"{where}.problems: problem {problem} is listed twice")
    why_robots_care = None
    if "why_robots_care" in item:
        why_robots_care = _text(item["why_robots_care"], f"{where}.why_robots_care", errors)
    words = [
        _term(entry, f"{where}.words_to_know[{index}]", errors)
        for index, entry in enumerate(
            _sequence(
                item.get("words_to_know", _MISSING), f"{where}.words_to_know", errors, WORDS_TO_KNOW
            )
        )
    ]
    names = [word.term.casefold() for word in words if word is not None]
    for name in sorted({name for name in names if names.count(name) > 1}):
        errors.append(f"{where}.words_to_know: the term {name!r} is defined twice")
    title = _text(item.get("title", _MISSING), f"{where}.title", errors)
    start_here = _texts(
        item.get("start_here", _MISSING), f"{where}.start_here", errors, START_HERE_PARAGRAPHS
    )
    how_it_works = _texts(
        item.get("how_it_works", _MISSING), f"{where}.how_it_works", errors, HOW_IT_WORKS_STEPS
    )
    try_it = _text(item.get("try_it", _MISSING), f"{where}.try_it", errors)
    # A missing key was reported by _mapping, before `count`: a value can be None without a new
    # error, and such a page must not be built (a page without a number cannot be sorted).
    if len(errors) != count or number is None or title is None or demo is None or try_it is None:
        return None
    return Page(
        number=number,
        title=title,
        demo=demo,
        problems=tuple(problems),
        start_here=start_here,
        how_it_works=how_it_works,
        why_robots_care=why_robots_care,
        try_it=try_it,
        words_to_know=tuple(word for word in words if word is not None),
    )


def _term(data: object, where: str, errors: Errors) -> Term | None:
    item = _mapping(data, where, {"term", "definition"}, set(), errors)
    if not item:
        return None
    term = _text(item.get("term", _MISSING), f"{where}.term", errors)
    definition = _text(item.get("definition", _MISSING), f"{where}.definition", errors)
    return Term(term, definition) if term and definition else None


def _number(entry: Page | Block) -> int:
    return entry.number


def _with_problems(block: Block, page_by_number: Mapping[int, Page]) -> Block:
    """The block with its problems: those it names, or else all on its pages, in page order."""
    if block.problems:
        return block
    problems = tuple(
        problem
        for page in block.pages
        if page in page_by_number
        for problem in page_by_number[page].problems
    )
    return dataclasses.replace(block, problems=problems)


def _block(data: object, where: str, errors: Errors) -> Block | None:
    """A block as written; ``problems`` is empty when the file leaves them to its pages."""
    required = {"number", "hours", "pages", "goal", "goals"}
    item = _mapping(data, where, required, {"problems"}, errors)
    if not item:
        return None
    count = len(errors)
    number = _integer(item.get("number", _MISSING), f"{where}.number", errors)
    hours = _integers(item.get("hours", _MISSING), f"{where}.hours", errors)
    start_hour: int | None = None
    end_hour: int | None = None
    if "hours" in item and len(hours) != 2:
        errors.append(f"{where}.hours: give [start, end] in hours, got {_show(item['hours'])}")
    elif "hours" in item:
        start_hour, end_hour = hours
        if not 0 <= start_hour < end_hour <= PLAN_HOURS:
            errors.append(
                f"{where}.hours: [{start_hour}, {end_hour}] must satisfy "
                f"0 ≤ start < end ≤ {PLAN_HOURS}"
            )
    pages = _integers(item.get("pages", _MISSING), f"{where}.pages", errors)
    problems = []
    if "problems" in item:
        problems = _integers(item["problems"], f"{where}.problems", errors)
    goals = [
        _goal(entry, f"{where}.goals[{index}]", errors)
        for index, entry in enumerate(
            _sequence(item.get("goals", _MISSING), f"{where}.goals", errors, GOALS_PER_BLOCK)
        )
    ]
    keys = [goal.key for goal in goals if goal is not None]
    for key in sorted({key for key in keys if keys.count(key) > 1}):
        errors.append(f"{where}.goals: the key {key!r} is used twice")
    goal = _text(item.get("goal", _MISSING), f"{where}.goal", errors)
    # As for a page: a key left out was reported before `count`.
    if (
        len(errors) != count
        or number is None
        or start_hour is None
        or end_hour is None
        or goal is None
    ):
        return None
    return Block(
        number=number,
        start_hour=start_hour,
        end_hour=end_hour,
        pages=tuple(pages),
        problems=tuple(problems),
        goal=goal,
        goals=tuple(each for each in goals if each is not None),
    )


def _goal(data: object, where: str, errors: Errors) -> Goal | None:
    item = _mapping(data, where, {"key", "text"}, set(), errors)
    if not item:
        return None
    key = _text(item.get("key", _MISSING), f"{where}.key", errors)
    if key is not None and not _GOAL_KEY.match(key):
        errors.append(f"{where}.key: {key!r} must be a lower-case slug such as 'kv-cache-sizing'")
        key = None
    text = _text(item.get("text", _MISSING), f"{where}.text", errors)
    return Goal(key, text) if key and text else None


def _check_pages(pages: Sequence[Page], errors: Errors) -> None:
    numbers = [page.number for page in pages]
    for number in PAGE_NUMBERS:
        if number not in numbers:
            errors.append(f"pages: page {number} is missing")
        elif numbers.count(number) > 1:
            errors.append(f"pages: page {number} appears {numbers.count(number)} times")
    on_pages: dict[int, list[int]] = {}
    for page in pages:
        for problem in page.problems:
            on_pages.setdefault(problem, []).append(page.number)
    for problem in sorted({*PROBLEM_NUMBERS, *on_pages}):
        where = on_pages.get(problem, [])
        if not where:
            errors.append(f"pages: problem {problem} is on no page")
        elif len(where) > 1:
            listed = " and ".join(str(number) for number in where)
            errors.append(f"pages: problem {problem} is on pages {listed}; it must be on one")
    for demo in DEMOS:
        users = [page.number for page in pages if page.demo == demo]
        if not users:
            errors.append(f"pages: no page has the demo {demo!r}")
        elif len(users) > 1:
            errors.append(f"pages: the demo {demo!r} is on pages {users}; it must be on one")


def _check_blocks(
    blocks: Sequence[Block],
    pages: Sequence[Page],
    declared_pages: Container[object],
    errors: Errors,
) -> None:
    page_by_number = {page.number: page for page in pages}
    for block in blocks:
        for page in block.pages:
            if page not in declared_pages:
                errors.append(f"block {block.number}: page {page} does not exist")
        if all(page in page_by_number for page in block.pages):
            on_its_pages = {p for page in block.pages for p in page_by_number[page].problems}
            for problem in block.problems:
                if problem not in on_its_pages:
                    errors.append(
                        f"block {block.number}: problem {problem} is not on its pages "
                        f"{list(block.pages)}"
                    )
    if not blocks:
        errors.append("blocks: the plan has no blocks")
        return
    numbers = [block.number for block in blocks]
    if numbers != list(range(1, len(blocks) + 1)):
        errors.append(f"blocks: numbers must be 1, 2, … {len(blocks)} once each, got {numbers}")
        return
    by_hours = sorted(blocks, key=lambda block: block.start_hour)
    if [block.number for block in by_hours] != numbers:
        errors.append("blocks: block numbers must follow the hours (block 1 first)")
    if by_hours[0].start_hour != 0:
        errors.append(f"blocks: the plan must start at hour 0, not {by_hours[0].start_hour}")
    if by_hours[-1].end_hour != PLAN_HOURS:
        errors.append(
            f"blocks: the plan must end at hour {PLAN_HOURS}, not {by_hours[-1].end_hour}"
        )
    for before, after in zip(by_hours, by_hours[1:], strict=False):
        if before.end_hour < after.start_hour:
            errors.append(
                f"blocks: hours {before.end_hour}–{after.start_hour} are in no block "
                f"(block {before.number} ends at {before.end_hour}, "
                f"block {after.number} starts at {after.start_hour})"
            )
        elif before.end_hour > after.start_hour:
            errors.append(
                f"blocks: block {before.number} ({before.label} h) overlaps "
                f"block {after.number} ({after.label} h)"
            )
    keys = [goal.key for block in blocks for goal in block.goals]
    for key in sorted({key for key in keys if keys.count(key) > 1}):
        owners = [block.number for block in blocks if key in {g.key for g in block.goals}]
        errors.append(
            f"blocks: the goal key {key!r} is used in blocks {owners}; keys are unique in the plan"
        )
    studied_pages = {page for block in blocks for page in block.pages}
    practised = {problem for block in blocks for problem in block.problems}
    for entry in pages:
        if entry.number not in studied_pages:
            errors.append(f"blocks: page {entry.number} is in no block of the plan")
        for problem in entry.problems:
            if entry.number in studied_pages and problem not in practised:
                errors.append(f"blocks: problem {problem} is in no block of the plan")


def _mapping(
    data: object, where: str, required: set[str], optional: set[str], errors: Errors
) -> dict[Any, Any]:
    if not isinstance(data, dict):
        errors.append(f"{where}: expected a mapping of keys, got {_show(data)}")
        return {}
    for key in sorted(required - data.keys()):
        errors.append(f"{where}: the key {key!r} is missing")
    for key in sorted(data.keys() - required - optional, key=str):
        allowed = ", ".join(sorted(required | optional))
        errors.append(f"{where}: unknown key {key!r} (allowed: {allowed})")
    return data


def _sequence(
    data: object, where: str, errors: Errors, length: tuple[int, int | None] = (0, None)
) -> list[Any]:
    if data is _MISSING:
        return []
    if not isinstance(data, list):
        errors.append(f"{where}: expected a list, got {_show(data)}")
        return []
    low, high = length
    if len(data) < low or (high is not None and len(data) > high):
        wanted = f"{low} to {high}" if high is not None else f"at least {low}"
        errors.append(f"{where}: has {len(data)} entries; it needs {wanted}")
    return data


def _integer(data: object, where: str, errors: Errors) -> int | None:
    if data is _MISSING:
        return None
    # bool is an int in Python, and YAML reads `yes` as True.
    if isinstance(data, bool) or not isinstance(data, int):
        errors.append(f"{where}: expected a whole number, got {_show(data)}")
        return None
    return data


def _integers(data: object, where: str, errors: Errors) -> list[int]:
    values = _sequence(data, where, errors, (1, None))
    numbers = [_integer(value, f"{where}[{index}]", errors) for index, value in enumerate(values)]
    return [number for number in numbers if number is not None]


def _text(data: object, where: str, errors: Errors) -> str | None:
    if data is _MISSING:
        return None
    if not isinstance(data, str) or not data.strip():
        errors.append(f"{where}: expected non-empty text, got {_show(data)}")
        return None
    return data.strip()


def _texts(
    data: object, where: str, errors: Errors, length: tuple[int, int | None]
) -> tuple[str, ...]:
    values = _sequence(data, where, errors, length)
    texts = [_text(value, f"{where}[{index}]", errors) for index, value in enumerate(values)]
    return tuple(text for text in texts if text is not None)


def _show(value: object) -> str:
    """A short repr for an error message: a wrong value can be a whole page."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."
