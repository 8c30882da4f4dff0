"""Failed log-ins, counted in the database by django-axes on every authentication path (our
log-in page, the admin's, anything that calls `authenticate`).

The rules, on top of axes's database handler:

- **A name from one address is locked** after `LOGIN_FAILURE_LIMIT` failures within the window
  (`LOGIN_FAILURE_WINDOW`), for the rest of the window after its last counted failure. Only
  that pair: the owner logging in from anywhere else is not refused, so nobody can lock an
  account (the admin's included) by guessing at it.
- **An address is locked** after `ADDRESS_LIMIT_FACTOR` times as many failures on accounts that
  exist (a looser limit: many people share an address behind a NAT). Made-up usernames never
  count against an address, so nobody can lock an address (or, behind a proxy, a whole site)
  out by typing names that are not there.
- **An account guessed at from many addresses is slowed down, not locked**: past
  `ACCOUNT_CEILING_FACTOR` times the limit within the window, from all addresses together, one
  password for it is checked every `SLOW_DOWN_SECONDS` and other attempts are asked to wait.
- **An attempt is counted before its password is checked.** Axes reads the count before the
  (slow) password hash and writes it after, so 30 parallel guesses all read "0 failures" and
  all get checked. Here the attempt is added first, and allowed only if the count it produced
  is within the limits: at most `LOGIN_FAILURE_LIMIT` passwords are checked per name and
  address, however many arrive at once. A refused attempt takes its count back, so that
  knocking on a locked door does not keep it locked.
- **A success clears only that account's own failures from that address**, never the address's
  count (logging in to one's own account must not wipe the count of guesses at others'), and
  never another account's: names are counted in their normal form
  (`trainer.accounts.usernames`), which no two accounts share. A completed password reset
  clears all of the account's failures, from every address.

Rows: a name's failures from an address are axes's `AccessAttempt` rows for (name, address);
an address's failures on accounts that exist are its rows without a name.
"""

import math
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, router, transaction
from django.db.models import F, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from trainer.accounts import ratelimit, usernames

# An address is shared by many people behind one NAT, so it gets a looser limit than a name.
ADDRESS_LIMIT_FACTOR = 4
# Failures on one name from every address together, past which its log-ins are slowed down.
ACCOUNT_CEILING_FACTOR = 20
SLOW_DOWN_SECONDS = 60

LOCKED = "locked"
SLOWED = "slowed"

Credentials = Mapping[str, Any]


class AxesRequest(HttpRequest):
    """A request as axes's middleware hands it to the handler, with what the handler adds."""

    axes_user_agent: str
    axes_http_accept: str
    axes_path_info: str
    axes_ip_address: str | None
    axes_attempt_counted: bool
    axes_address_counted: bool
    axes_refusal: str | None
    axes_locked_out: bool
    axes_credentials: Credentials | None


def normalised_username(request: HttpRequest | None, credentials: Credentials | None) -> str | None:
    """AXES_USERNAME_CALLABLE: the username in its normal form (`trainer.accounts.usernames`)."""
    name = (credentials or {}).get("username")
    if name is None and request is not None:
        name = getattr(request, "POST", {}).get("username")
    if not isinstance(name, str):
        return None
    return usernames.normalise(name)[: usernames.MAX_LENGTH]


def _since() -> datetime:
    return timezone.now() - settings.AXES_COOLOFF_TIME


def _failures(**where: Any) -> int:
    total = AccessAttempt.objects.filter(attempt_time__gte=_since(), **where).aggregate(
        total=Sum("failures_since_start")
    )["total"]
    return total or 0


def _name_failures(name: str, address: str | None) -> int:
    return _failures(username=name, ip_address=address)


def _address_failures(address: str) -> int:
    return _failures(username=None, ip_address=address)


def _add(request: AxesRequest, name: str | None, address: str | None) -> None:
    """Count one failure of (name, address); a name of None counts the address's.

    One row per (name, address, user agent), as axes keeps them; two parallel first failures
    may make two rows where the name or the address is unknown (NULLs are never equal in a
    unique constraint), which the sums count right."""
    where = {"username": name, "ip_address": address, "user_agent": request.axes_user_agent}
    changes = {
        "failures_since_start": F("failures_since_start") + 1,
        "attempt_time": timezone.now(),  # the window runs from the last counted failure
        "path_info": request.axes_path_info,
    }
    found = AccessAttempt.objects.filter(**where).order_by("pk").values_list("pk", flat=True)
    if (pk := found.first()) is not None:
        AccessAttempt.objects.filter(pk=pk).update(**changes)
        return
    try:
        with transaction.atomic(using=router.db_for_write(AccessAttempt)):
            # No GET or POST data: the POST data of a log-in is a guessed password.
            AccessAttempt.objects.create(
                **where,
                get_data="",
                post_data="",
                http_accept=request.axes_http_accept[:1025],
                path_info=request.axes_path_info[:255],
                failures_since_start=1,
            )
    except IntegrityError:  # a parallel attempt made the row first
        AccessAttempt.objects.filter(pk=found.first()).update(**changes)


def _take_back(request: AxesRequest, name: str | None, address: str | None) -> None:
    """Undo one `_add` of this request."""
    where = {"username": name, "ip_address": address, "user_agent": request.axes_user_agent}
    found = AccessAttempt.objects.filter(**where, failures_since_start__gt=0).order_by("pk")
    if (pk := found.values_list("pk", flat=True).first()) is not None:
        AccessAttempt.objects.filter(pk=pk).update(
            failures_since_start=F("failures_since_start") - 1
        )


class LoginAttempts(AxesDatabaseHandler):
    """AXES_HANDLER: axes's database handler with the rules of the module docstring."""

    def _limits(self) -> tuple[int, int, int]:
        limit = settings.AXES_FAILURE_LIMIT
        return limit, limit * ADDRESS_LIMIT_FACTOR, limit * ACCOUNT_CEILING_FACTOR

    def _refusal(self, name: str, address: str | None, exists: bool) -> str | None:
        """Why an attempt would be refused before it is counted, or None."""
        limit, address_limit, ceiling = self._limits()
        if _name_failures(name, address) >= limit:
            return LOCKED
        if exists and address is not None and _address_failures(address) >= address_limit:
            return LOCKED
        if _failures(username=name) >= ceiling and not ratelimit.allow(
            "login-slowed", name, 1, SLOW_DOWN_SECONDS
        ):
            return SLOWED
        return None

    def is_allowed(self, request: AxesRequest, credentials: Credentials | None = None) -> bool:
        if self.is_blacklisted(request, credentials):
            return False
        if self.is_whitelisted(request, credentials):
            return True
        name = get_client_username(request, credentials)
        address = request.axes_ip_address
        if name is None or credentials is None:
            return not self.is_locked(request, credentials)
        self.clean_expired_user_attempts(request, credentials)
        exists = usernames.find(str(credentials.get("username", ""))) is not None
        count_address = exists and address is not None
        refusal = self._refusal(name, address, exists)
        if refusal is None:
            limit, address_limit, _ = self._limits()
            _add(request, name, address)
            if count_address:
                _add(request, None, address)
            over = _name_failures(name, address) > limit or (
                count_address and _address_failures(str(address)) > address_limit
            )
            if over:  # parallel attempts took the last places first
                _take_back(request, name, address)
                if count_address:
                    _take_back(request, None, address)
                refusal = LOCKED
            else:
                request.axes_attempt_counted = True
                request.axes_address_counted = count_address
        request.axes_refusal = refusal
        return refusal is None

    def is_locked(self, request: AxesRequest, credentials: Credentials | None = None) -> bool:
        name = get_client_username(request, credentials)
        address = request.axes_ip_address
        limit, address_limit, _ = self._limits()
        return (name is not None and _name_failures(name, address) >= limit) or (
            address is not None and _address_failures(address) >= address_limit
        )

    def get_failures(self, request: AxesRequest, credentials: Credentials | None = None) -> int:
        name = get_client_username(request, credentials)
        return _name_failures(name, request.axes_ip_address) if name is not None else 0

    def user_login_failed(
        self,
        sender: object,
        credentials: Credentials,
        request: AxesRequest | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None or not hasattr(request, "axes_refusal"):
            # Not through is_allowed (no request, or a whitelisted client): axes's own way.
            return super().user_login_failed(sender, credentials, request, **kwargs)
        if request.axes_refusal is not None:
            request.axes_locked_out = True
            request.axes_credentials = credentials

    def user_logged_in(
        self, sender: object, request: HttpRequest, user: User, **kwargs: Any
    ) -> None:
        """A success clears the account's own failures from this address; the attempt that
        succeeded is taken back from the address's count, which is otherwise left alone."""
        if not getattr(request, "axes_attempt_counted", False):
            return  # not a log-in by password (a sign-up, a test's force_login)
        axes_request: AxesRequest = request  # type: ignore[assignment]
        name = usernames.normalise(user.get_username())[: usernames.MAX_LENGTH]
        address = axes_request.axes_ip_address
        if usernames.owns(user, name):
            AccessAttempt.objects.filter(username=name, ip_address=address).delete()
        if axes_request.axes_address_counted:
            _take_back(axes_request, None, address)


def lift(user: User) -> None:
    """Clear every failure counted against `user`'s name, from every address (a completed
    password reset: old guesses at the old password no longer matter)."""
    name = usernames.normalise(user.get_username())[: usernames.MAX_LENGTH]
    if usernames.owns(user, name):
        AccessAttempt.objects.filter(username=name).delete()


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: Credentials | None = None,
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the page for a refused log-in, on our log-in page and the admin's."""
    if getattr(request, "axes_refusal", None) == SLOWED:
        seconds = ratelimit.seconds_left(SLOW_DOWN_SECONDS)
        context = {"seconds": seconds}
        response = render(request, "accounts/slowed_down.html", context, status=429)
        response["Retry-After"] = str(seconds)
        return response
    minutes = max(1, math.ceil(settings.LOGIN_FAILURE_WINDOW / 60))
    response = render(request, "accounts/locked_out.html", {"minutes": minutes}, status=429)
    response["Retry-After"] = str(settings.LOGIN_FAILURE_WINDOW)
    return response
