"""Rate limits shared by every worker: events per identity in fixed windows, counted in the
database (`RateCount`), so that three gunicorn workers without Redis give one budget, not three.

Failed log-ins are django-axes's (see `trainer.accounts.lockout`); this module counts answers,
sign-ups, password changes and password-reset e-mails.
"""

import time
from datetime import UTC, datetime

from django.db import connection

from trainer.accounts.models import RateCount


def _upsert_sql() -> str:
    quote = connection.ops.quote_name
    table, key, count, ends = (
        quote(name) for name in (RateCount._meta.db_table, "key", "count", "expires_at")
    )
    # One statement: atomic under any number of parallel requests, the same query every time.
    # A row per (scope, identity) whose window restarts when it has ended, so the table holds
    # one row per learner or address, not one per window.
    # Only our own quoted table and column names are formatted in; every value is a parameter.
    return (
        f"INSERT INTO {table} ({key}, {count}, {ends}) VALUES (%s, 1, %s) "  # noqa: S608
        f"ON CONFLICT ({key}) DO UPDATE SET "
        f"{count} = CASE WHEN {table}.{ends} <= %s THEN 1 ELSE {table}.{count} + 1 END, "
        f"{ends} = CASE WHEN {table}.{ends} <= %s THEN excluded.{ends} ELSE {table}.{ends} END "
        f"RETURNING {count}"
    )


def allow(scope: str, identity: object, limit: int, window: int) -> bool:
    """Count one event for (scope, identity) in the current window of `window` seconds (windows
    start on multiples of `window` on the clock); False when that makes more than `limit`."""
    now = time.time()
    adapt = connection.ops.adapt_datetimefield_value
    ends = adapt(datetime.fromtimestamp((now // window + 1) * window, UTC))
    current = adapt(datetime.fromtimestamp(now, UTC))
    key = f"{scope}:{identity}"[:200]
    with connection.cursor() as cursor:
        cursor.execute(_upsert_sql(), [key, ends, current, current])
        row = cursor.fetchone()
    return row is not None and row[0] <= limit


def seconds_left(window: int) -> int:
    """Seconds until the current window of `window` seconds ends."""
    return int(window - time.time() % window) + 1
