import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import patch_cache_control

from trainer.practice.models import LearnerProfile

logger = logging.getLogger(__name__)

GetResponse = Callable[[HttpRequest], HttpResponse]


class DatabaseUnavailableMiddleware:
    """Turn a lost database connection into a clear 503 page instead of a bare 500.

    Writes happen in transactions (ATOMIC per service call), so a request that fails here has
    saved nothing; the page says so.
    """

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        if isinstance(exception, DatabaseError) and "locked" in str(exception):
            logger.error("database busy: %s", exception)
        else:
            logger.error("database unavailable: %s", exception)
        # Rendered without the request: its context processors read request.user, which needs
        # the database that just failed (a logged-in visitor would get a 500 instead).
        page = render_to_string("errors/database_unavailable.html")
        response = HttpResponse(page, status=503)
        response["Retry-After"] = "5"
        return response


class PrivatePagesMiddleware:
    """`Cache-Control: private, no-store` on every response to a visitor with a session (every
    logged-in user has one).

    Their pages hold answers, keys, drafts and the CSRF token: no shared cache may keep them,
    and the browser must not keep them on disk for the next person at a shared computer. Pages
    for anonymous visitors are left to their views. The session cookie is read, not the user:
    that would need the database, which may be the reason this response is an error page.
    """

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if settings.SESSION_COOKIE_NAME in request.COOKIES:
            patch_cache_control(response, private=True, no_store=True)
        return response


class LearnerTimeZoneMiddleware:
    """Every time a page shows is in the learner's own zone: Django's date filters convert to the
    zone activated here. The profile comes with the user (the auth backend loads them in one
    query); a visitor without one sees UTC."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., HttpResponse],
        view_args: tuple[Any, ...],
        view_kwargs: dict[str, Any],
    ) -> None:
        try:
            if not request.user.is_authenticated:
                return None
            profile = request.user.learner_profile
        except LearnerProfile.DoesNotExist:
            return None
        except DatabaseError:
            return None  # the view meets the same error, and the 503 page explains it
        timezone.activate(profile.tz)
        return None
