"""Practice queue order, limits, and the next card's time, on a concrete morning."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from trainer.srs import QueueCard, build_queue, make_scheduler, queue_card
from trainer.srs.sm2 import Sm2State

NOW = datetime(2025, 3, 3, 14, 0, tzinfo=UTC)
TOMORROW = datetime(2025, 3, 4, 0, 0, tzinfo=UTC)
LIMITS = {"new_limit": 2, "new_done_today": 0, "review_cap": 10, "reviews_done_today": 0}


def card(key, hours_ago=None, **extra):
    due = None if hours_ago is None else NOW - timedelta(hours=hours_ago)
    return QueueCard(key, due, **extra)


def test_due_then_new_then_redrills():
    cards = [
        card("new-b", new_rank=2),
        card("due-1h", 1, predicted_recall=0.5),
        card("redrill", 30, redrill_until=TOMORROW),
        card("due-3d", 72, predicted_recall=0.8),
        card("new-a", new_rank=1),
        card("later", -5),
    ]
    queue = build_queue(cards, NOW, learner_tz=UTC, **LIMITS)
    assert queue.keys == ("due-3d", "due-1h", "new-a", "new-b", "redrill")
    assert queue.due_total == 2
    assert queue.next_at == NOW + timedelta(hours=5)


def test_lowest_recall_order():
    cards = [card("a", 72, predicted_recall=0.8), card("b", 1, predicted_recall=0.5)]
    queue = build_queue(cards, NOW, learner_tz=UTC, order="recall", **LIMITS)
    assert queue.due_keys == ("b", "a")
    with pytest.raises(ValueError, match="predicted_recall"):
        build_queue([card("c", 1)], NOW, learner_tz=UTC, order="recall", **LIMITS)


def test_limits_hold_cards_back_until_the_learner_day_ends():
    cards = [card(f"due-{i}", 10 - i) for i in range(5)] + [card(f"new-{i}") for i in range(3)]
    tokyo = timezone(timedelta(hours=9))  # 14:00 UTC is 23:00 in Tokyo: the day ends in 1 h
    queue = build_queue(
        cards,
        NOW,
        learner_tz=tokyo,
        new_limit=2,
        new_done_today=1,
        review_cap=5,
        reviews_done_today=2,
    )
    assert queue.due_keys == ("due-0", "due-1", "due-2")
    assert queue.new_keys == ("new-0",)
    assert queue.due_total == 5
    assert queue.next_at == NOW + timedelta(hours=1)


def test_expired_redrill_is_an_ordinary_card_again():
    expired = card("yesterday", -24, redrill_until=NOW - timedelta(hours=1))
    queue = build_queue([expired], NOW, learner_tz=UTC, **LIMITS)
    assert queue.keys == ()
    assert queue.next_at == NOW + timedelta(hours=24)


def test_nothing_due_and_nothing_coming():
    queue = build_queue([], NOW, learner_tz=UTC, **LIMITS)
    assert queue.keys == () and queue.next_at is None and queue.due_total == 0


def test_queue_card_from_a_stored_state_and_an_interview_override():
    scheduler = make_scheduler("sm2")
    state = Sm2State(2, 250, 6, date(2025, 3, 1))  # due 7 March
    plain = queue_card(7, scheduler, state, NOW)
    assert plain.due == datetime(2025, 3, 7, tzinfo=UTC)
    assert plain.predicted_recall == pytest.approx(0.9 ** (2 / 6))
    moved = queue_card(7, scheduler, state, NOW, due=datetime(2025, 3, 3, tzinfo=UTC))
    assert build_queue([moved], NOW, learner_tz=UTC, **LIMITS).due_keys == (7,)
    assert build_queue([plain], NOW, learner_tz=UTC, **LIMITS).keys == ()
