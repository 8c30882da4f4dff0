"""Failed log-ins, counted in the database by django-axes on every authentication path (our
log-in page, the admin's, anything that calls `authenticate`).

Two rules on top of axes's database handler:

- **An attempt is counted before its password is checked.** Axes reads the count before the
  (slow) password hash and writes it after, so 30 parallel guesses all read "0 failures" and all
  get checked. Here the attempt is added first, in one transaction, and the attempt is allowed
  only if the count it produced is within the limit: at most `LOGIN_FAILURE_LIMIT` passwords are
  ever checked per account and window, however many arrive at once. A success clears the
  account's count.
- **Made-up usernames never count against an address.** A failure for an account that exists
  counts against the account and the client's address (a looser limit: many people share an
  address behind a NAT); a failure for a username that does not exist only against that
  username, so nobody can lock an address (or, behind a proxy, a whole site) out by typing
  names that are not there.

Usernames are compared after NFKC normalisation and case folding, as Django normalises them
before looking the user up (`ａｌｉｃｅ` and `ⓐlice` are alice).
"""

import unicodedata
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import router, transaction
from django.db.models import F, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

# An address is shared by many people behind one NAT, so it gets a looser limit than an account.
ADDRESS_LIMIT_FACTOR = 4
USERNAME_LENGTH = 255  # axes's column

Credentials = Mapping[str, Any]


class AxesRequest(HttpRequest):
    """A request as axes's middleware hands it to the handler, with what the handler adds."""

    axes_user_agent: str
    axes_http_accept: str
    axes_path_info: str
    axes_ip_address: str | None
    axes_attempt_counted: bool
    axes_refused: bool
    axes_locked_out: bool
    axes_credentials: Credentials | None


def normalised_username(request: HttpRequest | None, credentials: Credentials | None) -> str | None:
    """AXES_USERNAME_CALLABLE: the username as Django looks it up, case-folded."""
    name = (credentials or {}).get("username")
    if name is None and request is not None:
        name = getattr(request, "POST", {}).get("username")
    if not isinstance(name, str):
        return None
    return unicodedata.normalize("NFKC", name).casefold()[:USERNAME_LENGTH]


def _exists(username: str) -> bool:
    model = get_user_model()
    field = f"{model.USERNAME_FIELD}__iexact"
    return model._default_manager.filter(**{field: username}).exists()


class LoginAttempts(AxesDatabaseHandler):
    """AXES_HANDLER: axes's database handler, counting each attempt before its password is
    checked (see the module docstring)."""

    def _since(self) -> datetime:
        return timezone.now() - settings.AXES_COOLOFF_TIME

    def _failures(self, **where: Any) -> int:
        total = AccessAttempt.objects.filter(attempt_time__gte=self._since(), **where).aggregate(
            total=Sum("failures_since_start")
        )["total"]
        return total or 0

    def _count(self, request: AxesRequest, username: str, address: str | None) -> None:
        with transaction.atomic(using=router.db_for_write(AccessAttempt)):
            attempt, created = AccessAttempt.objects.select_for_update().get_or_create(
                username=username,
                ip_address=address,
                user_agent=request.axes_user_agent,
                # No GET or POST data: the POST data of a log-in is a guessed password.
                defaults={
                    "get_data": "",
                    "post_data": "",
                    "http_accept": request.axes_http_accept,
                    "path_info": request.axes_path_info,
                    "failures_since_start": 1,
                },
            )
            if not created:
                AccessAttempt.objects.filter(pk=attempt.pk).update(
                    failures_since_start=F("failures_since_start") + 1,
                    attempt_time=timezone.now(),
                    path_info=request.axes_path_info,
                )

    def is_allowed(self, request: AxesRequest, credentials: Credentials | None = None) -> bool:
        if self.is_blacklisted(request, credentials):
            return False
        if self.is_whitelisted(request, credentials):
            return True
        username = get_client_username(request, credentials)
        address = request.axes_ip_address
        if username is None or credentials is None:
            return not self.is_locked(request, credentials)
        self.clean_expired_user_attempts(request, credentials)
        real = _exists(username)
        address_limit = settings.AXES_FAILURE_LIMIT * ADDRESS_LIMIT_FACTOR
        address_failures = self._failures(ip_address=address) if address else 0
        self._count(request, username, address if real else None)
        request.axes_attempt_counted = True
        allowed = (
            self._failures(username=username) <= settings.AXES_FAILURE_LIMIT
            and address_failures < address_limit
        )
        request.axes_refused = not allowed
        return allowed

    def is_locked(self, request: AxesRequest, credentials: Credentials | None = None) -> bool:
        username = get_client_username(request, credentials)
        address = request.axes_ip_address
        limit = settings.AXES_FAILURE_LIMIT
        return (username is not None and self._failures(username=username) >= limit) or (
            address is not None
            and self._failures(ip_address=address) >= limit * ADDRESS_LIMIT_FACTOR
        )

    def get_failures(self, request: AxesRequest, credentials: Credentials | None = None) -> int:
        username = get_client_username(request, credentials)
        return self._failures(username=username) if username is not None else 0

    def user_login_failed(
        self,
        sender: object,
        credentials: Credentials,
        request: AxesRequest | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None or not getattr(request, "axes_attempt_counted", False):
            # Not through is_allowed (no request, or a whitelisted client): axes's own way.
            return super().user_login_failed(sender, credentials, request, **kwargs)
        if getattr(request, "axes_refused", False):
            request.axes_locked_out = True
            request.axes_credentials = credentials

    def user_logged_in(
        self, sender: object, request: HttpRequest, user: User, **kwargs: Any
    ) -> None:
        """A success clears the account's failures (not the address's: logging in to one's own
        account must not wipe the count of guesses at others')."""
        username = normalised_username(None, {"username": user.get_username()})
        AccessAttempt.objects.filter(username=username).delete()


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: Credentials | None = None,
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the page for a refused log-in, on our log-in page and the admin's."""
    minutes = max(1, round(settings.LOGIN_FAILURE_WINDOW / 60))
    return render(request, "accounts/locked_out.html", {"minutes": minutes}, status=429)
