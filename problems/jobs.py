"""Background work an instructor asks for: each function records the work through its service and
enqueues its task once the transaction commits (so a worker never looks for a row that a rollback
removed). Views call these; the services below them never enqueue anything."""

from collections.abc import Iterable
from datetime import datetime
from typing import Any, cast

from celery import Task
from celery.contrib.django.task import DjangoTask
from django.contrib.auth.models import User
from django.db import transaction

from problems import authoring, background, regrade, tasks
from problems.engine.budget import deadline
from problems.models import Regrade, ScenarioVersion, ValidationRun


def _send_on_commit[**P](task: Task[P, Any], *args: P.args, **kwargs: P.kwargs) -> None:
    # The app's task class (trainer.celery.Task) is a DjangoTask; `@shared_task` cannot say so.
    cast(DjangoTask[P, Any], task).delay_on_commit(*args, **kwargs)


def validate(actor: User, version: ScenarioVersion, seeds: int, now: datetime) -> ValidationRun:
    """Check `version` over `seeds` seeds in the background: a Celery task, or without a broker
    a thread of this process (see `problems.background`); returns the `ValidationRun`."""
    run = authoring.request_validation(actor, version, seeds, now)
    if background.in_process():
        transaction.on_commit(lambda: background.start(_validate_in_thread, run.pk))
    else:
        _send_on_commit(tasks.validate_version, run.pk)
    return run


def _validate_in_thread(run_id: int) -> None:
    # Celery's time limit does not reach a thread: the evaluation deadline stops it instead.
    with deadline(background.VALIDATION_TIME_LIMIT - 30):
        authoring.run_validation(run_id)


def publish(
    actor: User, version: ScenarioVersion, now: datetime, corrects: Iterable[int] = ()
) -> authoring.Published:
    """Publish the draft `version`, and regrade the attempts of the versions it `corrects`."""
    published = authoring.publish(actor, version, now, corrects)
    for each in published.regrades:
        _send_on_commit(tasks.regrade_attempts, each.pk)
    return published


def request_regrade(
    actor: User, old: ScenarioVersion, new: ScenarioVersion, now: datetime
) -> Regrade:
    """Regrade the attempts of `old` with the parts of `new` in the background."""
    recorded = regrade.record_request(actor, old, new, now)
    _send_on_commit(tasks.regrade_attempts, recorded.pk)
    return recorded


def recompute_statistics(actor: User | None) -> None:
    """Recompute every problem's statistics in the background."""
    _send_on_commit(tasks.problem_statistics, actor.pk if actor else None)
