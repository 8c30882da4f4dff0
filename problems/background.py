"""Validation runs without a broker: off the request, in a thread of the serving process.

With Redis, a validation is a Celery task (`problems.tasks.validate_version`). Without it
(`make run`, or a small deployment), Celery would run the task eagerly inside the request that
asked for it: a 20,000-seed run then outlives gunicorn's timeout, the request ends in a 500 and
the run stays "running" for ever. Here it runs in one background thread per process instead,
with the same progress bar, and always ends:

- within `VALIDATION_TIME_LIMIT` (the evaluation deadline of problems/engine/budget.py;
  past it the run ends in error, naming what was slow);
- and if the process that ran it stops first (a restart, a killed worker), the run is marked
  cancelled by the next page that shows it, once it is older than the time limit.

At most `MAX_IN_PROCESS_RUNS` runs are queued or running at once, so no one can queue work that
would occupy the server for hours.
"""

import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connections
from django.db.models import Q

from problems.models import ValidationRun

logger = logging.getLogger(__name__)

MAX_IN_PROCESS_RUNS = 2
VALIDATION_TIME_LIMIT = 10 * 60
"""The longest a validation may run [s], in a Celery task or in the background thread."""
GRACE = timedelta(minutes=1)

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def in_process() -> bool:
    """True when there is no broker: tasks would run inside the request."""
    return bool(settings.CELERY_TASK_ALWAYS_EAGER)


def start(function: Callable[..., object], *args: object) -> None:
    """Run `function(*args)` in this process's background thread (one at a time, in order)."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="validation")
    _executor.submit(_in_thread, function, *args)


def _in_thread(function: Callable[..., object], *args: object) -> None:
    try:
        function(*args)
    except Exception:  # a thread's exception is lost otherwise
        logger.exception("background work %s%r failed", function.__name__, args)
    finally:
        connections.close_all()  # this thread's connections


def end_abandoned(now: datetime) -> int:
    """Mark cancelled the in-process runs whose process stopped before they ended: still queued
    or running after the time limit (and a minute's grace), they can no longer be running."""
    if not in_process():
        return 0
    before = now - timedelta(seconds=VALIDATION_TIME_LIMIT) - GRACE
    unfinished = Q(status=ValidationRun.Status.QUEUED) | Q(status=ValidationRun.Status.RUNNING)
    return ValidationRun.objects.filter(unfinished, created_at__lt=before).update(
        status=ValidationRun.Status.CANCELLED,
        finished_at=now,
        report={
            "message": "The server process that ran this validation stopped before it "
            "finished (a restart?); validate again."
        },
    )


def busy(now: datetime) -> str | None:
    """Why a new in-process validation must wait, or None."""
    if not in_process():
        return None
    end_abandoned(now)
    unfinished = ValidationRun.objects.filter(
        status__in=(ValidationRun.Status.QUEUED, ValidationRun.Status.RUNNING)
    ).count()
    if unfinished >= MAX_IN_PROCESS_RUNS:
        return (
            f"{unfinished} validations are queued or running on this server; validate again "
            "when one of them has finished."
        )
    return None
