"""Review logs as FSRS training items, as Anki builds them."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.srs.fsrs_items import CardReview, TrainingItem, card_history, training_items

BERLIN = ZoneInfo("Europe/Berlin")
EVENING = datetime(2025, 3, 3, 19, 0, tzinfo=UTC)  # 20:00 in Berlin


def test_gaps_are_learner_days_and_only_the_first_review_of_a_day_is_predicted():
    log = [
        CardReview("a", EVENING, 3),
        CardReview("a", EVENING + timedelta(minutes=10), 1),  # same evening: a re-drill
        CardReview("a", EVENING + timedelta(hours=12), 3),  # 08:00 next day: one day later
        CardReview("a", EVENING + timedelta(hours=12, minutes=5), 4),  # re-drill that morning
        CardReview("a", EVENING + timedelta(days=4), 2),
    ]
    items = training_items(reversed(log), BERLIN)
    assert [item.reviews for item in items] == [
        ((3, 0), (1, 0), (3, 1)),
        ((3, 0), (1, 0), (3, 1), (4, 0), (2, 3)),
    ]
    assert [item.reviewed_at for item in items] == [log[2].reviewed_at, log[4].reviewed_at]


def test_the_day_boundary_is_the_learners_midnight():
    # 23:30 and 00:30 in Berlin are an hour apart but on two learner days; in Tokyo, the same
    # instants (07:30 and 08:30) fall on one day.
    first = datetime(2025, 3, 3, 22, 30, tzinfo=UTC)
    log = [CardReview(1, first, 3), CardReview(1, first + timedelta(hours=1), 3)]
    assert card_history(log, BERLIN) == [(3, 0), (3, 1)]
    assert card_history(log, ZoneInfo("Asia/Tokyo")) == [(3, 0), (3, 0)]
    assert training_items(log, ZoneInfo("Asia/Tokyo")) == []


def test_excluded_cards_are_left_out_whole_and_items_are_in_time_order():
    log = [
        CardReview("kept", EVENING, 3),
        CardReview("suspended", EVENING, 3),
        CardReview("suspended", EVENING + timedelta(days=1), 3),
        CardReview("kept", EVENING + timedelta(days=3), 3),
        CardReview("other", EVENING - timedelta(days=5), 3),
        CardReview("other", EVENING + timedelta(days=2), 1),
    ]
    items = training_items(log, UTC, excluded_card_ids={"suspended"})
    assert [(item.card_id, item.reviews[-1]) for item in items] == [
        ("other", (1, 7)),
        ("kept", (3, 3)),
    ]


def test_ratings_and_instants_are_checked():
    with pytest.raises(ValueError, match="1..4"):
        CardReview(1, EVENING, 0)
    with pytest.raises(ValueError, match="1..4"):
        CardReview(1, EVENING, True)
    with pytest.raises(ValueError, match="timezone-aware"):
        CardReview(1, datetime(2025, 3, 3, 9), 3)


def test_an_item_becomes_an_fsrs_item_with_the_same_reviews():
    converted = TrainingItem(1, EVENING, ((3, 0), (1, 2), (4, 5))).to_fsrs()
    # fsrs-rs shows its reviews only in their repr.
    assert [repr(review) for review in converted.reviews] == [
        "FSRSReview { rating: 3, delta_t: 0 }",
        "FSRSReview { rating: 1, delta_t: 2 }",
        "FSRSReview { rating: 4, delta_t: 5 }",
    ]
    assert converted.long_term_review_cnt() == 2


@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 60 * 24 * 9), st.integers(1, 4)), max_size=30
    )
)
def test_one_item_per_card_day_after_the_first(entries):
    log = [
        CardReview(card, EVENING + timedelta(minutes=minutes), rating)
        for card, minutes, rating in entries
    ]
    items = training_items(log, BERLIN)
    days = {}
    for review in log:
        days.setdefault(review.card_id, set()).add(review.reviewed_at.astimezone(BERLIN).date())
    assert len(items) == sum(len(card_days) - 1 for card_days in days.values())
    for item in items:
        assert item.reviews[0][1] == 0 and item.reviews[-1][1] > 0
        assert (
            sum(gap for _, gap in item.reviews)
            == (item.reviewed_at.astimezone(BERLIN).date() - min(days[item.card_id])).days
        )
    assert [item.reviewed_at for item in items] == sorted(item.reviewed_at for item in items)
