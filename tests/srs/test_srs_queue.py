"""Practice queue order, limits, and the next card's time, on a concrete morning."""

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.srs import QueueCard, build_queue, make_scheduler, queue_card
from trainer.srs.queue import REPEAT_PAUSE
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


def test_a_failed_card_comes_back_after_the_other_due_cards():
    failed = card("failed", 30, redrill_until=TOMORROW, last_reviewed_at=NOW)
    cards = [failed, card("due-a", 2), card("due-b", 1), card("new", new_rank=1)]
    queue = build_queue(cards, NOW, learner_tz=UTC, recent_keys=["failed"], **LIMITS)
    assert queue.keys == ("due-a", "due-b", "new", "failed")


def test_the_card_just_reviewed_waits_behind_any_other():
    # An FSRS learning step can make a card due again at once: it still lets another go first.
    cards = [card("again", 0, last_reviewed_at=NOW), card("other", 0.5)]
    queue = build_queue(cards, NOW, learner_tz=UTC, recent_keys=["again", "other"], **LIMITS)
    assert queue.keys == ("other", "again")


def test_redrills_come_back_the_one_reviewed_longest_ago_first():
    cards = [
        card("a", 30, redrill_until=TOMORROW, last_reviewed_at=NOW - timedelta(minutes=1)),
        card("b", 30, redrill_until=TOMORROW, last_reviewed_at=NOW - timedelta(minutes=9)),
        card("c", 30, redrill_until=TOMORROW, last_reviewed_at=NOW - timedelta(minutes=5)),
    ]
    queue = build_queue(cards, NOW, learner_tz=UTC, recent_keys=["a", "c"], **LIMITS)
    assert queue.keys == ("b", "c", "a")


def test_a_lone_failed_card_comes_back_once_then_after_a_pause():
    lone = card("lone", 30, redrill_until=TOMORROW, last_reviewed_at=NOW - timedelta(minutes=1))
    once = build_queue([lone], NOW, learner_tz=UTC, recent_keys=["lone"], **LIMITS)
    assert once.keys == ("lone",)  # the end of the session: it may come back at once
    twice = build_queue([lone], NOW, learner_tz=UTC, recent_keys=["lone", "lone"], **LIMITS)
    assert twice.keys == () and twice.redrill_keys == ()
    assert twice.next_at == NOW + REPEAT_PAUSE - timedelta(minutes=1)
    later = NOW + REPEAT_PAUSE
    after = build_queue([lone], later, learner_tz=UTC, recent_keys=["lone", "lone"], **LIMITS)
    assert after.keys == ("lone",)


def test_a_buried_card_waits_until_it_is_released():
    buried = card("buried", 2, held_until=TOMORROW)
    new_buried = card("new", new_rank=1, held_until=TOMORROW)
    queue = build_queue([buried, new_buried, card("due", 1)], NOW, learner_tz=UTC, **LIMITS)
    assert queue.keys == ("due",)
    assert queue.next_at == TOMORROW
    assert build_queue([buried], TOMORROW, learner_tz=UTC, **LIMITS).keys == ("buried",)


keys = st.sampled_from("abcdef")


@given(
    st.lists(
        st.tuples(keys, st.sampled_from(["due", "new", "redrill"]), st.integers(0, 120)),
        unique_by=lambda entry: entry[0],
        max_size=6,
    ),
    st.lists(keys, max_size=2),
)
def test_no_card_is_shown_three_times_in_a_row(entries, recent):
    cards = []
    for key, kind, minutes_ago in entries:
        reviewed = NOW - timedelta(minutes=minutes_ago) if kind != "new" else None
        if kind == "due":
            cards.append(card(key, minutes_ago / 60, last_reviewed_at=reviewed))
        elif kind == "new":
            cards.append(card(key, new_rank=minutes_ago))
        else:
            cards.append(card(key, 30, redrill_until=TOMORROW, last_reviewed_at=reviewed))
    limits = {**LIMITS, "new_limit": 6}
    queue = build_queue(cards, NOW, learner_tz=UTC, recent_keys=recent, **limits)
    if queue.keys and recent:
        if len(queue.keys) > 1:
            assert queue.keys[0] != recent[0]
        if len(recent) == 2 and recent[0] == recent[1]:
            shown = next(c for c in cards if c.key == queue.keys[0])
            assert queue.keys[0] != recent[0] or (
                shown.last_reviewed_at is not None and NOW >= shown.last_reviewed_at + REPEAT_PAUSE
            )
