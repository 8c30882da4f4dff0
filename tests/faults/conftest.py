"""What the fault tests run against: a Redis of their own (the machine's shared one is never
stopped), the app served by gunicorn with production settings, Celery workers, and a visitor that
speaks HTTP like a browser without JavaScript."""

import http.cookiejar
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from problems import variants
from tests.conftest import CeleryWorker, _database_url
from tests.servers import Gunicorn, free_port
from tests.servers import wait_for as _wait_for

ROOT = Path(__file__).resolve().parents[2]
REDIS_SERVER = shutil.which("redis-server")


@pytest.fixture(autouse=True)
def fresh_compiled_cache():
    """Compiled versions are cached per process by id, and ids repeat between test databases."""
    yield
    variants._compiled.clear()


class OwnRedis:
    """A redis-server on a free port, appending to a file in its own directory, so that it can be
    stopped and started again with its data."""

    def __init__(self, directory):
        self.directory = directory
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process = None

    def _answers(self):
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as connection:
                connection.sendall(b"PING\r\n")
                return connection.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self):
        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for(self._answers, 10, f"redis-server did not answer on port {self.port}")

    def stop(self):
        """A clean shutdown: Redis writes its append-only file and exits."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(10)
        self.process = None


@pytest.fixture
def own_redis(tmp_path):
    if REDIS_SERVER is None:
        pytest.skip("redis-server is not installed: the Redis fault tests did not run")
    redis = OwnRedis(tmp_path / "redis")
    redis.directory.mkdir()
    redis.start()
    yield redis
    redis.stop()


def AppServer(redis_url, log_path):  # noqa: N802 - it builds the server, as a class would
    """gunicorn serving the app as production does (one sync worker, which keeps its database
    connection between requests), on Redis at `redis_url` and on the test database."""
    return Gunicorn(log_path, settings="tests.faults.server_settings", redis_url=redis_url)


@pytest.fixture
def app_server(own_redis, transactional_db, tmp_path):
    server = AppServer(own_redis.url, tmp_path / "gunicorn.log")
    yield server
    server.stop()


@pytest.fixture
def worker(own_redis, transactional_db):
    worker = CeleryWorker(own_redis.url)
    worker.wait_ready()
    yield worker
    worker.stop()


class Worker(CeleryWorker):
    """A `celery worker` like the shared fixture's, with the pool and environment a fault test
    needs (the shared one runs the solo pool)."""

    def __init__(self, redis_url, *, pool="solo", env=None):
        import threading

        from celery import Celery

        self.redis_url = redis_url
        self.output = []
        self._ready = threading.Event()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "trainer",
                "worker",
                f"--pool={pool}",
                "--concurrency=1",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--hostname=fault@%h",
            ],
            cwd=ROOT,
            env={
                **os.environ,
                "REDIS_URL": redis_url,
                "DATABASE_URL": _database_url(),
                "DEBUG": "0",
                **(env or {}),
            },
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        threading.Thread(target=self._read, daemon=True).start()
        self.client = Celery("fault-client", broker=redis_url, backend=redis_url)

    def children(self):
        """The pids of the worker's pool processes (prefork)."""
        pids = []
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            pids += [int(pid) for pid in (task / "children").read_text().split()]
        return pids

    def kill(self):
        """SIGKILL: no clean-up, no acknowledgement, as when the machine or the OOM killer
        takes the process."""
        self.process.kill()
        self.process.wait(10)


@pytest.fixture
def workers(own_redis, transactional_db):
    """start(pool=..., env=...) -> a Worker, ready; every one is stopped at the end."""
    started = []

    def start(**options):
        worker = Worker(own_redis.url, **options)
        started.append(worker)
        worker.wait_ready()
        return worker

    yield start
    for worker in started:
        worker.stop()


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Visitor:
    """A browser without JavaScript: keeps cookies, sends the CSRF token, follows no redirect.
    Every answer is (status, body, seconds it took)."""

    def __init__(self, server):
        self.server = server
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirects()
        )

    def _send(self, request):
        started = time.monotonic()
        try:
            with self.opener.open(request, timeout=60) as response:
                status, body = response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            status, body = error.code, error.read().decode()
        return status, body, time.monotonic() - started

    def get(self, path):
        return self._send(self.server.url + path)

    def post(self, path, data=None):
        token = next((c.value for c in self.cookies if c.name == "csrftoken"), None)
        if token is None:
            self.get("/accounts/login/")
            token = next(c.value for c in self.cookies if c.name == "csrftoken")
        body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **(data or {})}).encode()
        return self._send(urllib.request.Request(self.server.url + path, data=body))

    def log_in(self, username, password):
        status, body, _ = self.post(
            "/accounts/login/", {"username": username, "password": password}
        )
        assert status == 302, body
        return self


def attempt_id_on(body):
    return int(re.search(r"/practice/attempts/(\d+)/answer/", body).group(1))
