"""The practice loop's hot statements as constant SQL, run on a cursor.

Building a query through the ORM costs 0.4 to 0.8 ms of Python a statement (compiling the SQL,
building model instances); the same statement as constant SQL costs about 0.1 ms (bench/README,
issue 18). Only the statements of the practice page, the answer and the rating live here; the
rest of the application keeps the ORM. Each statement keeps its SQL and the names of its columns;
the SQL is the same on SQLite and PostgreSQL (Django's cursor takes `%s` placeholders on both).

What a cursor returns differs between the two databases, and the statement evens it out:
SQLite's datetimes come back naive (they are stored in UTC) and JSON comes back as text.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache, cached_property
from typing import Any

from django.db import connection
from django.db.models import DateTimeField, JSONField, Model

from problems.models import Attempt, Problem, Scenario, ScenarioVersion, VariantReport
from trainer.practice.models import Card, Review

Row = dict[str, Any]
"""One row of a statement: {column name: value}."""


def instant(value: Any) -> datetime | None:
    """A database instant as an aware UTC datetime, None staying None: SQLite's converters give
    naive UTC datetimes (or text, where a UNION loses the column's declared type), PostgreSQL
    aware ones."""
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


@dataclass(frozen=True)
class Statement:
    """One constant statement: its SQL, the names of the columns it returns, and which of them
    are datetimes (aware in UTC once read) or JSON (parsed once read)."""

    sql: str
    columns: tuple[str, ...] = ()
    datetimes: frozenset[str] = frozenset()
    json: frozenset[str] = frozenset()
    lock: str = ""

    def __post_init__(self) -> None:
        # One line, as the ORM writes it: what logs, tests and --show-queries match on.
        object.__setattr__(self, "sql", " ".join(self.sql.split()))

    def rows(self, *params: Any) -> list[Row]:
        """The rows, each {column name: value}."""
        sql = self.sql
        if self.lock and connection.features.has_select_for_update:
            sql += " " + self.lock
        with connection.cursor() as cursor:
            cursor.execute(sql, [parameter(value) for value in params])
            fetched = cursor.fetchall()
        return [self._row(values) for values in fetched]

    def execute(self, *params: Any) -> int:
        """Run a statement that returns no rows; returns how many rows it changed."""
        with connection.cursor() as cursor:
            cursor.execute(self.sql, [parameter(value) for value in params])
            return int(cursor.rowcount)

    def _row(self, values: Sequence[Any]) -> Row:
        row = dict(zip(self.columns, values, strict=True))
        for name in self.datetimes:
            row[name] = instant(row[name])
        for name in self.json:
            row[name] = _json(row[name])
        return row


@dataclass(frozen=True)
class Columns:
    """A model's columns in a statement, under a table alias (`c.id, c.user_id, ...`), all of
    them but those named in `without`, which the instances built leave deferred."""

    model: type[Model]
    alias: str
    without: tuple[str, ...] = ()

    @cached_property
    def fields(self) -> list[Any]:
        return [f for f in self.model._meta.concrete_fields if f.name not in self.without]

    @property
    def sql(self) -> str:
        return ", ".join(f"{self.alias}.{f.column}" for f in self.fields)

    @cached_property
    def names(self) -> tuple[str, ...]:
        return tuple(f"{self.alias}.{f.attname}" for f in self.fields)

    def of_kind(self, kind: type) -> frozenset[str]:
        """The names of the columns of fields of this kind."""
        return frozenset(
            name for f, name in zip(self.fields, self.names, strict=True) if isinstance(f, kind)
        )

    @cached_property
    def attnames(self) -> list[str]:
        return [f.attname for f in self.fields]

    def load(self, row: Row) -> Any:
        """The instance of the row's columns (None when a left join found no row)."""
        values = [row[name] for name in self.names]
        if values[0] is None:  # the primary key
            return None
        return self.model.from_db(connection.alias, self.attnames, values)


def joined(sql: str, *tables: Columns, lock: str = "") -> Statement:
    """A statement reading the columns of `tables` (`{columns}` in `sql`), to `Columns.load`
    one instance of each from a row; `lock`, PostgreSQL's `FOR UPDATE OF ...`, is left out
    where the database has no row locks (SQLite locks the whole database in a write
    transaction)."""
    return Statement(
        sql.format(columns=", ".join(table.sql for table in tables)),
        tuple(name for table in tables for name in table.names),
        datetimes=frozenset().union(*(table.of_kind(DateTimeField) for table in tables)),
        json=frozenset().union(*(table.of_kind(JSONField) for table in tables)),
        lock=lock,
    )


def instance[M: Model](model: type[M], values: dict[str, Any]) -> M:
    """A model instance of a row just read or written, as the ORM would load it (`values` by
    attribute name, every concrete field in the model's order)."""
    return model.from_db(connection.alias, list(values), list(values.values()))


def parameter(value: Any) -> Any:
    """A parameter as the database stores it (SQLite keeps datetimes as text, in UTC; a dict
    is JSON)."""
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    if isinstance(value, dict):
        return connection.ops.adapt_json_value(value, None)
    return value


# The learner's cards, as the queue reads them, with the open attempt's two instants.
CARDS = Statement(
    """
    SELECT c.id, c.problem_id, p.number, c.rank, c.state, c.due_at, c.last_reviewed_at,
           c.suspended, c.buried_until, c.open_attempt_id, a.started_at, a.submitted_at
    FROM "practice_card" c
    INNER JOIN "problems_problem" p ON p.id = c.problem_id
    LEFT OUTER JOIN "problems_attempt" a ON a.id = c.open_attempt_id
    WHERE c.user_id = %s
    """,
    (
        "id",
        "problem_id",
        "number",
        "rank",
        "state",
        "due_at",
        "last_reviewed_at",
        "suspended",
        "buried_until",
        "open_attempt_id",
        "started_at",
        "submitted_at",
    ),
    datetimes=frozenset(
        ("due_at", "last_reviewed_at", "buried_until", "started_at", "submitted_at")
    ),
    json=frozenset(("state",)),
)

# The learner's reviews since an instant (the start of their day), counted by kind ("today"
# rows: kind and count), and their two latest reviews ("latest" rows: kind, id, card, attempt and
# when), in one round trip.
REVIEWS_TODAY_AND_LATEST = Statement(
    """
    SELECT 'today', kind, COUNT(*), NULL, NULL, NULL FROM "practice_review"
    WHERE user_id = %s AND reviewed_at >= %s
    GROUP BY kind
    UNION ALL
    SELECT * FROM (
        SELECT 'latest', kind, id, card_id, attempt_id, reviewed_at FROM "practice_review"
        WHERE user_id = %s
        ORDER BY reviewed_at DESC, id DESC
        LIMIT 2
    ) latest
    """,
    ("what", "kind", "count_or_id", "card_id", "attempt_id", "reviewed_at"),
)

# The published versions of a problem, each with the version the learner last drew from the
# problem (the same on every row; NULL when they never did). No published version: no row.
PUBLISHED_AND_LAST = Statement(
    """
    SELECT v.id, v.content_hash,
           (SELECT a.version_id FROM "problems_attempt" a
            INNER JOIN "problems_scenarioversion" av ON av.id = a.version_id
            INNER JOIN "problems_scenario" sa ON sa.id = av.scenario_id
            WHERE a.user_id = %s AND sa.problem_id = %s
            ORDER BY a.started_at DESC LIMIT 1)
    FROM "problems_scenarioversion" v
    INNER JOIN "problems_scenario" s ON s.id = v.scenario_id
    WHERE s.problem_id = %s AND v.status = 'published'
    """,
    ("id", "content_hash", "last_version_id"),
)

# A new attempt drawn for practice; returns its id.
NEW_ATTEMPT = Statement(
    """
    INSERT INTO "problems_attempt"
        (user_id, version_id, seed, key_version_id, purpose, started_at, submitted_at, score,
         regrade_notice, regrade_unseen)
    VALUES (%s, %s, %s, NULL, %s, %s, NULL, NULL, '', %s)
    RETURNING id
    """,
    ("id",),
)

# A review; returns its id.
NEW_REVIEW = Statement(
    """
    INSERT INTO "practice_review"
        (card_id, user_id, attempt_id, kind, reviewed_at, score, incomplete, elapsed_seconds,
         automatic_quality, self_rating, quality, state_before, scheduler)
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
    RETURNING id
    """,
    ("id",),
)

# A practice answer submitted: its score and when.
SUBMIT_ATTEMPT = Statement(
    'UPDATE "problems_attempt" SET score = %s, submitted_at = %s WHERE id = %s'
)


@cache
def new_part_answers(count: int) -> Statement:
    """The graded parts of an answer, `count` rows in one statement (nine values a row: the
    attempt, the part's key, the text typed, then `problems.attempts.GRADE_FIELDS`)."""
    row = "(" + ", ".join(["%s"] * 9) + ")"
    columns = "attempt_id, part_key, text, value, status, score, misconception, message"
    rows = ", ".join([row] * count)  # placeholders only: the values are parameters
    return Statement(
        f'INSERT INTO "problems_partanswer" ({columns}, carried_forward) VALUES {rows}'  # noqa: S608
    )


# The card shows the attempt now in front of the learner.
SHOW_ATTEMPT = Statement('UPDATE "practice_card" SET open_attempt_id = %s WHERE id = %s')

# Graded answers still waiting for a rating keep their automatic grade: every card of the learner
# but one (0: none) whose open attempt is submitted puts it away.
SETTLE_PENDING = Statement(
    """
    UPDATE "practice_card" SET open_attempt_id = NULL
    WHERE user_id = %s AND id <> %s AND open_attempt_id IS NOT NULL
      AND EXISTS (SELECT 1 FROM "problems_attempt" a
                  WHERE a.id = "practice_card".open_attempt_id AND a.submitted_at IS NOT NULL)
    """
)

# A card's schedule after a review (what `services._reschedule` changes).
RESCHEDULE = Statement(
    """
    UPDATE "practice_card"
    SET state = %s, due_at = %s, redrill_until = %s, last_reviewed_at = %s, reviews_count = %s,
        lapses = %s, open_attempt_id = %s
    WHERE id = %s
    """
)

# A review's quality after the learner rated it (or undid the rating).
RATE_REVIEW = Statement('UPDATE "practice_review" SET self_rating = %s, quality = %s WHERE id = %s')


# What the queue and a question's header never show (see services.PROBLEM_LONG_TEXTS).
LONG_TEXTS = ("concepts", "tradeoffs", "model_answer", "self_check")

# The card on screen: the card, its problem without its long texts, its open attempt (if any)
# with its version, without its definition (only compiling a version reads it).
CARD_SHOWN_TABLES = (
    Columns(Card, "c"),
    Columns(Problem, "p", without=LONG_TEXTS),
    Columns(Attempt, "a"),
    Columns(ScenarioVersion, "v", without=("definition",)),
)
CARD_SHOWN = joined(
    """
    SELECT {columns}
    FROM "practice_card" c
    INNER JOIN "problems_problem" p ON p.id = c.problem_id
    LEFT OUTER JOIN "problems_attempt" a ON a.id = c.open_attempt_id
    LEFT OUTER JOIN "problems_scenarioversion" v ON v.id = a.version_id
    WHERE c.id = %s
    """,
    *CARD_SHOWN_TABLES,
)

# The learner's attempt being answered, its row locked, with its version (without its
# definition), scenario and problem (whose texts the worked solution shows), and the learner's
# report on it if any (the result shows it).
ATTEMPT_TO_ANSWER_TABLES = (
    Columns(Attempt, "a"),
    Columns(ScenarioVersion, "v", without=("definition",)),
    Columns(Scenario, "s"),
    Columns(Problem, "p"),
    Columns(VariantReport, "r"),
)
ATTEMPT_TO_ANSWER = joined(
    """
    SELECT {columns}
    FROM "problems_attempt" a
    INNER JOIN "problems_scenarioversion" v ON v.id = a.version_id
    INNER JOIN "problems_scenario" s ON s.id = v.scenario_id
    INNER JOIN "problems_problem" p ON p.id = s.problem_id
    LEFT OUTER JOIN "problems_variantreport" r ON r.attempt_id = a.id
    WHERE a.id = %s AND a.user_id = %s
    """,
    *ATTEMPT_TO_ANSWER_TABLES,
    lock="FOR UPDATE OF a",
)

# The learner's card of a problem, its row locked.
CARD_TO_REVIEW_TABLES = (Columns(Card, "c"),)
CARD_TO_REVIEW = joined(
    'SELECT {columns} FROM "practice_card" c WHERE c.user_id = %s AND c.problem_id = %s',
    *CARD_TO_REVIEW_TABLES,
    lock="FOR UPDATE OF c",
)

# The learner's review with its card, both rows locked, and the card's problem without its long
# texts (rating reads its expected time).
REVIEW_TO_RATE_TABLES = (
    Columns(Review, "r"),
    Columns(Card, "c"),
    Columns(Problem, "p", without=LONG_TEXTS),
)
REVIEW_TO_RATE = joined(
    """
    SELECT {columns}
    FROM "practice_review" r
    INNER JOIN "practice_card" c ON c.id = r.card_id
    INNER JOIN "problems_problem" p ON p.id = c.problem_id
    WHERE r.id = %s AND r.user_id = %s
    """,
    *REVIEW_TO_RATE_TABLES,
    lock="FOR UPDATE OF r, c",
)
