"""While a mock interview runs, no page shows a worked solution or a key of its problems.

Practice is closed during a mock (trainer.mock.middleware), but the learner's earlier attempts of
the same problems (their worked steps and keys) and earlier mocks' reports and solution pages
would still be a tab away. Each of those pages asks `running_mock_covering` first.
"""

from django.shortcuts import render

from trainer.mock.services import is_over, running_mock


def running_mock_covering(user, problem_ids, now):
    """The user's running mock when one of its problems is among `problem_ids`, else None."""
    mock = running_mock(user)
    if mock is None or is_over(mock, now):
        return None
    return mock if mock.items.filter(problem_id__in=list(problem_ids)).exists() else None


def hidden_response(request, mock):
    """The page served instead of a solution while `mock` runs."""
    return render(request, "mock/hidden.html", {"mock": mock}, status=403)
