from django.db import connection
from django.test.utils import CaptureQueriesContext

from trainer.accounts.roles import make_instructor


def test_it_checks_the_role_once_per_session_not_per_page(client, learner):
    client.force_login(learner)
    client.get("/help/")
    with CaptureQueriesContext(connection) as queries:
        client.get("/help/")
    assert not [q for q in queries.captured_queries if "auth_permission" in q["sql"]]


def _permission_queries(queries):
    return [q for q in queries.captured_queries if "auth_permission" in q["sql"]]


def test_it_knows_the_role_from_the_log_in(client, instructor):
    response = client.post(
        "/accounts/login/", {"username": "instructor", "password": "correct horse 3"}
    )
    assert response.status_code == 302
    with CaptureQueriesContext(connection) as queries:
        html = client.get("/help/").content.decode()
    assert 'href="/author/"' in html
    assert not _permission_queries(queries)


def test_it_shows_a_new_instructor_the_link_after_the_check_expires(client, learner, monkeypatch):
    import time

    client.force_login(learner)
    assert 'href="/author/"' not in client.get("/help/").content.decode()
    make_instructor(learner)
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + 301)
    assert 'href="/author/"' in client.get("/help/").content.decode()


def test_it_never_lets_the_link_stand_in_for_the_permission(client, instructor):
    client.force_login(instructor)
    assert 'href="/author/"' in client.get("/help/").content.decode()
    instructor.groups.clear()
    # The link may lag for a few minutes; the page itself checks the permission every time.
    assert client.get("/author/").status_code == 403
