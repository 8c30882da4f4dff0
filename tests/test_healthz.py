from django.db import OperationalError


def test_it_answers_when_the_database_does(client, db):
    response = client.get("/healthz/")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_it_says_503_with_a_clear_page_when_the_database_is_down(client, db, monkeypatch):
    from django.db.backends.utils import CursorWrapper

    def unavailable(*args, **kwargs):
        raise OperationalError("connection refused")

    with monkeypatch.context() as patch:
        patch.setattr(CursorWrapper, "execute", unavailable)
        response = client.get("/healthz/")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert b"Nothing from this request was saved" in response.content
