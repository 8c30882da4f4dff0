from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.mock.helpers import HX, answer, start, variants_of
from tests.practice.factories import add_history
from trainer.mock import services
from trainer.practice import services as practice


def _queries(call):
    with CaptureQueriesContext(connection) as queries:
        response = call()
    assert response.status_code in (200, 302), response.status_code
    return len(queries)


def _past_mocks(user, count):
    for _ in range(count):
        mock, _ = services.start(user, "standard", timezone.now())
        services.finish(user, mock.pk, timezone.now())


def _measure(client):
    mock = start(client)
    _, variant = variants_of(mock)[0]
    page = f"/mock/{mock.pk}/problems/1/"
    client.get(page)
    counts = {
        "problem page": _queries(lambda: client.get(page)),
        "answer": _queries(lambda: answer(client, mock, 1, "kv_per_token", "320 KiB", headers=HX)),
        "parse error": _queries(lambda: answer(client, mock, 1, "kv_total", "3 ms", headers=HX)),
        "index": _queries(lambda: client.get("/mock/")),
        "dashboard": _queries(lambda: client.get("/")),
    }
    client.post(f"/mock/{mock.pk}/finish/")
    counts["report"] = _queries(lambda: client.get(f"/mock/{mock.pk}/report/"))
    counts["solution"] = _queries(lambda: client.get(f"/mock/{mock.pk}/report/1/"))
    return counts


def test_it_runs_the_same_queries_with_a_short_and_a_long_history(mocking, learner):
    practice.introduce_all(learner, timezone.now())
    add_history(learner, 1)
    _past_mocks(learner, 1)
    short = _measure(mocking)
    add_history(learner, 999)
    _past_mocks(learner, 30)
    assert _measure(mocking) == short
