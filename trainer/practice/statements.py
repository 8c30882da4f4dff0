"""What a raw read needs to give the same values on SQLite and PostgreSQL (the home page's
statements, `trainer/dashboard/rows.py`, use these): instants as aware UTC datetimes and
parameters as the database stores them. Practice itself reads and writes through the ORM."""

from datetime import UTC, datetime
from typing import Any

from django.db import connection


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


def parameter(value: Any) -> Any:
    """A parameter as the database stores it (SQLite keeps datetimes as text, in UTC; a dict
    is JSON)."""
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    if isinstance(value, dict):
        return connection.ops.adapt_json_value(value, None)
    return value
