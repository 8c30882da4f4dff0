"""The dashboard's statements, as constant SQL on a cursor: plain rows, no model instances.

The ORM costs 0.4 to 0.8 ms of Python per statement to build its SQL and rows (bench/README.md),
about as much as the rest of the dashboard's work; these few statements run on every view of the
home page, so they are written once here. Table names come from the models, so a renamed
one still matches; they are the only text put into the SQL (every value is a parameter: the noqa).

Values go in and instants come out as the practice loop's statements pass and read them
(`trainer.practice.statements.parameter` and `instant`): aware UTC datetimes on both databases.
"""

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db import connection

from problems.models import Attempt, Problem, Scenario, ScenarioVersion
from trainer.mock.models import Mock, MockItem
from trainer.practice.models import Card, Review
from trainer.practice.statements import instant, parameter

CARD = Card._meta.db_table
PROBLEM = Problem._meta.db_table
REVIEW = Review._meta.db_table
ATTEMPT = Attempt._meta.db_table
VERSION = ScenarioVersion._meta.db_table
SCENARIO = Scenario._meta.db_table
MOCK = Mock._meta.db_table
MOCK_ITEM = MockItem._meta.db_table


def _fetch(sql: str, params: list[Any]) -> list[tuple[Any, ...]]:
    with connection.cursor() as cursor:
        cursor.execute(sql, [parameter(value) for value in params])
        return cursor.fetchall()


@dataclass(frozen=True)
class CardRow:
    """One card with its problem's number and title. `state` is the stored JSON text: equal
    texts are equal states, which is what the caches compare."""

    id: int
    number: int
    title: str
    rank: int
    state: str
    due_at: datetime | None
    last_reviewed_at: datetime | None
    reviews_count: int
    suspended: bool
    buried_until: datetime | None


CARDS_SQL = (
    # Every problem, with the learner's card of it if any: the answers name their problems.
    f"SELECT p.id, p.number, p.title, c.id, c.rank, c.state, c.due_at, c.last_reviewed_at, "  # noqa: S608
    f"c.reviews_count, c.suspended, c.buried_until "
    f"FROM {PROBLEM} p LEFT OUTER JOIN {CARD} c ON c.problem_id = p.id AND c.user_id = %s"
)


def cards(user_id: int) -> tuple[list[CardRow], dict[int, tuple[int, str]]]:
    """Every card of the learner, in no particular order, and the number and title of every
    problem by its id."""
    found = []
    problems = {}
    for (
        problem_id,
        number,
        title,
        id,
        rank,
        state,
        due_at,
        last_reviewed_at,
        reviews_count,
        suspended,
        buried_until,
    ) in _fetch(CARDS_SQL, [user_id]):
        problems[problem_id] = (number, title)
        if id is None:
            continue
        found.append(
            CardRow(
                id,
                number,
                title,
                rank,
                state if isinstance(state, str) else _json_text(state),
                instant(due_at),
                instant(last_reviewed_at),
                reviews_count,
                bool(suspended),
                instant(buried_until),
            )
        )
    return found, problems


def _json_text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@dataclass(frozen=True)
class ReviewRow:
    id: int
    card_id: int
    reviewed_at: datetime
    score: float
    quality: int
    kind: str


@dataclass(frozen=True)
class Reviews:
    """What one statement says about the learner's review log at the start of today.

    `before`: (count, greatest id, sum of quality × id) of the reviews before `today_start`, a
    value that changes whenever one of them is added, deleted or re-rated (ids only grow, so a
    deletion lowers the count until an insertion raises the greatest id); `today`: the reviews
    from `today_start` on, oldest first; `latest`: the card ids of the two latest reviews, newest
    first (the queue's "not twice in a row")."""

    before: tuple[int, int, int]
    today: list[ReviewRow]
    latest: list[int]


REVIEWS_SQL = (
    # Column types line up across the three parts for PostgreSQL's UNION.
    f"SELECT 0, COUNT(*), COALESCE(MAX(id), 0), NULL, NULL, "  # noqa: S608
    f"CAST(COALESCE(SUM(quality * id), 0) AS BIGINT), NULL "
    f"FROM {REVIEW} WHERE user_id = %s AND reviewed_at < %s "
    f"UNION ALL "
    f"SELECT 1, id, card_id, reviewed_at, score, quality, kind "
    f"FROM {REVIEW} WHERE user_id = %s AND reviewed_at >= %s "
    f"UNION ALL "
    f"SELECT * FROM (SELECT 2, id, card_id, reviewed_at, 0.0, 0, '' FROM {REVIEW} "
    f"WHERE user_id = %s ORDER BY reviewed_at DESC, id DESC LIMIT 2) latest"
)


def reviews(user_id: int, today_start: datetime) -> Reviews:
    before = (0, 0, 0)
    today: list[ReviewRow] = []
    latest: list[tuple[datetime, int, int]] = []
    for part, id, card_id, reviewed_at, score, quality, kind in _fetch(
        REVIEWS_SQL, [user_id, today_start, user_id, today_start, user_id]
    ):
        if part == 0:
            before = (int(id), int(card_id), int(quality))
        elif part == 1:
            today.append(ReviewRow(id, card_id, _aware(reviewed_at), score, quality, kind))
        else:
            latest.append((_aware(reviewed_at), id, card_id))
    today.sort(key=lambda row: (row.reviewed_at, row.id))
    latest.sort(reverse=True)
    return Reviews(before, today, [card_id for _, _, card_id in latest])


def _aware(value: Any) -> datetime:
    moment = instant(value)
    if moment is None:
        raise ValueError("a review without its instant")
    return moment


HISTORY_SQL = (
    f"SELECT card_id, reviewed_at, score, quality FROM {REVIEW} "  # noqa: S608
    f"WHERE user_id = %s AND reviewed_at < %s ORDER BY reviewed_at, id"
)


def history(user_id: int, today_start: datetime) -> list[tuple[int, datetime, float, int]]:
    """The reviews before today, oldest first: (card id, instant, score, quality)."""
    return [
        (card_id, _aware(reviewed_at), score, quality)
        for card_id, reviewed_at, score, quality in _fetch(HISTORY_SQL, [user_id, today_start])
    ]


@dataclass(frozen=True)
class AnswerRow:
    pk: int
    submitted_at: datetime | None
    score: float | None
    purpose: str
    regrade_unseen: bool
    number: int
    title: str
    regraded: int | None


RECENT_ANSWERS = 10

_ANSWER_COLUMNS = (
    f"a.id, a.submitted_at, a.score, a.purpose, a.regrade_unseen, a.version_id, "  # noqa: S608
    f"a.key_version_id FROM {ATTEMPT} a WHERE a.user_id = %s AND a.submitted_at IS NOT NULL"
)
ANSWERS_SQL = (
    # The problem is joined to the twenty rows at most, not in each part: PostgreSQL spent
    # more planning the joins of both parts than running the whole statement.
    f"SELECT x.part, x.id, x.submitted_at, x.score, x.purpose, x.regrade_unseen, "  # noqa: S608
    f"x.key_version_id, s.problem_id FROM ("
    f"SELECT * FROM (SELECT 0 AS part, {_ANSWER_COLUMNS} "
    f"ORDER BY a.submitted_at DESC LIMIT {RECENT_ANSWERS}) recent "
    f"UNION ALL "
    f"SELECT * FROM (SELECT 1 AS part, {_ANSWER_COLUMNS} AND a.regrade_unseen "
    f"ORDER BY a.submitted_at DESC LIMIT {RECENT_ANSWERS}) regraded) x "
    f"INNER JOIN {VERSION} v ON v.id = x.version_id INNER JOIN {SCENARIO} s ON s.id = v.scenario_id"
)


def answers(
    user_id: int, problems: dict[int, tuple[int, str]]
) -> tuple[list[AnswerRow], list[AnswerRow]]:
    """The learner's latest answers, and the regraded ones not yet opened, newest first (the
    same rows filtered two ways, in one statement); `problems` names their problems."""
    recent: list[AnswerRow] = []
    regraded: list[AnswerRow] = []
    for part, pk, submitted_at, score, purpose, unseen, key, problem_id in _fetch(
        ANSWERS_SQL, [user_id, user_id]
    ):
        number, title = problems[problem_id]
        row = AnswerRow(pk, instant(submitted_at), score, purpose, bool(unseen), number, title, key)
        (regraded if part else recent).append(row)
    recent.sort(key=_submitted, reverse=True)
    regraded.sort(key=_submitted, reverse=True)
    return recent, regraded


def _submitted(row: AnswerRow) -> datetime:
    return row.submitted_at or datetime.min.replace(tzinfo=UTC)


@dataclass(frozen=True)
class MockRow:
    pk: int
    format: str
    page: int | None
    started_at: datetime | None
    deadline: datetime | None
    ended_at: datetime | None
    score: float | None
    problems: int

    def get_format_display(self) -> str:
        return str(Mock.Format(self.format).label)


MOCKS_SQL = (
    f"SELECT m.id, m.format, m.page, m.started_at, m.deadline, m.ended_at, m.score, "  # noqa: S608
    f"(SELECT COUNT(*) FROM {MOCK_ITEM} i WHERE i.mock_id = m.id) "
    f"FROM {MOCK} m WHERE m.user_id = %s ORDER BY m.started_at DESC, m.id DESC LIMIT %s"
)


def mocks(user_id: int, count: int) -> list[MockRow]:
    """The learner's latest `count` mocks, newest first, with how many problems each has."""
    return [
        MockRow(
            pk,
            format,
            page,
            instant(started_at),
            instant(deadline),
            instant(ended_at),
            score,
            problems,
        )
        for pk, format, page, started_at, deadline, ended_at, score, problems in _fetch(
            MOCKS_SQL, [user_id, count]
        )
    ]
