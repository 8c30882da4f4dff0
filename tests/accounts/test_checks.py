"""`manage.py check --deploy` asks for what accounts need in production (trainer/accounts/
checks.py): SITE_URL, over https."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from trainer.accounts.checks import sessions_problem

ROOT = Path(__file__).resolve().parent.parent.parent
PRODUCTION = {"DEBUG": "0", "ALLOWED_HOSTS": "trainer.example.com"}


def _check_deploy(**env):
    environment = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SITE_URL"}}
    environment.update(SECRET_KEY=secrets.token_urlsafe(50), **PRODUCTION, **env)
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_passes_with_a_site_url():
    result = _check_deploy(SITE_URL="https://trainer.example.com")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_it_asks_for_a_site_url():
    result = _check_deploy()
    assert result.returncode != 0
    assert "accounts.E001" in result.stderr and "SITE_URL is not set" in result.stderr


def test_it_warns_of_a_site_url_in_clear():
    result = _check_deploy(SITE_URL="http://trainer.example.com")
    assert result.returncode != 0
    assert "accounts.W001" in result.stderr


def test_it_refuses_a_site_url_with_a_path():
    result = _check_deploy(SITE_URL="https://trainer.example.com/app?x=1")
    assert result.returncode != 0
    assert "SITE_URL must be a scheme and a host" in result.stderr


@pytest.mark.parametrize(
    ("engine", "cache", "workers", "refused"),
    [
        ("django.contrib.sessions.backends.db", "locmem.LocMemCache", 3, False),
        ("django.contrib.sessions.backends.cached_db", "locmem.LocMemCache", 3, True),
        ("django.contrib.sessions.backends.cache", "locmem.LocMemCache", 2, True),
        ("django.contrib.sessions.backends.cache", "dummy.DummyCache", 2, True),
        ("django.contrib.sessions.backends.cached_db", "locmem.LocMemCache", 1, False),
        ("django.contrib.sessions.backends.cached_db", "redis.RedisCache", 3, False),
    ],
)
def test_it_refuses_several_workers_only_on_sessions_in_a_per_process_cache(
    settings, engine, cache, workers, refused
):
    settings.SESSION_ENGINE = engine
    settings.CACHES = {
        "default": {"BACKEND": f"django.core.cache.backends.{cache}", "LOCATION": "redis://x"}
    }
    problem = sessions_problem(workers)
    assert (problem is not None) == refused
    if refused:
        assert f"refusing to start {workers} workers" in problem
        assert "in its own memory" in problem and "REDIS_URL" in problem


def test_the_settings_keep_sessions_where_every_worker_sees_them(settings):
    assert sessions_problem(8) is None
