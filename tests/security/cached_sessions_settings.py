"""The multi-worker server's settings (server_settings.py) with sessions read through the cache,
which, without Redis, is each worker's own memory: a deployment gunicorn must refuse to start
with several workers (gunicorn.conf.py)."""

from tests.security.server_settings import *  # noqa: F403

SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
