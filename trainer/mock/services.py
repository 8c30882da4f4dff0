"""Mock interviews: start one, answer it one part at a time against the server's deadline, end it,
grade it and feed the scheduler, report on it.

The rules that make a mock impossible to game live here, not in the views:

- Everything is fixed at the start: the problems, each slot's scenario version and seed (an
  `Attempt` with purpose "mock") and the deadline. Nothing afterwards draws a variant, so a
  reload or a second tab shows the same mock.
- An answer is accepted until `deadline + GRACE` (the grace covers the request's trip to the
  server) and refused after it, whatever the client says. Each part is recorded once: the mock's
  row is locked while an answer is recorded, and `PartAnswer`'s unique constraint backs it.
- Until the mock ends nothing graded leaves the server: an answer is acknowledged with "recorded"
  only. A typed text that cannot be read (a parse error) is pointed out and records nothing; its
  message depends on the text and the part's unit, never on the key.
- The end is applied lazily: by the next request that touches the mock (`end_if_due`), or by
  `end_expired`, which anything may call (no background job is needed). Ending grades every
  attempt as a whole (so errors carried forward count), marks unanswered parts blank, and records
  one `Review` of kind "mock" per problem through `trainer.practice.services.apply_review`.
- A typed answer is read when it is recorded (an unreadable one is pointed out at once) but
  graded only at the end, with the rest of its attempt (`problems.attempts`).
"""

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, F
from django.utils import timezone

from problems import attempts, variants
from problems.attempts import PartOutcome
from problems.engine import EngineError, ParseError, Variant, solution_texts
from problems.models import Attempt, PartAnswer, Problem, ScenarioVersion
from trainer import charts
from trainer.curriculum import load_curriculum
from trainer.mock.models import Mock, MockItem
from trainer.mock.rubric import (
    CAPSTONE_RUBRIC,
    LEVEL_NAMES,
    LEVELS,
    MAX_POINTS,
    RUBRIC_KEYS,
    rubric_points,
)
from trainer.mock.selection import Candidate, pick_spread, weakness_weight
from trainer.practice import services as practice
from trainer.practice.models import Card, Review

Marks = dict[int, dict[str, int]]
"""A capstone self-assessment: {problem position: {rubric item key: level}}."""

GRACE = timedelta(seconds=5)
"""How long after the deadline an answer is still accepted: the time a request sent just before
the deadline may take to arrive and be served."""
STANDARD_PROBLEMS = 5
CAPSTONE_PROBLEM = 25
HISTORY_LIMIT = 20  # earlier mocks shown in a report's comparison and on the mock page


class MockError(Exception):
    """A request that cannot be carried out; the message is for the learner."""


# Starting a mock.


def _published_versions() -> list[ScenarioVersion]:
    """Every published version of an active scenario, with its problem: what mocks draw from."""
    return list(
        ScenarioVersion.objects.published()
        .select_related("scenario__problem")
        .order_by("scenario__problem__number", "scenario_id")
    )


def _versions_by_problem() -> dict[Problem, list[ScenarioVersion]]:
    by_problem: dict[Problem, list[ScenarioVersion]] = {}
    for version in _published_versions():
        by_problem.setdefault(version.scenario.problem, []).append(version)
    return by_problem


@dataclass
class Slot:
    problem: Problem
    version: ScenarioVersion
    label: str = ""


def _standard_slots(user: User, now: datetime, rng: random.Random) -> list["Slot"]:
    by_problem = _versions_by_problem()
    if not by_problem:
        raise MockError("There are no problems to ask yet.")
    if len(by_problem) > 1:
        # The capstone is a whole interview on its own (its own format rehearses it); in a
        # standard mock it would take half the time.
        by_problem = {
            problem: versions
            for problem, versions in by_problem.items()
            if problem.number != CAPSTONE_PROBLEM
        }
    scheduler = practice.scheduler_for(practice.get_profile(user))
    recall: dict[int, float] = {}
    for problem_id, state, last_reviewed_at in Card.objects.filter(user=user).values_list(
        "problem_id", "state", "last_reviewed_at"
    ):
        if last_reviewed_at is not None:
            recall[problem_id] = scheduler.predicted_recall(scheduler.state_from_dict(state), now)
    problems = {problem.number: problem for problem in by_problem}
    candidates = [
        Candidate(problem.number, problem.page, weakness_weight(recall.get(problem.pk)))
        for problem in by_problem
    ]
    chosen = pick_spread(candidates, STANDARD_PROBLEMS, rng)
    return [Slot(problems[number], rng.choice(by_problem[problems[number]])) for number in chosen]


def _drill_slots(page: int | None, rng: random.Random) -> list[Slot]:
    by_problem = {
        problem: versions
        for problem, versions in _versions_by_problem().items()
        if problem.page == page
    }
    if not by_problem:
        raise MockError("Choose a page that has problems to drill.")
    return [Slot(problem, rng.choice(versions)) for problem, versions in by_problem.items()]


def _capstone_slots(rng: random.Random) -> list[Slot]:
    versions = next(
        (v for problem, v in _versions_by_problem().items() if problem.number == CAPSTONE_PROBLEM),
        None,
    )
    if not versions:
        raise MockError(f"Problem {CAPSTONE_PROBLEM} is not in the bank yet.")
    problem = versions[0].scenario.problem
    if len(versions) >= 2:
        first, second = rng.sample(versions, 2)
        return [
            Slot(problem, first, f"Rehearsal 1: {first.scenario.title}"),
            Slot(problem, second, f"Rehearsal 2: {second.scenario.title}"),
        ]
    # One scenario only: the same setting twice, with different numbers.
    return [
        Slot(problem, versions[0], f"Rehearsal 1: {versions[0].scenario.title}"),
        Slot(problem, versions[0], f"Rehearsal 2: {versions[0].scenario.title}, new numbers"),
    ]


def _slots(
    user: User, format: str, page: int | None, now: datetime, rng: random.Random
) -> list[Slot]:
    if format == Mock.Format.STANDARD:
        return _standard_slots(user, now, rng)
    if format == Mock.Format.DRILL:
        return _drill_slots(page, rng)
    if format == Mock.Format.CAPSTONE:
        return _capstone_slots(rng)
    raise MockError("Choose a standard mock, a page drill or the capstone rehearsal.")


def _distinct_seeds(count: int) -> list[int]:
    seeds: list[int] = []
    while len(seeds) < count:
        seed = variants.new_seed()
        if seed not in seeds:
            seeds.append(seed)
    return seeds


def start(
    user: User,
    format: str,
    now: datetime,
    *,
    page: int | None = None,
    rng: random.Random | None = None,
) -> tuple[Mock, bool]:
    """Start a mock of `format` ("standard", "drill" with `page`, "capstone"), or return the
    learner's running one. Returns (mock, created)."""
    end_expired(now, user=user)
    running = Mock.objects.filter(user=user, ended_at__isnull=True).first()
    if running is not None:
        return running, False
    slots = _slots(user, format, page, now, rng or random.SystemRandom())
    minutes = sum(slot.problem.expected_minutes for slot in slots)
    seeds = _distinct_seeds(len(slots))
    try:
        with transaction.atomic():
            mock = Mock.objects.create(
                user=user,
                format=format,
                page=page if format == Mock.Format.DRILL else None,
                started_at=now,
                deadline=now + timedelta(minutes=minutes),
            )
            drawn = attempts.draw_many(
                user.pk,
                [(slot.version, seed) for slot, seed in zip(slots, seeds, strict=True)],
                Attempt.Purpose.MOCK,
                now,
            )
            MockItem.objects.bulk_create(
                [
                    MockItem(
                        mock=mock,
                        position=position,
                        attempt=attempt,
                        problem=slot.problem,
                        label=slot.label,
                    )
                    for position, (slot, attempt) in enumerate(
                        zip(slots, drawn, strict=True), start=1
                    )
                ]
            )
            practice.mark_mock(user, mock.deadline + GRACE)
    except IntegrityError:
        # Another request started one between our check and our insert: resume that one.
        running = Mock.objects.filter(user=user, ended_at__isnull=True).first()
        if running is None:
            raise
        return running, False
    return mock, True


# Looking mocks up.


def get_mock(user: User, mock_id: int) -> Mock | None:
    """The learner's own mock, or None: another learner's mock does not exist for them."""
    return Mock.objects.filter(pk=mock_id, user=user).first()


def is_over(mock: Mock, now: datetime) -> bool:
    return mock.ended_at is not None or now > mock.deadline + GRACE


def seconds_left(mock: Mock, now: datetime) -> int:
    """Whole seconds until the deadline (0 once it has passed)."""
    return max(0, int((mock.deadline - now).total_seconds()))


# Ending a mock.


def end_if_due(mock: Mock, now: datetime) -> Mock:
    """Apply the end of a mock whose time is up; returns the mock as it now is."""
    if mock.ended_at is None and now > mock.deadline + GRACE:
        return end(mock.pk, now)
    return mock


def end_expired(now: datetime, user: User | int | None = None) -> int:
    """End every mock (of `user`, or of everyone) whose deadline and grace have passed.
    Idempotent; returns how many it ended."""
    due = Mock.objects.filter(ended_at__isnull=True, deadline__lt=now - GRACE)
    if user is not None:
        due = due.filter(user=user)
    ids = list(due.values_list("pk", flat=True))
    for mock_id in ids:
        end(mock_id, now)
    return len(ids)


def finish(user: User, mock_id: int, now: datetime) -> Mock:
    """The learner ends their mock early; nothing can be answered afterwards."""
    mock = get_mock(user, mock_id)
    if mock is None:
        raise MockError("This mock does not exist.")
    return end(mock.pk, now, early=True)


def end(mock_id: int, now: datetime, *, early: bool = False) -> Mock:
    """End a mock: grade it, record the reviews. Early, or once its time is up; otherwise a
    no-op. Safe to call twice or from two requests at once."""
    with transaction.atomic():
        mock = Mock.objects.select_for_update().get(pk=mock_id)
        if mock.ended_at is None and (early or now > mock.deadline + GRACE):
            _end_locked(mock, now, early=early)
        return mock


def _end_locked(mock: Mock, now: datetime, *, early: bool) -> None:
    over_at = min(now, mock.deadline) if early else mock.deadline
    _credit_time(mock, None, over_at)
    items = list(
        mock.items.select_related("attempt__version__scenario__problem", "problem")
        .prefetch_related("attempt__answers")
        .order_by("position")
    )
    incomplete = {item.pk: _grade_item(item, over_at) for item in items}
    _feed_scheduler(mock.user_id, items, incomplete, now)
    mock.ended_at = over_at
    mock.finished_early = early and now < mock.deadline
    mock.score = sum(item.attempt.score or 0.0 for item in items) / len(items) if items else 0.0
    mock.save(
        update_fields=["ended_at", "finished_early", "score", "current_item", "current_since"]
    )
    practice.mark_mock(mock.user_id, None)


def _grade_item(item: MockItem, over_at: datetime) -> bool:
    """Grade an attempt on everything recorded for it; unanswered parts become blank. Returns
    whether the attempt is incomplete (some part blank, or nothing could be graded)."""
    attempt = item.attempt
    try:
        graded = attempts.grade(attempt, attempts.recorded_texts(attempt))
    except EngineError:
        # A version that no longer compiles cannot be graded; it scores nothing rather than
        # blocking the end of the mock.
        attempts.submit_ungraded(attempt, over_at)
        return True
    attempts.save_grades(attempt, graded, submitted_at=over_at)
    return graded.incomplete


def _feed_scheduler(
    user_id: int, items: Sequence[MockItem], incomplete: Mapping[int, bool], now: datetime
) -> None:
    """One review of kind "mock" per problem slot; a card is created for a problem the learner
    has none for. A miss (quality below 3) counts as a lapse, as in practice."""
    if not items:
        return
    user = items[0].attempt.user
    practice.introduce(user, sorted({item.problem.number for item in items}), now)
    cards = {
        card.problem_id: card
        for card in Card.objects.select_for_update()
        .select_related("problem", "user")
        .filter(user_id=user_id, problem_id__in=[item.problem_id for item in items])
    }
    for item in items:
        card = cards.get(item.problem_id)
        if card is None:  # the problem lost its published scenarios since the mock started
            continue
        elapsed = (
            min(item.seconds_open, attempts.MAX_ELAPSED_SECONDS)
            if item.first_opened_at is not None
            else None
        )
        practice.apply_review(
            card,
            item.attempt,
            item.attempt.score,
            incomplete=incomplete[item.pk],
            elapsed=elapsed,
            now=now,
            kind=Review.Kind.MOCK,
        )


def _credit_time(mock: Mock, item: MockItem | None, now: datetime) -> None:
    """Credit the problem on screen with the time since it was opened, and make `item` (or
    nothing) the one on screen from `now`. The caller holds the mock's row lock."""
    if mock.current_item_id is not None and mock.current_since is not None:
        seconds = (min(now, mock.deadline) - mock.current_since).total_seconds()
        if seconds > 0:
            MockItem.objects.filter(pk=mock.current_item_id).update(
                seconds_open=F("seconds_open") + seconds
            )
    mock.current_item = item
    mock.current_since = now if item is not None else None


# Running a mock: opening problems, answering parts.


def open_problem(mock: Mock, position: int, now: datetime) -> MockItem | None:
    """Put problem `position` on screen: note when it was first opened and start its clock.
    Returns the item, or None when there is no such problem. The mock must be running."""
    with transaction.atomic():
        locked = Mock.objects.select_for_update().get(pk=mock.pk)
        item = locked.items.filter(position=position).first()
        if item is None or is_over(locked, now):
            return item
        if item.first_opened_at is None:
            item.first_opened_at = now
            item.save(update_fields=["first_opened_at"])
        if locked.current_item_id != item.pk:
            _credit_time(locked, item, now)
            locked.save(update_fields=["current_item", "current_since"])
        return item


RECORDED = "recorded"
ALREADY = "already"
PARSE = "parse_error"
EMPTY = "empty"
CLOSED = "closed"
MISSING = "missing"


@dataclass
class AnswerOutcome:
    """What happened to one typed answer; never anything about its correctness."""

    status: str
    message: str = ""
    mock: Mock | None = None
    item: MockItem | None = None


def record_answer(
    user: User, mock_id: int, position: int, part_key: str, text: str | None, now: datetime
) -> AnswerOutcome:
    """Record the answer to one part, once, if the mock is still open (deadline + GRACE)."""
    text = attempts.typed_text(text)
    with transaction.atomic():
        mock = Mock.objects.select_for_update().filter(pk=mock_id, user=user).first()
        if mock is None:
            return AnswerOutcome(MISSING)
        if is_over(mock, now):
            if mock.ended_at is None:
                _end_locked(mock, now, early=False)
            return AnswerOutcome(CLOSED, mock=mock)
        item = (
            mock.items.select_related("attempt__version__scenario__problem")
            .filter(position=position)
            .first()
        )
        if item is None:
            return AnswerOutcome(MISSING, mock=mock)
        attempt = item.attempt
        variant = variants.attempt_variant(attempt)
        if part_key not in variant.answer_values:
            return AnswerOutcome(MISSING, mock=mock, item=item)
        if attempt.answers.filter(part_key=part_key).exists():
            return AnswerOutcome(ALREADY, mock=mock, item=item)
        if not text:
            return AnswerOutcome(EMPTY, "Type an answer first.", mock=mock, item=item)
        try:
            row = attempts.record_typed(attempt, part_key, text, variant)
        except ParseError as error:
            return AnswerOutcome(PARSE, error.message, mock=mock, item=item)
        if row is None:
            return AnswerOutcome(ALREADY, mock=mock, item=item)
        item.first_answered_at = item.first_answered_at or now
        item.last_answered_at = now
        item.save(update_fields=["first_answered_at", "last_answered_at"])
        if mock.current_item_id != item.pk:
            _credit_time(mock, item, now)
            mock.save(update_fields=["current_item", "current_since"])
        return AnswerOutcome(RECORDED, mock=mock, item=item)


DESIGN_ANSWER_LIMIT = 20_000  # characters: a long written interview answer, not a document


def save_design_answer(
    user: User, mock_id: int, position: int, text: str | None, now: datetime
) -> AnswerOutcome:
    """Keep the capstone's written design answer for problem `position`, while the mock is open
    (deadline + GRACE); it may be saved again until then. Returns an `AnswerOutcome`: RECORDED,
    CLOSED, MISSING, or EMPTY with a message (too long, or not a capstone), saving nothing."""
    text = (text or "").replace("\r\n", "\n").strip()
    with transaction.atomic():
        mock = Mock.objects.select_for_update().filter(pk=mock_id, user=user).first()
        if mock is None:
            return AnswerOutcome(MISSING)
        item = mock.items.filter(position=position).first()
        if item is None:
            return AnswerOutcome(MISSING, mock=mock)
        if mock.format != Mock.Format.CAPSTONE:
            message = "Only the capstone rehearsal asks for a written design."
            return AnswerOutcome(EMPTY, message, mock=mock, item=item)
        if is_over(mock, now):
            if mock.ended_at is None:
                _end_locked(mock, now, early=False)
            return AnswerOutcome(CLOSED, mock=mock, item=item)
        if len(text) > DESIGN_ANSWER_LIMIT:
            return AnswerOutcome(
                EMPTY,
                f"Keep the answer under {DESIGN_ANSWER_LIMIT:,} characters (this one has "
                f"{len(text):,}); nothing was saved.",
                mock=mock,
                item=item,
            )
        item.design_answer = text
        item.save(update_fields=["design_answer"])
        return AnswerOutcome(RECORDED, mock=mock, item=item)


# What the pages show.


@dataclass
class AnswerBox:
    """One answer box as the running mock shows it: no key, no verdict. A recorded box shows
    what was typed and, if it differs, how it was read (`read_as`), so a slip is visible."""

    key: str
    number: int
    prompt: str
    unit: str
    recorded: bool = False
    typed: str = ""
    error: str = ""
    note: str = ""
    recorded_text: str = ""
    read_as: str = ""


def _recorded(box: "AnswerBox", variant: Variant, row: PartAnswer) -> "AnswerBox":
    """Fill a box from its stored answer (text, value as read); returns the box."""
    box.recorded = True
    box.recorded_text = row.text
    if row.value is not None:
        shown = variant.value_text(box.key, row.value)
        box.read_as = "" if shown == row.text else shown
    return box


@dataclass
class ItemProgress:
    item: MockItem
    parts_total: int
    parts_recorded: int

    @property
    def done(self) -> bool:
        return self.parts_recorded == self.parts_total


Recorded = dict[int, dict[str, PartAnswer]]
"""The stored answers of a mock: {attempt id: {part key: row}}."""


def _progress(mock: Mock) -> tuple[list[ItemProgress], Recorded]:
    """Each problem of the mock with how many of its parts are recorded (the problem tabs), and
    the stored answers {attempt id: {part key: row}}."""
    items = list(mock.items.select_related("attempt__version__scenario__problem", "problem"))
    recorded: Recorded = {}
    for row in PartAnswer.objects.filter(attempt__mock_item__mock=mock).only(
        "attempt_id", "part_key", "text", "value"
    ):
        recorded.setdefault(row.attempt_id, {})[row.part_key] = row
    views = []
    for item in items:
        variant = variants.attempt_variant(item.attempt)
        done = recorded.get(item.attempt_id, {})
        views.append(
            ItemProgress(item, len(variant.parts), len(set(done) & set(variant.answer_values)))
        )
    return views, recorded


def progress(mock: Mock) -> list[ItemProgress]:
    """The problem tabs of a running mock (sent again as each part is recorded)."""
    return _progress(mock)[0]


def running_context(
    mock: Mock,
    position: int,
    now: datetime,
    *,
    part_errors: Mapping[str, tuple[str, str]] | None = None,
) -> dict[str, Any] | None:
    """What the page of a running mock shows for problem `position`: the problem's text and
    prompts, which parts are recorded, and the clock. `part_errors` maps a part key to
    (typed text, message) for an answer that was not recorded."""
    part_errors = part_errors or {}
    views, recorded = _progress(mock)
    current = next((view.item for view in views if view.item.position == position), None)
    if current is None:
        return None
    item = current
    variant = variants.attempt_variant(item.attempt)
    done = recorded.get(item.attempt_id, {})
    parts = []
    for number, part in enumerate(variant.parts, start=1):
        typed, error = part_errors.get(part.key, ("", ""))
        box = AnswerBox(part.key, number, part.prompt, part.unit, typed=typed, error=error)
        if part.key in done:
            _recorded(box, variant, done[part.key])
        parts.append(box)
    return {
        "mock": mock,
        "items": views,
        "item": item,
        "problem": item.problem,
        "text": variant.text,
        "sheets": variant.catalogue_sheets(),
        "parts": parts,
        "design": {"text": item.design_answer} if mock.format == Mock.Format.CAPSTONE else None,
        "seconds_left": seconds_left(mock, now),
        "grace_seconds": int(GRACE.total_seconds()),
        "previous": views[item.position - 2].item if item.position > 1 else None,
        "next": views[item.position].item if item.position < len(views) else None,
    }


def answer_box(
    item: MockItem,
    part_key: str,
    *,
    recorded: bool,
    typed: str = "",
    error: str = "",
    note: str = "",
) -> AnswerBox:
    """One answer box, for the partial an answer request returns."""
    variant = variants.attempt_variant(item.attempt)
    number, part = next(
        (number, part) for number, part in enumerate(variant.parts, start=1) if part.key == part_key
    )
    box = AnswerBox(part.key, number, part.prompt, part.unit, typed=typed, error=error, note=note)
    row = item.attempt.answers.filter(part_key=part_key).first() if recorded else None
    return _recorded(box, variant, row) if row is not None else box


def get_item(mock: Mock, position: int) -> MockItem | None:
    return (
        mock.items.select_related("attempt__version__scenario__problem", "problem")
        .filter(position=position)
        .first()
    )


@dataclass
class MockFormats:
    """What the mock page offers: the pages a drill can take and whether the capstone can run."""

    standard_minutes: int
    standard_problems: int
    pages: list[dict[str, Any]] = field(default_factory=list)
    capstone_minutes: int | None = None


def mock_formats() -> MockFormats:
    curriculum = load_curriculum()
    by_page: dict[int, list[Problem]] = {}
    capstone = None
    for problem in _versions_by_problem():
        by_page.setdefault(problem.page, []).append(problem)
        if problem.number == CAPSTONE_PROBLEM:
            capstone = problem
    minutes = [
        problem.expected_minutes
        for problems in by_page.values()
        for problem in problems
        if problem is not capstone
    ] or ([capstone.expected_minutes] if capstone else [])
    count = min(STANDARD_PROBLEMS, len(minutes))
    pages = []
    for number in sorted(by_page):
        try:
            title = curriculum.page(number).title
        except KeyError:
            title = ""
        problems = by_page[number]
        pages.append(
            {
                "number": number,
                "title": title,
                "problems": len(problems),
                "minutes": sum(problem.expected_minutes for problem in problems),
            }
        )
    typical = round(sum(minutes) / len(minutes) * count) if minutes else 0
    return MockFormats(
        standard_minutes=typical,
        standard_problems=count,
        pages=pages,
        capstone_minutes=2 * capstone.expected_minutes if capstone else None,
    )


def past_mocks(user: User | int, limit: int = HISTORY_LIMIT) -> list[Mock]:
    """The learner's ended mocks, newest first, with their number of problems."""
    return list(
        Mock.objects.filter(user=user, ended_at__isnull=False)
        .annotate(problems=Count("items"))
        .order_by("-ended_at", "-pk")[:limit]
    )


def running_mock(user: User) -> Mock | None:
    return Mock.objects.filter(user=user, ended_at__isnull=True).first()


def dashboard_mocks(user: User, now: datetime, limit: int = 5) -> dict[str, Any]:
    """For the dashboard: the running mock (if any) and the latest ended ones, in two queries
    when nothing has expired."""
    end_expired(now, user=user)
    latest = list(
        Mock.objects.filter(user=user)
        .annotate(problems=Count("items"))
        .order_by("-started_at", "-pk")[: limit + 1]
    )
    running = next((mock for mock in latest if mock.ended_at is None), None)
    ended = [mock for mock in latest if mock.ended_at is not None][:limit]
    return {"running": running, "recent": ended}


def history_chart(mocks: Iterable[Mock], *, highlight: Mock | None = None) -> str:
    """Scores of earlier mocks over time, oldest first, as an SVG bar chart."""
    ordered = sorted(mocks, key=lambda mock: (mock.ended_at, mock.pk))
    # In the zone the page is shown in (the learner's), like the page's other times.
    ended = [timezone.localtime(mock.ended_at) for mock in ordered]
    return charts.bar_chart(
        [
            (
                f"{at:%d %b %H:%M} {mock.get_format_display()}"
                + (" (this one)" if highlight is not None and mock.pk == highlight.pk else ""),
                round(100 * (mock.score or 0)),
                f"{at:%d %b}" if index % 4 == 0 else "",
            )
            for index, (mock, at) in enumerate(zip(ordered, ended, strict=True))
        ],
        title="Score of each mock, oldest first",
        unit="%",
    )


# The report.


@dataclass
class ItemReport:
    item: MockItem
    score: float
    parts: list[PartOutcome]
    review: Review | None
    seconds_open: float
    opened_after: float | None
    first_answer_after: float | None
    expected_seconds: float
    rubric_points: int = 0
    follow_ups: tuple = ()  # what the interviewer asks next, told with the variant's numbers


def report(mock: Mock) -> dict[str, Any]:
    """Everything the report shows, once the mock has ended (the caller checks)."""
    ended_at = mock.ended_at
    if ended_at is None:
        raise MockError("The report is ready when the mock is over.")
    items = list(
        mock.items.select_related(
            "attempt__version__scenario__problem", "attempt__review", "problem"
        )
        .prefetch_related("attempt__answers")
        .order_by("position")
    )
    reports = []
    for item in items:
        attempt = item.attempt
        variant = variants.attempt_variant(attempt)
        outcomes = attempts.stored_outcomes(attempt, variant)
        reports.append(
            ItemReport(
                item=item,
                score=attempt.score or 0.0,
                parts=outcomes,
                review=getattr(attempt, "review", None),
                seconds_open=item.seconds_open,
                opened_after=_after(mock, item.first_opened_at),
                first_answer_after=_after(mock, item.first_answered_at),
                expected_seconds=item.problem.expected_minutes * 60,
                rubric_points=rubric_points(item.rubric or {}),
                follow_ups=solution_texts(variant, item.problem)["follow_ups"],
            )
        )
    earlier = past_mocks(mock.user_id, HISTORY_LIMIT)
    previous = [
        other
        for other in earlier
        if other.format == mock.format
        and other.pk != mock.pk
        and other.ended_at is not None
        and other.ended_at <= ended_at
    ]
    return {
        "mock": mock,
        "items": reports,
        "score": mock.score or 0.0,
        "used_seconds": (ended_at - mock.started_at).total_seconds(),
        "history": earlier,
        "history_chart": history_chart(earlier, highlight=mock) if len(earlier) > 1 else "",
        "previous_same_format": previous[0] if previous else None,
        "rubric_rows": [
            {
                "entry": entry,
                "cells": [
                    {"position": item.position, "level": (item.rubric or {}).get(entry.key)}
                    for item in items
                ],
            }
            for entry in CAPSTONE_RUBRIC
        ],
        "rubric_max": MAX_POINTS,
        "rubric_levels": LEVELS,
        "assessed": any(item.rubric for item in items),
    }


def _after(mock: Mock, moment: datetime | None) -> float | None:
    return None if moment is None else (moment - mock.started_at).total_seconds()


def solution_context(mock: Mock, position: int) -> dict[str, Any] | None:
    """The worked solution of one problem of an ended mock, in the shape of
    `templates/practice/_result.html`."""
    item = get_item(mock, position)
    if item is None:
        return None
    context = attempts.solution_context(item.attempt, variants.attempt_variant(item.attempt))
    context.update(mock=mock, item=item)
    return context


def save_rubric(mock: Mock, marks: Marks) -> None:
    """Store the capstone self-assessment: `marks` is {position: {rubric key: level}}."""
    if mock.format != Mock.Format.CAPSTONE:
        raise MockError("Only the capstone rehearsal has a rubric.")
    if mock.ended_at is None:
        raise MockError("Assess yourself once the rehearsal is over.")
    levels = set(LEVEL_NAMES)
    with transaction.atomic():
        for item in mock.items.select_for_update():
            given = marks.get(item.position, {})
            item.rubric = {
                key: level for key, level in given.items() if key in RUBRIC_KEYS and level in levels
            }
            item.save(update_fields=["rubric"])


def rubric_from_post(post: Mapping[str, str]) -> Marks:
    """{position: {rubric key: level}} from form fields named rubric-<position>-<key>."""
    marks: Marks = {}
    for name, value in post.items():
        prefix, _, rest = name.partition("-")
        position_text, _, key = rest.partition("-")
        if prefix != "rubric":
            continue
        try:  # int() refuses "²" (which isdigit() accepts) and more than 4,300 digits
            position, level = int(position_text), int(value)
        except ValueError:
            continue
        marks.setdefault(position, {})[key] = level
    return marks


def rescore(sender: object, attempt: Attempt, **kwargs: Any) -> None:
    """A regrade changed the score of `attempt`: an ended mock's score is the mean of its
    attempts' scores, so it is brought up to date."""
    item = MockItem.objects.filter(attempt=attempt).select_related("mock").first()
    if item is None or item.mock.ended_at is None:
        return
    scores = list(MockItem.objects.filter(mock=item.mock).values_list("attempt__score", flat=True))
    item.mock.score = sum(score or 0.0 for score in scores) / len(scores)
    item.mock.save(update_fields=["score"])
