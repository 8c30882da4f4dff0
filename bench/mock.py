"""Time the mock interview (trainer/mock) through its views, on the real bank and SQLite.

Run: .venv/bin/python bench/mock.py

A fresh SQLite database in a temporary directory (WAL, IMMEDIATE transactions: the default
settings), the real bank loaded. In-process requests go through Django's test client, so they
include middleware, sessions, templates and every query, but no network. Each figure is the
median (and 95th percentile) over the repeats printed beside it. The concurrent part runs a real
threaded HTTP server: 8 requests racing for one part, and 16 learners answering their own mocks at
the same time (the load the SQLite default must take without "database is locked").
"""

import os
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
DATA_DIR = tempfile.mkdtemp(prefix="bench-mock-")
os.environ.update(
    DJANGO_SETTINGS_MODULE="trainer.settings",
    DATA_DIR=DATA_DIR,
    SECRET_KEY="bench-only-secret-key-" + "x" * 40,
    SECURE_SSL_REDIRECT="0",
    SESSION_COOKIE_SECURE="0",
    CSRF_COOKIE_SECURE="0",
    LOG_LEVEL="WARNING",
)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402

settings.STORAGES = {
    **settings.STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.testcases import LiveServerThread, _StaticFilesHandler  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from problems.loader import load_bank  # noqa: E402
from problems.models import PartAnswer  # noqa: E402
from problems.variants import attempt_variant  # noqa: E402
from trainer.mock import services  # noqa: E402
from trainer.mock.models import Mock  # noqa: E402

MOCKS = 30
HX = {"HX-Request": "true"}


def summary(name, seconds, queries=None):
    values = sorted(seconds)
    p95 = values[min(len(values) - 1, int(0.95 * len(values)))]
    shown = f"{name:<52}{1000 * statistics.median(values):8.2f} ms  p95 {1000 * p95:7.2f} ms"
    shown += f"  (n={len(values)}"
    shown += f", {queries} queries)" if queries is not None else ")"
    print(shown)


def timed(call):
    # The query log keeps the last 9,000 queries; a full log would make every count zero.
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        response = call()
        elapsed = time.perf_counter() - started
    assert response.status_code in (200, 302, 409), response.status_code
    return elapsed, len(queries), response


def in_process():
    user = get_user_model().objects.create_user("bench", password="bench pass phrase 1")
    client = Client()
    client.force_login(user)
    rows = {
        name: ([], None)
        for name in [
            "start a standard mock (5 problems)",
            "problem page, first visit",
            "problem page, reload",
            "record one answer (htmx)",
            "parse error (htmx, nothing recorded)",
            "second answer to a part (refused)",
            "finish: grade 5 problems + 5 reviews",
            "report",
            "worked solution of one problem",
            "mock index (with history)",
            "dashboard (with mocks listed)",
        ]
    }

    def add(name, elapsed, queries):
        times, _ = rows[name]
        rows[name] = (times + [elapsed], queries)

    for _ in range(MOCKS):
        elapsed, queries, response = timed(
            lambda: client.post("/mock/start/", {"format": "standard"})
        )
        add("start a standard mock (5 problems)", elapsed, queries)
        mock = Mock.objects.get(pk=int(re.search(r"/mock/(\d+)/", response["Location"])[1]))
        items = [(item, attempt_variant(item.attempt)) for item in mock.items.all()]
        for item, variant in items:
            url = f"/mock/{mock.pk}/problems/{item.position}/"
            add("problem page, first visit", *timed(lambda url=url: client.get(url))[:2])
            add("problem page, reload", *timed(lambda url=url: client.get(url))[:2])
            for part in variant.parts:
                answer_url = f"{url}parts/{part.key}/"
                add(
                    "parse error (htmx, nothing recorded)",
                    *timed(
                        lambda u=answer_url: client.post(u, {"answer": "12 parsecs"}, headers=HX)
                    )[:2],
                )
                text = variant.key_text(part.key)
                add(
                    "record one answer (htmx)",
                    *timed(lambda u=answer_url, t=text: client.post(u, {"answer": t}, headers=HX))[
                        :2
                    ],
                )
                add(
                    "second answer to a part (refused)",
                    *timed(lambda u=answer_url: client.post(u, {"answer": "1"}, headers=HX))[:2],
                )
        add(
            "finish: grade 5 problems + 5 reviews",
            *timed(lambda mock=mock: client.post(f"/mock/{mock.pk}/finish/"))[:2],
        )
        add("report", *timed(lambda mock=mock: client.get(f"/mock/{mock.pk}/report/"))[:2])
        add(
            "worked solution of one problem",
            *timed(lambda mock=mock: client.get(f"/mock/{mock.pk}/report/1/"))[:2],
        )
        add("mock index (with history)", *timed(lambda: client.get("/mock/"))[:2])
        add("dashboard (with mocks listed)", *timed(lambda: client.get("/"))[:2])
    for name, (times, queries) in rows.items():
        summary(name, times, queries)


def expired_sweep():
    users = [get_user_model().objects.create_user(f"sweep{n}") for n in range(50)]
    started = timezone.now() - timezone.timedelta(hours=2)
    for user in users:
        services.start(user, "standard", started)
    begin = time.perf_counter()
    ended = services.end_expired(timezone.now())
    elapsed = time.perf_counter() - begin
    name = "end_expired: 50 expired standard mocks"
    print(f"{name:<52}{1000 * elapsed:8.2f} ms  ({ended} ended)")


def session_of(user, server_url):
    client = Client()
    client.force_login(user)
    mock = services.start(user, "standard", timezone.now())[0]
    page = client.get(f"/mock/{mock.pk}/problems/1/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    headers = {
        "Cookie": f"sessionid={client.cookies['sessionid'].value}; "
        f"csrftoken={client.cookies['csrftoken'].value}",
        "Referer": server_url,
        "HX-Request": "true",
    }
    return mock, token, headers


def post(server_url, path, token, headers, text):
    body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, "answer": text}).encode()
    request = urllib.request.Request(server_url + path, data=body, headers=headers)
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        status = response.status
    return status, time.perf_counter() - started


def concurrent():
    server = LiveServerThread("localhost", _StaticFilesHandler, port=0)
    server.daemon = True
    server.start()
    server.is_ready.wait()
    if server.error:
        raise server.error
    url = f"http://localhost:{server.port}"
    try:
        racer = get_user_model().objects.create_user("racer")
        mock, token, headers = session_of(racer, url)
        item = mock.items.get(position=1)
        first = attempt_variant(item.attempt).parts[0]
        part = first.key
        path = f"/mock/{mock.pk}/problems/1/parts/{part}/"
        results = []
        # Eight different readable answers (bare numbers are read in the part's unit).
        texts = [f"{first.answer * (1 + n / 10):.6g}" for n in range(8)]
        threads = [
            threading.Thread(
                target=lambda text=text: results.append(post(url, path, token, headers, text))
            )
            for text in texts
        ]
        begin = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - begin
        recorded = PartAnswer.objects.filter(attempt=item.attempt, part_key=part).count()
        statuses = sorted({status for status, _ in results})
        print(
            f"{'8 concurrent answers to one part':<52}{1000 * wall:8.2f} ms  "
            f"(statuses {statuses}, {recorded} recorded)"
        )

        learners = [get_user_model().objects.create_user(f"load{n}") for n in range(16)]
        plans = []
        for learner in learners:
            mock, token, headers = session_of(learner, url)
            paths = [
                (f"/mock/{mock.pk}/problems/{item.position}/parts/{p.key}/", p.answer)
                for item in mock.items.all()
                for p in attempt_variant(item.attempt).parts
            ]
            plans.append((token, headers, paths))
        latencies, errors = [], []

        def learner_run(token, headers, paths):
            for path, value in paths:
                try:
                    status, elapsed = post(url, path, token, headers, f"{value:.6g}")
                    latencies.append(elapsed)
                    if status != 200:
                        errors.append(status)
                except Exception as error:  # noqa: BLE001 - counted and shown, not hidden
                    errors.append(repr(error))

        threads = [threading.Thread(target=learner_run, args=plan) for plan in plans]
        begin = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - begin
        total = sum(len(plan[2]) for plan in plans)
        summary("16 learners answering at once, per answer", latencies)
        print(
            f"{'16 learners answering at once, throughput':<52}{len(latencies) / wall:8.1f} /s"
            f"    ({total} answers in {wall:.2f} s, {len(errors)} errors)"
        )
    finally:
        server.terminate()


def main():
    setup_test_environment()
    call_command("migrate", verbosity=0)
    report = load_bank()
    print(f"mock interviews, real bank ({report.summary()}), SQLite in {DATA_DIR}")
    print(f"Python {sys.version.split()[0]}, Django {django.get_version()}")
    in_process()
    expired_sweep()
    concurrent()


if __name__ == "__main__":
    main()
