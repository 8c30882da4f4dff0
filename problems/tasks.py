"""Background work of the authoring area. Thin: each task takes an id and calls a service.

Each is idempotent, so late acknowledgement is safe (a task whose worker died runs again): a
finished validation or regrade is left alone, an interrupted one starts again (validation) or
continues after its committed batches (regrade), and statistics are replaced whole.
"""

from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model
from django.utils import timezone

from problems import authoring, regrade, stats
from problems.background import VALIDATION_TIME_LIMIT

LONG_TIME_LIMIT = 14 * 60  # under the app's default, which the visibility timeout exceeds
STALLED_AFTER = timedelta(minutes=5)  # queued that long with workers running: the message is lost


@shared_task(
    name="problems.tasks.validate_version",
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=VALIDATION_TIME_LIMIT,
    soft_time_limit=VALIDATION_TIME_LIMIT - 30,
)
def validate_version(run_id: int) -> str | None:
    run = authoring.run_validation(run_id)
    return run.status if run is not None else None


@shared_task(
    name="problems.tasks.regrade_attempts",
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=LONG_TIME_LIMIT,
    soft_time_limit=LONG_TIME_LIMIT - 30,
)
def regrade_attempts(regrade_id: int) -> dict[str, Any] | None:
    done = regrade.run_regrade(regrade_id)
    return None if done is None else {"status": done.status, "changed": done.attempts_changed}


@shared_task(
    name="problems.tasks.problem_statistics",
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=LONG_TIME_LIMIT,
    soft_time_limit=LONG_TIME_LIMIT - 30,
)
def problem_statistics(actor_id: int | None = None) -> int:
    actor = get_user_model().objects.filter(pk=actor_id).first() if actor_id else None
    return stats.compute_statistics(timezone.now(), actor=actor)


@shared_task(name="problems.tasks.requeue_stalled", time_limit=60, soft_time_limit=50)
def requeue_stalled() -> dict[str, list[int]]:
    """Beat's sweep (every 5 minutes) for work whose message was lost."""
    return requeue(timezone.now() - STALLED_AFTER)


def requeue(before: datetime) -> dict[str, list[int]]:
    """Send again the validations and regrades queued before `before` and still queued. Both
    tasks are idempotent: a copy of a message that was only late finds its work finished and
    leaves it alone. Returns the ids sent, {"validations": [...], "regrades": [...]}."""
    stalled = authoring.stalled_work(before)
    for run_id in stalled["validations"]:
        validate_version.apply_async((run_id,), ignore_result=True)
    for regrade_id in stalled["regrades"]:
        regrade_attempts.apply_async((regrade_id,), ignore_result=True)
    return stalled
