"""Practice learns that a mock interview runs from a mark on the learner's profile, read with the
user on every request, so that a practice page asks the mocks nothing when none runs. The mark is
set by the mock's start and cleared by its end; a mock whose time is up is over at once."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from trainer.mock import services
from trainer.practice import services as practice
from trainer.practice.models import LearnerProfile

RUNNING = "A mock interview is running"


def _mark(user):
    return LearnerProfile.objects.get(user=user).mock_until


def _practice_page(client):
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/practice/")
    assert response.status_code == 200
    asked = [query["sql"] for query in queries.captured_queries if "mock_mock" in query["sql"]]
    return response.content.decode(), asked


def test_the_start_marks_the_profile_and_the_finish_clears_it(mocking, learner):
    practice.introduce_all(learner, timezone.now())
    mock, _ = services.start(learner, "drill", timezone.now(), page=2)
    assert _mark(learner) == mock.deadline + services.GRACE
    html, _ = _practice_page(mocking)
    assert RUNNING in html
    services.finish(learner, mock.pk, timezone.now())
    assert _mark(learner) is None
    html, asked = _practice_page(mocking)
    assert RUNNING not in html and not asked


def test_practice_asks_the_mocks_nothing_when_none_runs(mocking, learner):
    practice.introduce_all(learner, timezone.now())
    html, asked = _practice_page(mocking)
    assert RUNNING not in html and not asked


def test_a_mock_whose_time_is_up_lets_practice_go_on_before_it_is_ended(mocking, learner):
    practice.introduce_all(learner, timezone.now())
    long_ago = timezone.now() - timedelta(hours=5)
    mock, _ = services.start(learner, "drill", long_ago, page=2)
    assert mock.ended_at is None and _mark(learner) < timezone.now()
    html, asked = _practice_page(mocking)
    assert RUNNING not in html and not asked
    services.end_expired(timezone.now(), user=learner)
    mock.refresh_from_db()
    assert mock.ended_at == mock.deadline and _mark(learner) is None


def test_a_mock_gone_without_its_end_leaves_practice_open(mocking, learner):
    # The mark outlives its mock only if the mock is deleted (an account's data removed by
    # hand): practice then asks the mocks, finds none, and goes on.
    practice.introduce_all(learner, timezone.now())
    mock, _ = services.start(learner, "drill", timezone.now(), page=2)
    mock.delete()
    html, asked = _practice_page(mocking)
    assert RUNNING not in html and asked
