"""`manage.py check --deploy` asks for what accounts need in production (trainer/accounts/
checks.py): SITE_URL, over https."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

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
