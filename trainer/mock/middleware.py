from django.db import DatabaseError
from django.shortcuts import render
from django.utils import timezone

from trainer.mock.services import is_over, running_mock

# Practice shows worked solutions: while a mock interview runs, the same problem's solution would
# be one tab away. These pages wait until the mock is over.
# Other methods go on to the view, which refuses them as usual.
WAITING_PAGES = {
    "practice": ("GET", "HEAD"),
    "practice-answer": ("POST",),
    "practice-another": ("POST",),
}


class MockInProgressMiddleware:
    """Practice waits while the learner's mock interview runs. It lives with the mocks, above
    practice, so practice knows nothing of mocks; it looks a mock up only for the pages that
    wait."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        if match is None or request.method not in WAITING_PAGES.get(match.url_name, ()):
            return None
        try:
            if not request.user.is_authenticated:
                return None
            mock = running_mock(request.user)
        except DatabaseError:
            return None  # the view meets the same error, and the 503 page explains it
        if mock is None or is_over(mock, timezone.now()):
            return None
        template = "practice/practice.html" + ("#card" if request.htmx else "")
        return render(request, template, {"state": "mock", "mock": mock})
