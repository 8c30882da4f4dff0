"""The app served by gunicorn as production serves it, on the test database, for the tests that
need real processes: the fault tests (one worker, on a Redis of their own) and the security
tests whose findings only show across several workers (no Redis)."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.conftest import _database_url

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} within {timeout} s")


class Gunicorn:
    """gunicorn with `settings` (a settings module of the tests), `workers` sync workers and a
    `timeout` per request [s], answering on a free port once /healthz/ does."""

    def __init__(self, log_path, *, settings, redis_url="", workers=1, timeout=60, env=None):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.log = open(log_path, "w")  # closed in stop()
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": settings,
            "DEBUG": "0",
            "REDIS_URL": redis_url,
            "DATABASE_URL": _database_url(),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SESSION_COOKIE_SECURE": "0",
            "CSRF_COOKIE_SECURE": "0",
            "LOG_LEVEL": "WARNING",
            **(env or {}),
        }
        command = [sys.executable, "-m", "gunicorn", "trainer.wsgi"]
        command += ["--bind", f"127.0.0.1:{self.port}", "--workers", str(workers)]
        command += ["--timeout", str(timeout)]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=environment, stdout=self.log, stderr=subprocess.STDOUT
        )

        def healthy():
            try:
                return urllib.request.urlopen(self.url + "/healthz/", timeout=2).status == 200
            except OSError:
                return self.process.poll() is not None

        wait_for(healthy, 30, "gunicorn did not serve /healthz/")
        if self.process.poll() is not None:
            raise AssertionError("gunicorn stopped:\n" + Path(log_path).read_text())

    def output(self):
        self.log.flush()
        return Path(self.log_path).read_text()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(20)
        self.log.close()
