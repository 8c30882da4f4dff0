"""Sessions in the database, read through the cache (trainer/accounts/sessions.py)."""

import time

import pytest
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from trainer.accounts import sessions

LOGGED_IN = 'href="/accounts/password/"'  # the navigation's link to the learner's account
LOGGED_OUT = 'href="/accounts/login/"'


def _session_queries(queries):
    return [q["sql"] for q in queries.captured_queries if '"django_session"' in q["sql"]]


@pytest.fixture
def cache_down(monkeypatch):
    """Every call to the cache fails, as Redis does when it is stopped."""

    def refuse(*args, **kwargs):
        raise ConnectionError("cache unreachable")

    def stop():
        for name in ("get", "set", "add", "delete", "has_key", "incr", "delete_many"):
            monkeypatch.setattr(LocMemCache, name, refuse)

    return stop


def _log_in(client):
    response = client.post(
        "/accounts/login/", {"username": "learner", "password": "correct horse 1"}
    )
    assert response.status_code == 302
    return client.cookies["sessionid"].value


def test_it_reads_the_session_from_the_cache_without_a_query(client, learner):
    _log_in(client)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/help/").status_code == 200
    assert _session_queries(queries) == []


def test_it_reads_the_database_when_the_cache_lost_the_session(client, learner):
    _log_in(client)
    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        html = client.get("/help/").content.decode()
    assert LOGGED_IN in html
    assert len(_session_queries(queries)) == 1
    with CaptureQueriesContext(connection) as queries:
        client.get("/help/")
    assert _session_queries(queries) == []  # cached again


def test_it_serves_logs_in_and_out_while_the_cache_is_down(client, learner, cache_down, caplog):
    cache_down()
    _log_in(client)
    assert LOGGED_IN in client.get("/help/").content.decode()
    assert client.post("/accounts/logout/").status_code == 302
    assert "_auth_user_id" not in client.session
    assert "session cache unavailable" in caplog.text


def test_it_refuses_a_logged_out_cookie(client, learner):
    old = _log_in(client)
    client.post("/accounts/logout/")
    client.cookies["sessionid"] = old
    html = client.get("/help/").content.decode()
    assert LOGGED_OUT in html and LOGGED_IN not in html


def test_it_forgets_a_copy_it_could_not_delete_after_cache_seconds(client, learner, monkeypatch):
    """A log-out while the cache is unreachable leaves a cached copy behind (a Redis with
    persistence keeps it); that copy lets the old cookie in for CACHE_SECONDS at most."""
    old = _log_in(client)
    client.get("/help/")

    def refuse(*args, **kwargs):
        raise ConnectionError("cache unreachable")

    with monkeypatch.context() as outage:
        outage.setattr(LocMemCache, "delete", refuse)
        client.post("/accounts/logout/")
    later = time.time() + sessions.CACHE_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)
    client.cookies["sessionid"] = old
    html = client.get("/help/").content.decode()
    assert LOGGED_OUT in html and LOGGED_IN not in html
