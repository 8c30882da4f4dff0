"""Settings of the app server the fault tests start: the production settings (DEBUG off, Redis and
the database from the environment), with static files served from the source tree (nothing is
collected for tests) and the tests' fast password hasher."""

from trainer.settings import *  # noqa: F403
from trainer.settings import STORAGES

STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
