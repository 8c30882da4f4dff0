from collections.abc import Callable
from typing import Any

from django.db import DatabaseError
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone

from problems.http import HtmxRequest
from problems.models import Attempt, Problem
from trainer.mock import integrity
from trainer.mock.services import is_over, running_mock
from trainer.practice.services import mock_running

# Practice shows worked solutions: while a mock interview runs, the same problem's solution would
# be one tab away. These pages wait until the mock is over; other methods go on to the view,
# which refuses them as usual.
WAITING_PAGES = {
    "practice": ("GET", "HEAD"),
    "practice-answer": ("POST",),
    "practice-another": ("POST",),
    # Rating shows the next question; undoing a rating shows the graded answer again.
    "practice-rate": ("POST",),
    "practice-undo": ("POST",),
}
# An earlier attempt's page and a problem's history show worked solutions and keys: hidden while
# a mock asks that problem (the mock's own report and solution pages check this themselves).
ATTEMPT_PAGE = "attempt"
HISTORY_PAGE = "practice-problem"


class MockInProgressMiddleware:
    """While the learner's mock interview runs, practice waits and no earlier attempt of the
    mock's problems is shown. It lives with the mocks, above practice, so practice knows nothing
    of mocks; it looks a mock up only for the pages concerned."""

    def __init__(self, get_response: Callable[[HtmxRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HtmxRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self,
        request: HtmxRequest,
        view_func: Callable[..., HttpResponse],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        match = request.resolver_match
        if match is None:
            return None
        try:
            if match.url_name == ATTEMPT_PAGE and request.method in ("GET", "HEAD"):
                return self._hide_attempt(request, view_kwargs["attempt_id"])
            if match.url_name == HISTORY_PAGE and request.method in ("GET", "HEAD"):
                return self._hide_history(request, view_kwargs["number"])
            if request.method in WAITING_PAGES.get(match.url_name or "", ()):
                return self._wait(request)
        except DatabaseError:
            return None  # the view meets the same error, and the 503 page explains it
        return None

    def _wait(self, request: HtmxRequest) -> HttpResponse | None:
        if not request.user.is_authenticated:
            return None
        now = timezone.now()
        if not mock_running(request.user, now):
            return None  # the common case, from the profile loaded with the user: no query
        mock = running_mock(request.user)
        if mock is None or is_over(mock, now):
            return None
        template = "practice/practice.html" + ("#card" if request.htmx else "")
        return render(request, template, {"state": "mock", "mock": mock})

    def _hide_history(self, request: HtmxRequest, number: int) -> HttpResponse | None:
        if not request.user.is_authenticated:
            return None
        problem_id = Problem.objects.filter(number=number).values_list("pk", flat=True).first()
        if problem_id is None:
            return None  # the view answers 404
        mock = integrity.running_mock_covering(request.user, [problem_id], timezone.now())
        return integrity.hidden_response(request, mock) if mock is not None else None

    def _hide_attempt(self, request: HtmxRequest, attempt_id: int) -> HttpResponse | None:
        if not request.user.is_authenticated:
            return None
        problem_id = (
            Attempt.objects.filter(pk=attempt_id, user=request.user)
            .values_list("version__scenario__problem_id", flat=True)
            .first()
        )
        if problem_id is None:
            return None  # not theirs: the view answers 404
        mock = integrity.running_mock_covering(request.user, [problem_id], timezone.now())
        return integrity.hidden_response(request, mock) if mock is not None else None
