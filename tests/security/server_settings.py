"""Settings of the app server the multi-worker security tests start: the production settings
(DEBUG off, no Redis: the cache is each worker's memory and tasks run in-process), with static
files served from the source tree. Django's default password hasher stays first (a log-in costs
what it costs in production, which is the window parallel guesses aim at); the tests' fast hasher
follows so that the users the tests create can log in."""

from trainer.settings import *  # noqa: F403
from trainer.settings import STORAGES

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.MD5PasswordHasher",
]
