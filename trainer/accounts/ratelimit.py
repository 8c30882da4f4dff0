"""Counting failed log-ins, per account and per client address, in the cache.

A cache outage must not lock everyone out, nor let a guesser through unnoticed: when the cache
cannot be reached the limit is not enforced and the failure is logged.
"""

import hashlib
import logging
import time

from django.conf import settings
from django.core.cache import cache

logger = logging.getLogger(__name__)

# An address is shared by many people behind one NAT, so it gets a looser limit than an account.
ADDRESS_LIMIT_FACTOR = 4


def _keys(username, address):
    account = hashlib.sha256(username.strip().lower().encode()).hexdigest()[:32]
    return [
        (f"login-fail:account:{account}", settings.LOGIN_FAILURE_LIMIT),
        (f"login-fail:address:{address}", settings.LOGIN_FAILURE_LIMIT * ADDRESS_LIMIT_FACTOR),
    ]


def client_address(request):
    return request.META.get("REMOTE_ADDR", "unknown")


def seconds_locked(username, address):
    """Seconds until another attempt is allowed, or 0 when the attempt may go ahead."""
    try:
        now = time.time()
        waits = []
        for key, limit in _keys(username, address):
            failures = [t for t in cache.get(key, []) if t > now - settings.LOGIN_FAILURE_WINDOW]
            if len(failures) >= limit:
                waits.append(failures[-limit] + settings.LOGIN_FAILURE_WINDOW - now)
        return int(max(waits)) + 1 if waits else 0
    except Exception:  # a cache outage must not lock everyone out
        logger.exception("login rate limit unavailable")
        return 0


def record_failure(username, address):
    try:
        now = time.time()
        for key, limit in _keys(username, address):
            failures = [t for t in cache.get(key, []) if t > now - settings.LOGIN_FAILURE_WINDOW]
            failures = (failures + [now])[-limit:]
            cache.set(key, failures, settings.LOGIN_FAILURE_WINDOW)
    except Exception:
        logger.exception("login rate limit unavailable")


def clear_failures(username, address):
    try:
        cache.delete_many([key for key, _ in _keys(username, address)])
    except Exception:
        logger.exception("login rate limit unavailable")


def allow(scope, identity, limit, window):
    """Count one event for (scope, identity) in the current window of `window` seconds; False
    when that makes more than `limit`. Fails open (and logs) when the cache is down, like the
    log-in limit: an outage must not stop learners answering."""
    key = f"rate:{scope}:{identity}:{int(time.time() // window)}"
    try:
        if cache.add(key, 1, window + 1):
            return True
        return cache.incr(key) <= limit
    except Exception:
        logger.exception("rate limit %s unavailable", scope)
        return True
