"""A problem's page: the learner's card of it and their earlier attempts, newest first, each with
its question, answers and verdicts."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.paginator import Paginator

from problems import attempts
from problems.engine import EngineError
from problems.models import Attempt
from problems.variants import attempt_variant
from trainer.practice.models import Card, Review
from trainer.practice.services.queue import own_problem

HISTORY_PAGE = 10


@dataclass
class HistoryEntry:
    """One earlier attempt on a problem's page: its number among the learner's attempts at the
    problem (1 is the first), the question with its numbers, and each part's answer and
    verdict."""

    number: int
    attempt: Attempt
    text: str
    results: list[attempts.PartOutcome]
    review: Review | None


def problem_page(
    user: User, number: int, now: datetime, page_number: int | str = 1
) -> dict[str, Any]:
    """What the learner's page of a problem shows: the problem, its card, and a page of the
    learner's submitted attempts at it, newest first. The queries do not grow with the history
    (one page of attempts, their answers in one query)."""
    problem = own_problem(number)
    card = Card.objects.filter(user=user, problem=problem).first()
    attempts_of = (
        Attempt.objects.filter(
            user=user, version__scenario__problem=problem, submitted_at__isnull=False
        )
        .select_related("version__scenario__problem", "key_version__scenario__problem", "review")
        .prefetch_related("answers")
        .order_by("-submitted_at", "-id")
    )
    page = Paginator(attempts_of, HISTORY_PAGE).get_page(page_number)
    entries = []
    for index, attempt in enumerate(page.object_list):
        try:
            variant = attempt_variant(attempt)
            text, results = variant.text, attempts.stored_outcomes(attempt, variant)
        except EngineError:  # a version that no longer compiles: the row stays, unexplained
            text, results = "This version of the question can no longer be shown.", []
        entries.append(
            HistoryEntry(
                number=page.paginator.count - page.start_index() + 1 - index,
                attempt=attempt,
                text=text,
                results=results,
                review=getattr(attempt, "review", None),
            )
        )
    return {"problem": problem, "card": card, "page": page, "entries": entries}
