"""The log-in and answer rate limits over HTTP, both counted in the database (shared by every
worker: see test_multi_worker.py). The answer limit is one budget for practice and mock answers."""

import types
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY
from django.utils import timezone

from problems.models import PartAnswer
from tests.mock.helpers import answer_url, start
from tests.practice.helpers import open_attempt_of, right_answers
from trainer.accounts import lockout, ratelimit
from trainer.mock.models import Mock
from trainer.practice import services
from trainer.practice.models import Review

pytestmark = pytest.mark.django_db

MIDDAY = 1_800_000_000.0  # the start of a minute; a limit's window is the minute of the clock


@pytest.fixture
def clock(monkeypatch):
    """The limiter's clock, fixed (and moved by the test), so no test straddles a minute."""
    now = types.SimpleNamespace(value=MIDDAY)
    monkeypatch.setattr(ratelimit, "time", types.SimpleNamespace(time=lambda: now.value))
    return now


def _log_in(client, username, password):
    return client.post("/accounts/login/", {"username": username, "password": password})


def _window_passes(settings):
    """Move every counted failure back past the window (axes counts on the database's clock)."""
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - timedelta(seconds=settings.LOGIN_FAILURE_WINDOW + 1)
    )


def test_failed_log_ins_lock_the_account(client, learner, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        failed = _log_in(client, "learner", "not my password")
        assert failed.status_code == 200
        assert "Please enter a correct username and password" in failed.content.decode()
    locked = _log_in(client, "learner", "correct horse 1")
    assert locked.status_code == 429
    assert "Too many failed log-ins" in locked.content.decode()
    assert SESSION_KEY not in client.session
    # The lock lasts the window, then the right password works again.
    _window_passes(settings)
    assert _log_in(client, "learner", "correct horse 1").status_code == 302
    assert client.session[SESSION_KEY] == str(learner.pk)


def test_one_address_cannot_guess_many_accounts(client, django_user_model, settings):
    names = [f"user{number}" for number in range(5)]
    for name in names:
        django_user_model.objects.create_user(name, password="a long pass phrase 9")
    address_limit = settings.LOGIN_FAILURE_LIMIT * lockout.ADDRESS_LIMIT_FACTOR
    statuses = []
    for attempt in range(address_limit):
        name = names[attempt % len(names)]
        statuses.append(_log_in(client, name, "guess").status_code)
    assert statuses == [200] * address_limit
    assert _log_in(client, names[0], "a long pass phrase 9").status_code == 429


def test_answers_are_limited_across_practice_and_mock(
    client, loaded_bank, learner, settings, clock
):
    settings.ANSWER_RATE_LIMIT = 5
    services.introduce_all(learner, timezone.now())
    client.force_login(learner)
    attempt = open_attempt_of(client)
    url = f"/practice/attempts/{attempt.pk}/answer/"
    for _ in range(4):
        assert client.post(url, {"part-kv_total": "not a number"}).status_code == 200
    mock = start(client, "drill", page=2)
    item = mock.items.select_related("attempt").get()
    part = item.attempt.version.definition["parts"][0]["key"]
    # The fifth answer of the minute, in the mock: still allowed.
    assert client.post(answer_url(mock, 1, part), {"answer": "abc"}).status_code == 200

    # The sixth: refused on both sides, nothing recorded, the typed text kept in the mock's box.
    refused = client.post(answer_url(mock, 1, part), {"answer": "320"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 429
    page = refused.content.decode()
    assert "a minute&#x27;s worth of answers" in page and 'value="320"' in page
    plain = client.post(answer_url(mock, 1, part), {"answer": "320"})
    assert plain.status_code == 429 and "Answers close at" in plain.content.decode()
    Mock.objects.filter(pk=mock.pk).update(ended_at=timezone.now())  # practice waits for mocks
    practice = client.post(url, right_answers(attempt), HTTP_HX_REQUEST="true")
    assert practice.status_code == 429 and "Slow down" in practice.content.decode()
    assert not PartAnswer.objects.exists() and not Review.objects.exists()

    # A minute later the budget is back.
    clock.value += 60
    assert client.post(url, right_answers(attempt)).status_code == 200
    assert Review.objects.filter(attempt=attempt).count() == 1
