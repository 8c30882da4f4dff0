"""The Celery app, configured as Celery's reliability guidance says.

- Late acknowledgement is opted into per task (``acks_late=True``), and only for idempotent tasks,
  together with ``reject_on_worker_lost``: late acks alone lose a task whose worker child is
  killed (docs/reference.md, "Operations"). Such tasks must be safe to run twice.
- Prefetch 1: our tasks are long (validation over 1,000 seeds, regrading), and a worker should not
  hoard messages another worker could run.
- Every task has a time limit, and Redis's visibility timeout is longer than any of them, so a
  message is never redelivered while its first run is still going.
- Views enqueue with ``delay_on_commit`` so that a rolled-back request enqueues nothing. When
  the broker is down then, the request still succeeds (what it committed stays, in a "queued"
  state) and the failure is logged; ``problems.tasks.requeue_stalled``, run by beat, sends such
  work again once Redis is back. The web never reads these tasks' results, so it sends them
  without one (no round trip to the result store, which is Redis too).
- Without REDIS_URL (``make run`` on a laptop) tasks run eagerly, in-process.
"""

import functools
import logging
import os
from typing import Any

from celery import Celery
from celery.contrib.django.task import DjangoTask
from celery.schedules import crontab
from django.db import transaction
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trainer.settings")

TASK_TIME_LIMIT = int(os.environ.get("CELERY_TASK_TIME_LIMIT", 15 * 60))
VISIBILITY_TIMEOUT = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", 2 * 60 * 60))
if VISIBILITY_TIMEOUT <= TASK_TIME_LIMIT:
    raise ValueError(
        "CELERY_VISIBILITY_TIMEOUT must be longer than CELERY_TASK_TIME_LIMIT, or a running task "
        "is handed to a second worker"
    )


class Task(DjangoTask[Any, Any]):
    # Returns nothing, unlike Celery's: the message is sent after the commit, if at all.
    def delay_on_commit(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
        transaction.on_commit(functools.partial(self._send_committed, args, kwargs))

    def _send_committed(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        try:
            self.apply_async(args, kwargs, ignore_result=True)
        except OperationalError:
            logger.exception(
                "could not enqueue %s%r; it stays queued for the sweep", self.name, args
            )


app = Celery("trainer", task_cls=Task)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.update(
    worker_prefetch_multiplier=1,
    task_acks_late=False,
    task_reject_on_worker_lost=False,
    task_time_limit=TASK_TIME_LIMIT,
    # The soft limit lets a task stop cleanly before the hard one: 30 s earlier, or a tenth of a
    # short limit.
    task_soft_time_limit=TASK_TIME_LIMIT - max(1, min(30, TASK_TIME_LIMIT // 10)),
    broker_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT},
    result_backend_transport_options={"visibility_timeout": VISIBILITY_TIMEOUT},
    broker_connection_retry_on_startup=True,
    worker_cancel_long_running_tasks_on_connection_loss=True,
    result_expires=24 * 60 * 60,
    task_track_started=True,
    timezone="UTC",
    beat_schedule={
        "clear-expired-sessions": {
            "task": "trainer.accounts.tasks.clear_expired_sessions",
            "schedule": crontab(hour=3, minute=17),
        },
        "problem-statistics": {
            "task": "problems.tasks.problem_statistics",
            "schedule": crontab(hour=2, minute=41),
        },
        "requeue-stalled": {
            "task": "problems.tasks.requeue_stalled",
            "schedule": 5 * 60,
        },
    },
)
app.autodiscover_tasks()
