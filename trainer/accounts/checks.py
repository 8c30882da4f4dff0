"""System checks of the settings accounts need in production (`manage.py check --deploy`)."""

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register
from django.utils.module_loading import import_string


@register(Tags.security, deploy=True)
def site_url_is_set(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Password-reset links are built from SITE_URL alone (trainer/accounts/passwords.py)."""
    if settings.DEBUG:
        return []
    if not settings.SITE_URL:
        return [
            Error(
                "SITE_URL is not set, so no password-reset e-mail can be sent.",
                hint="Set SITE_URL to the site's address, like https://trainer.example.com.",
                id="accounts.E001",
            )
        ]
    if not settings.SITE_URL.startswith("https://"):
        return [
            Warning(
                "SITE_URL is not an https:// address: password-reset links would travel in clear.",
                id="accounts.W001",
            )
        ]
    return []


# Caches that live in one process's memory (or nowhere): each worker would have its own.
PER_PROCESS_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
}


def sessions_problem(workers: int) -> str | None:
    """Why serving with `workers` processes would let a session outlive its end, or None.

    Sessions must live in one store every process shares, so that a log-out, a password change
    or a deactivation ends them in every worker at once. The database is one; a cache is one
    only when it is shared (Redis), not each process's own memory."""
    engine = import_string(settings.SESSION_ENGINE + ".SessionStore")
    if workers <= 1 or not hasattr(engine, "cache_key"):  # not read through a cache
        return None
    alias = getattr(settings, "SESSION_CACHE_ALIAS", "default")
    backend = settings.CACHES[alias]["BACKEND"]
    if backend not in PER_PROCESS_CACHES:
        return None
    return (
        f"refusing to start {workers} workers: sessions ({settings.SESSION_ENGINE}) are read "
        f"through the cache {alias!r} ({backend}), which each worker keeps in its own memory, "
        "so a log-out, a password change or a deactivation in one worker would leave the "
        "session valid in the others. Set REDIS_URL (a cache every worker shares), keep "
        "sessions in the database (django.contrib.sessions.backends.db), or run one worker."
    )
