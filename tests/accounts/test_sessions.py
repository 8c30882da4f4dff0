"""Sessions live in the database, the one store every process shares (settings.SESSION_ENGINE):
a session ended anywhere is ended everywhere, whatever the cache holds or whether it answers.
Across gunicorn's workers: tests/security/test_sessions_across_workers.py."""

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache

LOGGED_IN = 'href="/accounts/password/"'  # the navigation's link to the learner's account
LOGGED_OUT = 'href="/accounts/login/"'


@pytest.fixture
def cache_down(monkeypatch):
    """Every call to the cache fails, as Redis does when it is stopped."""

    def refuse(*args, **kwargs):
        raise ConnectionError("cache unreachable")

    for name in ("get", "set", "add", "delete", "has_key", "incr", "delete_many"):
        monkeypatch.setattr(LocMemCache, name, refuse)


def _log_in(client):
    response = client.post(
        "/accounts/login/", {"username": "learner", "password": "correct horse 1"}
    )
    assert response.status_code == 302
    return client.cookies["sessionid"].value


def test_it_keeps_the_session_in_the_database_not_the_cache(client, learner):
    key = _log_in(client)
    assert Session.objects.filter(session_key=key).exists()
    cache.clear()
    assert LOGGED_IN in client.get("/help/").content.decode()


def test_it_refuses_a_logged_out_cookie(client, learner):
    old = _log_in(client)
    client.post("/accounts/logout/")
    assert not Session.objects.filter(session_key=old).exists()
    client.cookies["sessionid"] = old
    html = client.get("/help/").content.decode()
    assert LOGGED_OUT in html and LOGGED_IN not in html


def test_it_logs_in_and_out_while_the_cache_is_down(client, learner, cache_down):
    old = _log_in(client)
    assert LOGGED_IN in client.get("/help/").content.decode()
    assert client.post("/accounts/logout/").status_code == 302
    client.cookies["sessionid"] = old
    assert LOGGED_IN not in client.get("/help/").content.decode()
