"""Thousands of hostile typed answers through the practice and mock answer endpoints: never a
server error, and an answer is recorded exactly when the engine can read it (a blank box counts
as no answer in practice); unreadable text records nothing and says why."""

import time

import pytest
from django.utils import timezone

from problems.engine import EngineError
from problems.engine.grading import read_answer
from problems.models import Attempt, PartAnswer
from problems.variants import attempt_variant
from tests.mock.helpers import answer_url, start
from tests.security.corpus import answer_corpus
from trainer.practice import services
from trainer.practice.models import Card, Review

pytestmark = pytest.mark.django_db

PRACTICE_INPUTS = 1200
MOCK_INPUTS = 800


@pytest.fixture(autouse=True)
def no_answer_limit(settings):
    settings.ANSWER_RATE_LIMIT = 10**9


def _readable(text, variant, part_key):
    """As the grader reads it: a number it can read, and not one right only read another way
    (a hint, which records nothing either)."""
    try:
        read_answer(variant, part_key, text)
    except EngineError:
        return False
    return True


def test_practice_answers_never_fail_and_record_only_readable_ones(client, loaded_bank, learner):
    services.introduce_all(learner, timezone.now())
    card = Card.objects.select_related("problem").get(user=learner)
    client.force_login(learner)
    attempt = services.open_attempt(card, timezone.now())
    parts = attempt_variant(attempt).parts
    recorded = parse_errors = 0
    slowest = 0.0
    for index, text in enumerate(answer_corpus(PRACTICE_INPUTS)):
        part = parts[index % len(parts)]
        typed = text.strip()[:200]
        # Most as htmx sends them (the card alone), every fourth as a plain form (the page).
        htmx = {"HTTP_HX_REQUEST": "true"} if index % 4 else {}
        # CPU time of this process: a hostile answer must not cost the server seconds, and
        # other processes on a busy machine must not make an honest one look slow.
        started = time.process_time()
        response = client.post(
            f"/practice/attempts/{attempt.pk}/answer/", {f"part-{part.key}": text}, **htmx
        )
        slowest = max(slowest, time.process_time() - started)
        assert response.status_code == 200, (text, response.status_code)
        html = response.content.decode()
        attempt.refresh_from_db()
        stored = list(PartAnswer.objects.filter(attempt=attempt).values_list("part_key", "text"))
        if typed and not _readable(typed, attempt_variant(attempt), part.key):
            parse_errors += 1
            assert "Nothing was recorded" in html, text
            assert attempt.submitted_at is None and not stored, text
            assert not Review.objects.filter(attempt=attempt).exists(), text
            continue
        recorded += 1
        assert attempt.submitted_at is not None, text
        assert dict(stored) == {p.key: (typed if p.key == part.key else "") for p in parts}
        assert Review.objects.filter(attempt=attempt).count() == 1, text
        attempt = Attempt.objects.create(
            user=learner, version=attempt.version, seed=attempt.seed + 1, started_at=timezone.now()
        )
    assert recorded > 50 and parse_errors > 600, (recorded, parse_errors)
    assert Review.objects.count() == recorded
    assert slowest < 2.0, f"the slowest answer took {slowest:.2f} s of CPU"


def test_mock_answers_never_fail_and_record_only_readable_ones(client, loaded_bank, learner):
    client.force_login(learner)
    mock = start(client, "drill", page=2)
    item = mock.items.select_related("attempt").get()
    variant = attempt_variant(item.attempt)
    parts = variant.parts
    recorded = refused = 0
    for index, text in enumerate(answer_corpus(MOCK_INPUTS, seed=7)):
        part = parts[index % len(parts)]
        typed = text.strip()[:200]
        htmx = {"HTTP_HX_REQUEST": "true"} if index % 4 else {}
        response = client.post(answer_url(mock, 1, part.key), {"answer": text}, **htmx)
        rows = list(PartAnswer.objects.filter(attempt=item.attempt).values_list("text", flat=True))
        if typed and _readable(typed, variant, part.key):
            recorded += 1
            assert response.status_code == (200 if htmx else 302), text
            assert rows == [typed], text
            if htmx:
                assert "Recorded: " in response.content.decode()
            # Reopen the box for the next input (each box is recorded once).
            PartAnswer.objects.filter(attempt=item.attempt).delete()
            continue
        refused += 1
        assert response.status_code == 200, (text, response.status_code)
        assert rows == [], text
        html = response.content.decode()
        assert "Nothing was recorded" in html or "Type an answer first." in html, text
    assert recorded > 50 and refused > 400, (recorded, refused)
    mock.refresh_from_db()
    assert mock.ended_at is None


def test_bytes_that_are_not_utf8_and_oversized_requests_are_refused_cleanly(
    client, loaded_bank, learner
):
    services.introduce_all(learner, timezone.now())
    card = Card.objects.select_related("problem").get(user=learner)
    client.force_login(learner)
    attempt = services.open_attempt(card, timezone.now())
    url = f"/practice/attempts/{attempt.pk}/answer/"
    form = "application/x-www-form-urlencoded"

    not_utf8 = client.post(url, b"part-kv_per_token=%FF%FE%C0%AF320", content_type=form)
    assert not_utf8.status_code == 200
    assert "Nothing was recorded" in not_utf8.content.decode()

    too_big = client.post(url, b"part-kv_per_token=" + b"9" * 3_000_000, content_type=form)
    too_many = client.post(url, "&".join(f"part-{n}=1" for n in range(1200)), content_type=form)
    assert too_big.status_code == too_many.status_code == 400

    attempt.refresh_from_db()
    assert attempt.submitted_at is None and not PartAnswer.objects.exists()
