"""Learners' reports of a wrong variant, and what instructors do with them.

A learner reports one of their own graded attempts with a short message; an instructor reads it
with what is needed to reproduce it (the version, the seed, the learner's answers) and marks it
resolved. The seed is shown only on instructors' pages.
"""

from datetime import datetime

from django.contrib.auth.models import User
from django.core.validators import ProhibitNullCharactersValidator
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from problems.models import Attempt, Problem, VariantReport


class ReportError(Exception):
    """A report that cannot be made; the message is for the learner."""


def report_variant(
    user: User, attempt_id: int, message: str | None, now: datetime
) -> VariantReport:
    """Record `user`'s report on their own submitted attempt. Raises `Attempt.DoesNotExist` for
    an attempt that is not theirs, `ReportError` for one they cannot report (yet, or again)."""
    attempt = Attempt.objects.get(pk=attempt_id, user=user)
    if attempt.submitted_at is None:
        raise ReportError("Answer the question first; then you can report a problem with it.")
    message = (message or "").strip()
    if not message:
        raise ReportError("Say in a few words what looks wrong (a key, a number, the wording).")
    if len(message) > VariantReport.MAX_MESSAGE:
        raise ReportError(f"Keep it under {VariantReport.MAX_MESSAGE} characters.")
    if "\x00" in message:  # PostgreSQL cannot store one
        raise ReportError(str(ProhibitNullCharactersValidator.message))
    try:
        with transaction.atomic():
            return VariantReport.objects.create(
                attempt=attempt, user=user, message=message, created_at=now
            )
    except IntegrityError:  # one report per attempt (two tabs, a double click)
        raise ReportError("You have already reported this question.") from None


def reports(status: str | None = None, problem: Problem | None = None) -> QuerySet[VariantReport]:
    """Reports for instructors, newest first, with what the list shows in the same query."""
    found = VariantReport.objects.select_related(
        "user", "resolved_by", "attempt__version__scenario__problem"
    )
    if status is not None:
        found = found.filter(status=status)
    if problem is not None:
        found = found.filter(attempt__version__scenario__problem=problem)
    return found


def resolve(report_id: int, user: User, now: datetime) -> int:
    """Mark a report resolved (an instructor fixed the version, or found nothing wrong)."""
    return VariantReport.objects.filter(pk=report_id, status=VariantReport.Status.OPEN).update(
        status=VariantReport.Status.RESOLVED, resolved_by=user, resolved_at=now
    )
