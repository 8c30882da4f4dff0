import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


def test_it_validates_docker_compose():
    if shutil.which("docker-compose") is None:
        pytest.skip("docker-compose (Debian package) is not installed: compose file not validated")
    result = subprocess.run(
        ["docker-compose", "config", "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "SECRET_KEY": "x" * 50},
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_it_runs_the_whole_production_stack():
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert {"web", "worker", "beat", "postgres", "redis"} <= set(services)
    assert "--appendonly yes" in services["redis"]["command"]
    for name in ["web", "postgres", "redis", "worker"]:
        assert "healthcheck" in services[name], name
    assert "gunicorn" in services["web"]["command"]


def test_it_refuses_to_start_without_a_secret_key():
    if shutil.which("docker-compose") is None:
        pytest.skip("docker-compose (Debian package) is not installed: compose file not validated")
    env = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    result = subprocess.run(
        ["docker-compose", "config", "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
