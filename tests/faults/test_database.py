"""The database briefly unavailable: a request that meets it gets the clear 503 page (never a
bare 500), a write that fails half-way leaves nothing behind, and the next request, once the
database answers again, works."""

import re

import psycopg
import pytest
from django.db import OperationalError, connection
from django.utils import timezone

from problems.models import Attempt, PartAnswer
from tests.faults.conftest import Visitor, attempt_id_on
from tests.practice.helpers import open_attempt_of, right_answers
from trainer.practice import services
from trainer.practice.models import Card, Review

pytestmark = pytest.mark.django_db(transaction=True)

UNAVAILABLE = "errors/database_unavailable.html"


@pytest.fixture
def practising(client, loaded_bank, learner):
    services.introduce_all(learner, timezone.now())
    client.force_login(learner)
    client.raise_request_exception = False  # a 500 must show as a 500, as a browser sees it
    return client


def _fail_on(pattern):
    """An execute wrapper that raises, as a lost server does, on SQL matching `pattern`."""

    def wrapper(execute, sql, params, many, context):
        if re.search(pattern, sql):
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)

    return wrapper


def _card_state():
    return list(Card.objects.values_list("pk", "state", "due_at", "reviews_count", "open_attempt"))


def _assert_unavailable_page(response):
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert UNAVAILABLE in [template.name for template in response.templates]
    assert "Nothing from this request was saved" in response.content.decode()


def test_a_write_that_fails_half_way_saves_nothing(practising):
    attempt = open_attempt_of(practising)
    cards = _card_state()
    # The attempt is marked submitted and its part answers inserted before the review's INSERT.
    with connection.execute_wrapper(_fail_on(r'INSERT INTO "practice_review"')):
        response = practising.post(
            f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt)
        )
    _assert_unavailable_page(response)
    attempt.refresh_from_db()
    assert attempt.submitted_at is None and attempt.score is None
    assert not PartAnswer.objects.exists() and not Review.objects.exists()
    assert _card_state() == cards

    # The database is back: the same answers go through, once.
    retried = practising.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    assert retried.status_code == 200 and "Worked solution" in retried.content.decode()
    assert Review.objects.filter(attempt=attempt).count() == 1
    assert PartAnswer.objects.filter(attempt=attempt).count() == len(right_answers(attempt))


def test_a_database_that_does_not_answer_gets_the_clear_page(practising):
    """Even the session and the user cannot be read: the page must not need them."""
    with connection.execute_wrapper(_fail_on(r".")):
        pages = [practising.get(path) for path in ("/practice/", "/", "/healthz/", "/mock/")]
        posted = practising.post("/practice/start/", {"what": "all"})
    for response in [*pages, posted]:
        _assert_unavailable_page(response)
    assert practising.get("/practice/").status_code == 200


def test_a_mock_answer_that_fails_half_way_saves_nothing(practising, learner):
    from tests.mock.helpers import answer, start

    mock = start(practising, "drill", page=2)
    item = mock.items.select_related("attempt").get()
    key = item.attempt.version.definition["parts"][0]["key"]
    # The part answer is inserted before the item's "answered at" times are updated.
    with connection.execute_wrapper(_fail_on(r'UPDATE "mock_mockitem"')):
        response = answer(practising, mock, 1, key, "320 KiB")
    _assert_unavailable_page(response)
    assert not PartAnswer.objects.filter(attempt=item.attempt).exists()
    item.refresh_from_db()
    assert item.first_answered_at is None
    assert answer(practising, mock, 1, key, "320 KiB").status_code == 302
    assert PartAnswer.objects.filter(attempt=item.attempt).count() == 1


@pytest.fixture
def on_postgres(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip(
            "this run uses SQLite; the connection-termination tests run in the PostgreSQL pass"
        )


def _terminate(*, only=None, sparing=None):
    """Terminate the server processes of the test database's connections: the one of pid
    `only`, or all but the one of pid `sparing`. Returns how many."""
    database = connection.settings_dict
    with psycopg.connect(
        host=database["HOST"],
        port=database["PORT"] or 5432,
        user=database["USER"],
        password=database["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
            "AND pid <> pg_backend_pid() AND (pid = %s OR (%s::int IS NULL AND pid <> %s))",
            [database["NAME"], only, only, sparing],
        ).fetchall()
    return len(rows)


@pytest.mark.postgres
def test_a_connection_killed_in_the_middle_of_a_submit_saves_nothing(on_postgres, practising):
    attempt = open_attempt_of(practising)
    cards = _card_state()
    mine = connection.cursor().connection.info.backend_pid

    def killed(execute, sql, params, many, context):
        if sql.startswith('INSERT INTO "practice_review"'):
            _terminate(only=mine)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(killed):
        response = practising.post(
            f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt)
        )
    _assert_unavailable_page(response)
    connection.close()  # what the next request's start does with a broken connection
    attempt.refresh_from_db()
    assert attempt.submitted_at is None
    assert not PartAnswer.objects.exists() and not Review.objects.exists()
    assert _card_state() == cards


@pytest.mark.postgres
@pytest.mark.redis
def test_the_next_request_recovers_after_the_connections_were_terminated(
    on_postgres, app_server, loaded_bank, learner
):
    """Between two requests PostgreSQL drops every connection of the app (a restart, a
    failover): gunicorn's worker keeps its connection between requests (CONN_MAX_AGE), checks
    it at the start of the next one (CONN_HEALTH_CHECKS), opens a new one and answers."""
    services.introduce_all(learner, timezone.now())
    visitor = Visitor(app_server).log_in("learner", "correct horse 1")
    status, body, _ = visitor.get("/practice/")
    assert status == 200
    attempt_id = attempt_id_on(body)

    mine = connection.cursor().connection.info.backend_pid  # the test's own, for its checks
    assert _terminate(sparing=mine) >= 1  # gunicorn's kept connection
    for path in ("/practice/", "/", "/healthz/"):
        status, body, _ = visitor.get(path)
        assert status == 200, f"{path} answered {status} after the connections were terminated"
    assert attempt_id_on(visitor.get("/practice/")[1]) == attempt_id
    assert Attempt.objects.filter(user=learner).count() == 1
