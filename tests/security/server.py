"""gunicorn serving the app as production does without Redis, with several workers, on the test
database: for the findings that only show across worker processes."""

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import _database_url
from tests.faults.conftest import _wait_for, free_port

ROOT = Path(__file__).resolve().parents[2]


class MultiWorkerServer:
    def __init__(self, log_path, *, workers=3, env=None, timeout=60):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        self.log = open(log_path, "w")  # closed in stop()
        environment = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "tests.security.server_settings",
            "DEBUG": "0",
            "REDIS_URL": "",
            "DATABASE_URL": _database_url(),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SESSION_COOKIE_SECURE": "0",
            "CSRF_COOKIE_SECURE": "0",
            "LOG_LEVEL": "WARNING",
            **(env or {}),
        }
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "trainer.wsgi",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(workers),
                "--timeout",
                str(timeout),
            ],
            cwd=ROOT,
            env=environment,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        import urllib.request

        def healthy():
            try:
                return urllib.request.urlopen(self.url + "/healthz/", timeout=2).status == 200
            except OSError:
                return self.process.poll() is not None

        _wait_for(healthy, 30, "gunicorn did not serve /healthz/")
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
