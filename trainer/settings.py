"""Settings for Inference Interview Trainer, read from environment variables.

One module for every environment. The defaults serve one person on a laptop (SQLite, tasks run
in-process); production sets DEBUG=0, SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and REDIS_URL.
Every variable is documented in README.md.
"""

import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in {"1", "true", "yes", "on"}:
        return True
    if value.lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be 1/0, true/false, yes/no or on/off, got {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}") from None


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", False)

# Required in production. Left empty, Django refuses to sign anything ("The SECRET_KEY setting
# must not be empty") and `check --deploy` reports it, so a missing key cannot go unnoticed.
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY and DEBUG:
    SECRET_KEY = "insecure-development-key-only-used-when-debug-is-on"  # noqa: S105

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "trainer.accounts",
    "problems",
    "trainer.practice",
    "trainer.plan",
    "trainer.mock",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "trainer.middleware.PrivatePagesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "trainer.middleware.DatabaseUnavailableMiddleware",
    "trainer.middleware.LearnerTimeZoneMiddleware",
    "trainer.mock.middleware.MockInProgressMiddleware",
    # Last, so that it sees (and replaces) the response to a refused log-in on every path.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "trainer.urls"
WSGI_APPLICATION = "trainer.wsgi.application"
ASGI_APPLICATION = "trainer.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "trainer.context_processors.roles",
                "trainer.context_processors.navigation",
                "trainer.context_processors.time_zone",
            ],
            "builtins": ["trainer.practice.templatetags.prose"],
        },
    },
]

# SQLite by default. WAL lets readers run beside the writer, IMMEDIATE takes the write lock at
# BEGIN so two writers queue on the busy timeout instead of failing with "database is locked"
# when one upgrades a read lock (docs/reference.md, "Operations").
DATA_DIR = Path(os.environ.get("DATA_DIR", BASE_DIR / "var"))
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{DATA_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
# SQLite's connections are reused too (DATABASE_CONN_MAX_AGE): a new one re-reads the schema and
# starts with an empty page cache, about a third of a practice request's CPU (bench/README.md).
# runserver closes a thread's connections when its browser connection closes.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATA_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file, not Django's in-memory default, so that a Celery worker process started by a test
    # fixture sees the same test database; one per test process, so two runs never share one.
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / f"test-{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes first: it refuses an attempt on a locked account before any password is checked,
# on every path that authenticates (our log-in page, the admin's).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "trainer.accounts.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Failed log-ins allowed per account (4x that per client address, counting only accounts that
# exist) within the window, counted in the database so that every worker shares them.
LOGIN_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_FAILURE_WINDOW = env_int("LOGIN_FAILURE_WINDOW", 15 * 60)
# Reverse proxies in front of the app that append to X-Forwarded-For; 0 ignores the header.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)
AXES_HANDLER = "trainer.accounts.lockout.LoginAttempts"
AXES_FAILURE_LIMIT = LOGIN_FAILURE_LIMIT
AXES_COOLOFF_TIME = timedelta(seconds=LOGIN_FAILURE_WINDOW)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_USERNAME_CALLABLE = "trainer.accounts.lockout.normalised_username"
AXES_CLIENT_IP_CALLABLE = "trainer.accounts.addresses.client_address"
AXES_LOCKOUT_CALLABLE = "trainer.accounts.lockout.lockout_response"
AXES_DISABLE_ACCESS_LOG = True  # no log of every successful log-in, which nothing reads
AXES_VERBOSE = False
# Seconds an instructor's formulas may run in a request: the live check, the editor's save, the
# preview and an import are refused past it, naming what was slow.
AUTHORING_TIME_LIMIT = env_int("AUTHORING_TIME_LIMIT", 5)
# Answers a learner may submit per minute (practice and mock together).
ANSWER_RATE_LIMIT = env_int("ANSWER_RATE_LIMIT", 30)
# Accounts created per client address per hour, and password-reset e-mails asked for per
# address per hour.
SIGNUP_RATE_LIMIT = env_int("SIGNUP_RATE_LIMIT", 10)
PASSWORD_RESET_RATE_LIMIT = env_int("PASSWORD_RESET_RATE_LIMIT", 5)

# E-mail (password resets): SMTP at EMAIL_HOST in production; with DEBUG on and no EMAIL_HOST,
# written to the console (the log) instead, which is enough on a laptop.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
MAILERS = {
    "default": (
        {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
        if DEBUG and not EMAIL_HOST
        else {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": EMAIL_HOST or "localhost",
                "port": env_int("EMAIL_PORT", 587),
                "username": os.environ.get("EMAIL_HOST_USER", ""),
                "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
                "use_tls": env_bool("EMAIL_USE_TLS", True),
                "timeout": 10,
            },
        }
    )
}
del EMAIL_HOST  # read through MAILERS only (the EMAIL_* settings are deprecated in Django 6.1)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "trainer@localhost")
# The site's address as learners reach it, for links in e-mails (never the request's Host
# header, which the visitor writes). Required in production (`check --deploy` says so).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000" if DEBUG else "").rstrip("/")
if SITE_URL and not re.fullmatch(r"https?://[^/\s?#]+", SITE_URL):
    raise ImproperlyConfigured(
        f"SITE_URL must be a scheme and a host, like https://trainer.example.com; got {SITE_URL!r}"
    )
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 60 * 60)

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "trainer.cache.RedisCache",  # Django's, one client per pool
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "trainer",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Sessions in the database, the one store every process shares: a log-out, a password change
# or a deactivation ends the session in every worker at the next request. (Kept in the cache,
# they would need the cache shared too; the database needs no second service and survives a
# Redis outage.)
SESSION_ENGINE = "django.contrib.sessions.backends.db"

# Celery: see trainer/celery.py for why each reliability option is set.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True

# Security. Production (DEBUG off) gets the full set that `manage.py check --deploy` asks for;
# SECURE_SSL_REDIRECT can be turned off where a proxy already redirects, or for a local load test.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)

# Content Security Policy: only our own files; inline scripts need the per-request nonce (there
# are none today). htmx runs with its eval features off (see templates/base.html), so no
# 'unsafe-eval'; SVG charts use presentation attributes, not style attributes.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}},
}
