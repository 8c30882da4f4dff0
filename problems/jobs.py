"""Background work an instructor asks for: each function records the work through its service and
enqueues its task once the transaction commits (so a worker never looks for a row that a rollback
removed). Views call these; the services below them never enqueue anything."""

from django.db import transaction

from problems import authoring, background, regrade, tasks
from problems.engine.budget import deadline


def validate(actor, version, seeds, now):
    """Check `version` over `seeds` seeds in the background: a Celery task, or without a broker
    a thread of this process (see `problems.background`); returns the `ValidationRun`."""
    run = authoring.request_validation(actor, version, seeds, now)
    if background.in_process():
        transaction.on_commit(lambda: background.start(_validate_in_thread, run.pk))
    else:
        tasks.validate_version.delay_on_commit(run.pk)
    return run


def _validate_in_thread(run_id):
    # Celery's time limit does not reach a thread: the evaluation deadline stops it instead.
    with deadline(background.VALIDATION_TIME_LIMIT - 30):
        authoring.run_validation(run_id)


def publish(actor, version, now, corrects=()):
    """Publish the draft `version`, and regrade the attempts of the versions it `corrects`."""
    published = authoring.publish(actor, version, now, corrects)
    for each in published.regrades:
        tasks.regrade_attempts.delay_on_commit(each.pk)
    return published


def request_regrade(actor, old, new, now):
    """Regrade the attempts of `old` with the parts of `new` in the background."""
    recorded = regrade.record_request(actor, old, new, now)
    tasks.regrade_attempts.delay_on_commit(recorded.pk)
    return recorded


def recompute_statistics(actor):
    """Recompute every problem's statistics in the background."""
    tasks.problem_statistics.delay_on_commit(actor.pk if actor else None)
