"""Limits that must hold across gunicorn's worker processes and under parallel requests, without
Redis: each worker has its own memory, so a count kept there gives each worker a fresh budget."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.utils import timezone

from tests.faults.conftest import Visitor, attempt_id_on
from tests.security.server import MultiWorkerServer
from trainer.practice import services

pytestmark = pytest.mark.django_db(transaction=True)

LOGIN_LIMIT = 5


@pytest.fixture
def server(transactional_db, tmp_path):
    server = MultiWorkerServer(
        tmp_path / "gunicorn.log",
        env={"LOGIN_FAILURE_LIMIT": str(LOGIN_LIMIT), "ANSWER_RATE_LIMIT": "5"},
    )
    yield server
    server.stop()


def test_parallel_log_ins_check_at_most_the_limit_of_passwords(server, django_user_model):
    """30 log-ins for one account at once, 29 wrong and 1 right, spread over 3 workers: at most
    the limit's worth get their password checked; the rest are refused."""
    hasher = PBKDF2PasswordHasher()  # production's: a check costs what it costs there
    django_user_model.objects.create(
        username="alice", password=hasher.encode("the right one 1", hasher.salt())
    )
    visitors = [Visitor(server) for _ in range(30)]
    for visitor in visitors:
        visitor.get("/accounts/login/")  # the CSRF cookie, before the burst
    passwords = ["wrong guess"] * 29 + ["the right one 1"]

    def log_in(pair):
        visitor, password = pair
        status, _, _ = visitor.post("/accounts/login/", {"username": "alice", "password": password})
        return status

    with ThreadPoolExecutor(30) as pool:
        statuses = list(pool.map(log_in, zip(visitors, passwords, strict=True)))
    checked = [status for status in statuses if status in (200, 302)]
    assert len(checked) <= LOGIN_LIMIT, statuses
    assert statuses.count(429) >= 30 - LOGIN_LIMIT, statuses


def test_the_answer_limit_is_one_budget_across_workers(server, loaded_bank, learner):
    services.introduce_all(learner, timezone.now())
    visitor = Visitor(server).log_in("learner", "correct horse 1")
    _, page, _ = visitor.get("/practice/")
    url = f"/practice/attempts/{attempt_id_on(page)}/answer/"

    def answer(_):
        status, _, _ = visitor.post(url, {"part-kv_total": "not a number"})
        return status

    with ThreadPoolExecutor(6) as pool:
        statuses = list(pool.map(answer, range(18)))
    # Unless the minute turned during the burst, exactly 5 are taken.
    assert statuses.count(200) in (5, 10), statuses
    assert statuses.count(429) == 18 - statuses.count(200), statuses
