"""While a mock interview runs, no page shows a worked solution or a key of its problems.

Practice is closed during a mock (trainer.mock.middleware), but the learner's earlier attempts of
the same problems (their worked steps and keys) and earlier mocks' reports and solution pages
would still be a tab away. Each of those pages asks `running_mock_covering` first.
"""

from collections.abc import Iterable
from datetime import datetime

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from trainer.mock.models import Mock
from trainer.mock.services import is_over, running_mock


def running_mock_covering(user: User, problem_ids: Iterable[int], now: datetime) -> Mock | None:
    """The user's running mock when one of its problems is among `problem_ids`, else None."""
    mock = running_mock(user)
    if mock is None or is_over(mock, now):
        return None
    return mock if mock.items.filter(problem_id__in=list(problem_ids)).exists() else None


def hidden_response(request: HttpRequest, mock: Mock) -> HttpResponse:
    """The page served instead of a solution while `mock` runs."""
    return render(request, "mock/hidden.html", {"mock": mock}, status=403)
