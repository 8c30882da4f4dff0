"""`make test` (and so CI, which runs it from .ci/run) fails at once when PostgreSQL or Redis
cannot be reached: the PostgreSQL pass and the tests on Redis are part of done, not skipped."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTHING = "127.0.0.1:1"  # a port nothing listens on


def _services(**urls):
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    environment = {**os.environ, "MAKEFLAGS": ""}
    arguments = [f"{name}={url}" for name, url in urls.items()]
    return subprocess.run(
        ["make", "--no-print-directory", "services", *arguments],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("name", "url"),
    [
        ("TEST_DATABASE_URL", f"postgres://postgres@{NOTHING}/trainer"),
        ("TEST_REDIS_URL", f"redis://{NOTHING}/15"),
        ("TEST_REDIS_URL_POSTGRES_PASS", f"redis://{NOTHING}/14"),
    ],
)
def test_make_test_stops_without_postgresql_or_redis(name, url):
    result = _services(**{name: url})
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert f"at {NOTHING} is not reachable" in output
    assert "make test needs PostgreSQL and Redis" in output
