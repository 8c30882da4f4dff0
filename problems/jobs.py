"""Background work an instructor asks for: each function records the work through its service and
enqueues its task once the transaction commits (so a worker never looks for a row that a rollback
removed). Views call these; the services below them never enqueue anything."""

from problems import authoring, regrade, tasks


def validate(actor, version, seeds, now):
    """Check `version` over `seeds` seeds in the background; returns the `ValidationRun`."""
    run = authoring.request_validation(actor, version, seeds, now)
    tasks.validate_version.delay_on_commit(run.pk)
    return run


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
