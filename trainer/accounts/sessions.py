"""Sessions kept in the database and read through the cache, which may be down.

Django's `cached_db` engine reads a session from the cache and falls back to the database; every
write goes to both. On a page that reads the session (every page of a logged-in learner) this
saves the session query when the cache has it: in production the cache is Redis, shared by every
web process.

Two changes to Django's engine:

- An unreachable cache never fails a request, as the rate limiters fail open (issue 10: practice
  goes on while Redis is down). Django's engine already catches errors of cache reads and of
  saves, but not of the cache write after a database read (every page while Redis is down would
  fail), nor of deleting (logging out) or of `exists` (choosing a new session key, at log-in).
  Here each is logged, and the database alone serves the request.
- A cached copy lives at most `CACHE_SECONDS`, not the session's two weeks. A log-out while the
  cache is unreachable deletes the session from the database but not its cached copy, which a
  Redis with persistence may still hold when it comes back; for at most this long, that copy
  would let the old cookie in again. Any change made while the cache is unreachable (a log-in's
  new key, a password change's new hash) is likewise seen in full at the latest this long after.
  An active session pays one database read per `CACHE_SECONDS`.
"""

import logging
from datetime import datetime
from typing import Any

from django.contrib.sessions.backends.cached_db import SessionStore as CachedDBStore

logger = logging.getLogger(__name__)

CACHE_SECONDS = 300


class SessionStore(CachedDBStore):
    # `_cache`, `_session` and `_get_session_from_db` are the cached_db engine's own (private,
    # so not in django-stubs); this class adapts that engine and relies on them.

    def _cache_seconds(self, expiry: datetime | int | None = None) -> int:
        return min(CACHE_SECONDS, self.get_expiry_age(expiry=expiry))

    def _cache_set(self, data: dict[str, Any], seconds: int) -> None:
        try:
            self._cache.set(self.cache_key, data, seconds)  # type: ignore[attr-defined]
        except Exception:
            logger.exception("session cache unavailable")

    def load(self) -> dict[str, Any]:
        try:
            data = self._cache.get(self.cache_key)  # type: ignore[attr-defined]
        except Exception:
            logger.exception("session cache unavailable")
            data = None
        if data is None:
            stored = self._get_session_from_db()  # type: ignore[attr-defined]
            if stored is None:
                return {}
            data = self.decode(stored.session_data)
            self._cache_set(data, self._cache_seconds(expiry=stored.expire_date))
        return data

    def exists(self, session_key: str | None) -> bool:
        if not session_key:
            return False
        try:
            if self.cache_key_prefix + session_key in self._cache:  # type: ignore[attr-defined]
                return True
        except Exception:
            logger.exception("session cache unavailable")
        return super(CachedDBStore, self).exists(session_key)

    def save(self, must_create: bool = False) -> None:
        super(CachedDBStore, self).save(must_create)
        self._cache_set(self._session, self._cache_seconds())  # type: ignore[attr-defined]

    def delete(self, session_key: str | None = None) -> None:
        super(CachedDBStore, self).delete(session_key)
        if session_key is None:
            if self.session_key is None:
                return
            session_key = self.session_key
        try:
            self._cache.delete(self.cache_key_prefix + session_key)  # type: ignore[attr-defined]
        except Exception:
            logger.exception("session cache unavailable")
