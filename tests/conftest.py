import os
import shutil
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from hypothesis import settings as hypothesis_settings

TEST_SECRET_KEY = "tests-only-secret-key-" + "k3y" * 20  # noqa: S105

# Property tests run a few hundred examples in `make test` and thousands in `make test-thorough`
# (HYPOTHESIS_PROFILE=thorough). A test that sets its own smaller max_examples keeps it: each of
# its examples is expensive (a database, a whole curriculum).
hypothesis_settings.register_profile("default", max_examples=200, deadline=None)
hypothesis_settings.register_profile("thorough", max_examples=3000, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config):
    # Tests run with DEBUG off, as in production, so they need a key; subprocesses inherit it.
    key = os.environ.setdefault("SECRET_KEY", TEST_SECRET_KEY)
    try:
        settings.SECRET_KEY  # noqa: B018
    except ImproperlyConfigured:
        settings.SECRET_KEY = key
    # The test client speaks plain HTTP, and nothing is collected into STATIC_ROOT for tests.
    settings.SECURE_SSL_REDIRECT = False
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.WHITENOISE_USE_FINDERS = True
    settings.WHITENOISE_AUTOREFRESH = True
    # The production hasher costs ~0.3 s a password by design; tests create many users.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Rate-limit counters live in the cache, compiled scenarios in a per-process dict keyed by
    version id, and ids repeat between tests."""
    from django.core.cache import cache

    from problems import variants

    cache.clear()
    variants._compiled.clear()
    yield
    cache.clear()
    variants._compiled.clear()


@pytest.fixture(autouse=True)
def _background_inline(monkeypatch):
    """Without a broker, validations run in a background thread (problems.background), which
    cannot see a test's uncommitted transaction: here they run inline when the request commits.
    The thread itself runs in the gunicorn tests (tests/security/test_validation_in_process.py)."""
    from problems import background

    monkeypatch.setattr(background, "start", lambda function, *args: function(*args))


EXAMPLE_PROBLEM = Path(__file__).resolve().parent / "engine" / "problem3.yaml"


@pytest.fixture
def bank_dir(tmp_path):
    """A bank directory holding one problem file (the engine's tested example of problem 3)."""
    directory = tmp_path / "bank"
    directory.mkdir()
    shutil.copy(EXAMPLE_PROBLEM, directory / "03-kv-cache.yaml")
    return directory


@pytest.fixture
def loaded_bank(db, bank_dir):
    from problems.loader import load_bank

    load_bank(bank_dir)


@pytest.fixture
def learner(django_user_model):
    return django_user_model.objects.create_user("learner", password="correct horse 1")


@pytest.fixture
def other_learner(django_user_model):
    """Another learner: must never see the first learner's things."""
    return django_user_model.objects.create_user("other", password="correct horse 2")


@pytest.fixture
def instructor(django_user_model):
    from trainer.accounts.roles import make_instructor

    user = django_user_model.objects.create_user("instructor", password="correct horse 3")
    make_instructor(user)
    return user


DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "client",
    "admin_client",
    "django_user_model",
    "live_server",
    "learner",
    "other_learner",
    "instructor",
}


def pytest_addoption(parser):
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="run only the tests that use the database (the PostgreSQL pass of `make test`)",
    )


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--database-tests-only"):
        return
    selected, deselected = [], []
    for item in items:
        uses_database = item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(
            getattr(item, "fixturenames", ())
        )
        browser = item.get_closest_marker("e2e")
        (selected if uses_database and not browser else deselected).append(item)
    config.hook.pytest_deselected(items=deselected)
    items[:] = selected


def _reachable(url):
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    try:
        socket.create_connection((parts.hostname, parts.port or 6379), timeout=2).close()
    except OSError:
        return False
    return True


def _database_url():
    """The URL of the test database, for a worker process to open the same one."""
    from django.db import connection

    database = connection.settings_dict
    if database["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{database['NAME']}"
    user = database["USER"] + (f":{database['PASSWORD']}" if database["PASSWORD"] else "")
    return f"postgres://{user}@{database['HOST']}:{database['PORT']}/{database['NAME']}"


class CeleryWorker:
    """A real `celery worker` process on Redis, and a client app to send it tasks."""

    def __init__(self, redis_url, extra_env=None):
        import subprocess
        import sys
        import threading

        from celery import Celery

        self.redis_url = redis_url
        self.output = []
        self._ready = threading.Event()
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "DATABASE_URL": _database_url(),
            "DEBUG": "0",
            **(extra_env or {}),
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "trainer",
                "worker",
                "--pool=solo",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--hostname=test@%h",
            ],
            cwd=os.path.dirname(os.path.dirname(__file__)),
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        self.client = Celery("test-client", broker=redis_url, backend=redis_url)

    def _read(self):
        for line in self.process.stdout:
            self.output.append(line)
            if " ready." in line:
                self._ready.set()

    def wait_ready(self, timeout=60):
        if not self._ready.wait(timeout):
            self.stop()
            raise RuntimeError("celery worker did not start:\n" + "".join(self.output))

    def send(self, name, *args, **kwargs):
        return self.client.send_task(name, args=args, kwargs=kwargs)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(20)
            except Exception:
                self.process.kill()
        self.client.close()


@pytest.fixture
def redis_url():
    url = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
    if not _reachable(url):
        pytest.skip(f"Redis is not reachable at {url}: the Celery-on-Redis tests did not run")
    import redis

    redis.Redis.from_url(url).flushdb()
    return url


@pytest.fixture
def celery_worker(transactional_db, redis_url):
    worker = CeleryWorker(redis_url)
    worker.wait_ready()
    yield worker
    worker.stop()
