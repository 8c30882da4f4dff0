"""A session ended in one worker is ended in every worker at the next request: log-out, a
password change (on another device's session) and a deactivation. Against gunicorn with several
workers and no Redis, as the Dockerfile runs by default: a session kept in each worker's memory
would stay valid in the others."""

import os
import subprocess
import sys

import pytest

from tests.conftest import _database_url
from tests.faults.conftest import Visitor
from tests.security.server import MultiWorkerServer
from tests.servers import ROOT
from trainer.practice import services
from trainer.practice.models import LearnerProfile

pytestmark = pytest.mark.django_db(transaction=True)

WORKERS = 3
SPREAD = 15  # requests before the session ends, so that every worker has served it
LOGGED_IN = 'href="/accounts/password/"'


@pytest.fixture
def learner(learner):
    services.get_profile(learner)
    return learner


@pytest.fixture
def server(transactional_db, tmp_path):
    server = MultiWorkerServer(tmp_path / "gunicorn.log", workers=WORKERS)
    yield server
    server.stop()


def _with_cookie(server, session):
    """A visitor holding a copy of `session`'s cookies, as a thief or another tab would."""
    thief = Visitor(server)
    for cookie in session.cookies:
        thief.cookies.set_cookie(cookie)
    return thief


def _settings(visitor, scheduler):
    return visitor.post(
        "/practice/settings/",
        {
            "scheduler": scheduler,
            "timezone": "UTC",
            "daily_new_limit": 5,
            "daily_review_cap": 100,
            "queue_order": LearnerProfile._meta.get_field("queue_order").default,
        },
    )


def _still_in(visitor, learner):
    """(GETs still logged in, of 20; settings POSTs that changed the settings, of 12)."""
    pages = sum(LOGGED_IN in visitor.get("/help/")[1] for _ in range(20))
    accepted = 0
    for _ in range(12):
        before = LearnerProfile.objects.get(user=learner).scheduler
        _settings(visitor, "fsrs" if before == "sm2" else "sm2")
        accepted += LearnerProfile.objects.get(user=learner).scheduler != before
    return pages, accepted


def _spread(visitor, learner):
    """Requests over every worker, each of which then has served the session; the settings
    form works for it."""
    for _ in range(SPREAD):
        assert LOGGED_IN in visitor.get("/help/")[1]
    assert _still_in(visitor, learner) == (20, 12)


def test_a_logged_out_session_is_refused_by_every_worker(server, learner):
    session = Visitor(server).log_in("learner", "correct horse 1")
    _spread(session, learner)
    copy = _with_cookie(server, session)
    status, _, _ = session.post("/accounts/logout/")
    assert status == 302
    assert _still_in(copy, learner) == (0, 0)


def test_a_password_change_ends_the_other_sessions_in_every_worker(server, learner):
    phone = Visitor(server).log_in("learner", "correct horse 1")
    laptop = Visitor(server).log_in("learner", "correct horse 1")
    _spread(phone, learner)
    status, body, _ = laptop.post(
        "/accounts/password/",
        {
            "old_password": "correct horse 1",
            "new_password1": "another long phrase 8",
            "new_password2": "another long phrase 8",
        },
    )
    assert status == 302, body
    assert _still_in(phone, learner) == (0, 0)
    assert LOGGED_IN in laptop.get("/help/")[1]  # the session that changed it stays


def test_a_deactivated_account_is_refused_by_every_worker(server, learner):
    session = Visitor(server).log_in("learner", "correct horse 1")
    _spread(session, learner)
    learner.is_active = False
    learner.save(update_fields=["is_active"])
    assert _still_in(session, learner) == (0, 0)


def test_it_refuses_to_start_several_workers_on_sessions_in_each_worker_s_memory(tmp_path):
    """gunicorn.conf.py: the deployment that lets a session outlive its log-out does not start,
    and says why."""
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.security.cached_sessions_settings",
        "DEBUG": "0",
        "DATABASE_URL": _database_url(),
    }
    command = [sys.executable, "-m", "gunicorn", "trainer.wsgi", "--bind", "127.0.0.1:0"]
    result = subprocess.run(
        [*command, "--workers", str(WORKERS)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert f"refusing to start {WORKERS} workers" in result.stderr
    assert "in its own memory" in result.stderr
    one = MultiWorkerServer(
        tmp_path / "one.log", workers=1, settings="tests.security.cached_sessions_settings"
    )
    try:  # one worker has one memory: it starts
        assert Visitor(one).get("/healthz/")[0] == 200
    finally:
        one.stop()
