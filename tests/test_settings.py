import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args, **env):
    environment = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY"}}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_passes_check_deploy_in_production():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="trainer.example.com",
        SITE_URL="https://trainer.example.com",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_it_flags_a_missing_secret_key_in_production():
    result = _manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="0")
    assert result.returncode != 0
    assert "security.W009" in result.stdout + result.stderr


def test_it_explains_a_malformed_boolean():
    result = _manage("check", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be 1/0, true/false" in result.stderr


def test_it_uses_sqlite_with_wal_and_immediate_transactions(settings):
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        import pytest

        pytest.skip("this run uses PostgreSQL")
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]
    assert database["OPTIONS"]["timeout"] >= 5
