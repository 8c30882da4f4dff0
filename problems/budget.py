"""Time budgets for the authoring pages' evaluations: the live check, the editor's save, the
preview and an import run an instructor's formulas inside the request, each within
`AUTHORING_TIME_LIMIT` seconds (see `problems.engine.budget`); past it they are refused with a
message that names the formula being evaluated when time ran out.
"""

from datetime import datetime

from django.conf import settings
from django.contrib.auth.models import User

from problems import authoring
from problems.engine import FieldError
from problems.engine.budget import OutOfTime, deadline
from problems.models import Problem


def too_slow(error: OutOfTime, what: str) -> str:
    """The instructor's message for an `OutOfTime` during `what` ("The check")."""
    return (
        f"{what} took longer than {error.seconds:g} s and was stopped while evaluating "
        f"`{error.source}`. A formula costs too much per draw, or the constraints reject almost "
        f"every draw (each seed is then drawn up to 100 times): make it cheaper, then try again."
    )


def check_definition(
    key: str, title: str, body: str, *, problem_number: int | None, seeds: int
) -> authoring.DefinitionCheck:
    """`authoring.check_definition` within the time limit; out of time, a check whose error
    says what was slow (so the draft cannot be saved)."""
    try:
        with deadline(settings.AUTHORING_TIME_LIMIT):
            return authoring.check_definition(
                key, title, body, problem_number=problem_number, seeds=seeds
            )
    except OutOfTime as error:
        message = too_slow(error, f"The check of {seeds} sample variants")
        return authoring.DefinitionCheck(errors=[FieldError("", message)], seeds=seeds)


def import_yaml(
    actor: User, text: str | bytes, now: datetime, *, into_problem: Problem | None = None
) -> authoring.ImportReport:
    """`authoring.import_yaml` within the time limit; out of time, rejected (nothing written)."""
    try:
        with deadline(settings.AUTHORING_TIME_LIMIT):
            return authoring.import_yaml(actor, text, now, into_problem=into_problem)
    except OutOfTime as error:
        what = f"The import's check ({authoring.IMPORT_SEEDS} seeds per scenario)"
        raise authoring.ImportRejected([too_slow(error, what)]) from None
