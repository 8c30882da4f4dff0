"""SM-2 against worked sequences derived by hand from the published rules (Wozniak 1990).

Rules used in the derivations: EF change per q = +0.10, 0, -0.14, -0.32, -0.54, -0.80 for
q = 5..0, floor 1.30; I(1) = 1, I(2) = 6, I(n) = ceil(I(n-1) * EF'), EF' being the EF after this
review's change; q < 3 sets n = 1 and I = 1; only the first review of a day is a repetition.
"""

import json
import math
from datetime import UTC, date, datetime, timedelta, timezone
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.srs.interface import ReviewRecord
from trainer.srs.sm2 import (
    MAXIMUM_INTERVAL_DAYS,
    Sm2Scheduler,
    Sm2State,
    easiness_change_hundredths,
    interval_days,
    sm2_recall,
    sm2_step,
)

START = date(2025, 1, 6)

# Each row: qualities of successive reviews, each on the day the previous one made the card due,
# and the (n, EF in hundredths, interval) expected after each review.
WORKED_SEQUENCES = {
    # The float-drift trap: EF 2.5 -> 2.6 -> 2.7 -> 2.8 -> 2.9 (q = 5 four times) then 2.9 (q = 4).
    # I: 1; 6; ceil(6 * 2.8 = 16.8) = 17; ceil(17 * 2.9 = 49.3) = 50; ceil(50 * 2.9 = 145) = 145.
    # In floats EF is 2.9000000000000004 and the last interval would be ceil(145.00000000000003).
    "perfect then good, exact 145": (
        [5, 5, 5, 5, 4],
        [(1, 260, 1), (2, 270, 6), (3, 280, 17), (4, 290, 50), (5, 290, 145)],
    ),
    # EF after this review's update sets I(3): q = 4, 4 keep 2.50; q = 5 makes it 2.60 and
    # I(3) = ceil(6 * 2.6 = 15.6) = 16. With the EF before the update it would be ceil(15.0) = 15.
    "third interval uses the updated EF": (
        [4, 4, 5],
        [(1, 250, 1), (2, 250, 6), (3, 260, 16)],
    ),
    # Difficult but correct: EF 2.50 - 0.14 = 2.36, 2.22, 2.08, 1.94.
    # I: 1; 6; ceil(6 * 2.08 = 12.48) = 13; ceil(13 * 1.94 = 25.22) = 26.
    "always q = 3": (
        [3, 3, 3, 3],
        [(1, 236, 1), (2, 222, 6), (3, 208, 13), (4, 194, 26)],
    ),
    # A lapse: q = 4, 4, 4 gives I = 1, 6, ceil(6 * 2.5) = 15. Then q = 2: EF 2.50 - 0.32 = 2.18
    # (changed on a lapse), n restarts at 1, I(1) = 1. Then q = 4: n = 2, I(2) = 6; q = 4: n = 3,
    # I = ceil(6 * 2.18 = 13.08) = 14.
    "lapse lowers EF and restarts at 1, 6": (
        [4, 4, 4, 2, 4, 4],
        [(1, 250, 1), (2, 250, 6), (3, 250, 15), (1, 218, 1), (2, 218, 6), (3, 218, 14)],
    ),
    # Blackouts: EF 2.50 - 0.80 = 1.70, then 0.90 floored to 1.30, stays 1.30; then q = 5 adds 0.10.
    # Every blackout restarts with I(1) = 1; the q = 5 after it is repetition 2, I(2) = 6.
    "EF floor at 1.30": (
        [0, 0, 0, 5],
        [(1, 170, 1), (1, 130, 1), (1, 130, 1), (2, 140, 6)],
    ),
    # Near the floor: q = 1 takes 2.50 to 1.96, q = 3 to 1.82, 1.68, 1.54, 1.40, then 1.30 (floor,
    # 1.26 would be below it). I: 1 (lapse), 6, ceil(6 * 1.68 = 10.08) = 11,
    # ceil(11 * 1.54 = 16.94) = 17, ceil(17 * 1.40 = 23.8) = 24, ceil(24 * 1.30 = 31.2) = 32.
    "hard card reaches the floor": (
        [1, 3, 3, 3, 3, 3],
        [(1, 196, 1), (2, 182, 6), (3, 168, 11), (4, 154, 17), (5, 140, 24), (6, 130, 32)],
    ),
}


@pytest.mark.parametrize("name", WORKED_SEQUENCES)
def test_worked_sequence(name):
    qualities, expected = WORKED_SEQUENCES[name]
    state, day = Sm2State(), START
    for quality, (repetitions, easiness, interval) in zip(qualities, expected, strict=True):
        state = sm2_step(state, quality, day)
        assert (state.repetitions, state.easiness_hundredths, state.interval_days) == (
            repetitions,
            easiness,
            interval,
        )
        assert state.last_review_day == day
        day = state.due_day


def test_float_arithmetic_would_drift_but_ours_does_not():
    float_easiness = 2.5 + 0.1 + 0.1 + 0.1 + 0.1
    assert math.ceil(50 * float_easiness) == 146  # the trap the exact arithmetic avoids
    assert interval_days(5, 50, 290) == 145


def test_easiness_changes_are_the_published_formula():
    for quality in range(6):
        published = Fraction(1, 10) - (5 - quality) * (
            Fraction(8, 100) + (5 - quality) * Fraction(2, 100)
        )
        assert easiness_change_hundredths(quality) == published * 100


@given(
    repetitions=st.integers(3, 50),
    previous=st.integers(1, 100_000),
    easiness=st.integers(130, 600),
)
def test_interval_is_exact_ceiling(repetitions, previous, easiness):
    assert interval_days(repetitions, previous, easiness) == min(
        math.ceil(Fraction(previous) * Fraction(easiness, 100)), MAXIMUM_INTERVAL_DAYS
    )


@given(st.lists(st.integers(0, 5), min_size=1, max_size=40))
def test_easiness_never_below_floor_and_intervals_positive(qualities):
    state, day = Sm2State(), START
    for quality in qualities:
        state = sm2_step(state, quality, day)
        assert state.easiness_hundredths >= 130
        assert state.interval_days >= 1
        assert state.redrill == (quality < 4)
        day = state.due_day


def test_same_day_redrill_changes_nothing_but_the_flag():
    # First review of the day q = 3: EF 2.36, n = 1, I = 1, re-drill pending.
    first = sm2_step(Sm2State(), 3, START)
    assert (first.easiness_hundredths, first.repetitions, first.interval_days) == (236, 1, 1)
    assert first.redrill
    # Re-drill at q = 2, then q = 3: still pending, EF/n/I untouched (no -0.32 or -0.14).
    again = sm2_step(sm2_step(first, 2, START), 3, START)
    assert again == first
    # q = 4 ends the re-drill; the schedule is still the one set by the first review.
    settled = sm2_step(again, 4, START)
    assert settled == Sm2State(1, 236, 1, START, redrill=False)


def test_extra_practice_on_the_same_day_does_not_advance_the_schedule():
    first = sm2_step(Sm2State(), 5, START)
    assert sm2_step(first, 5, START) == first
    # A poor extra attempt the same day makes the card come back today, nothing else.
    assert sm2_step(first, 1, START) == Sm2State(1, 260, 1, START, redrill=True)


def test_review_before_last_review_day_is_refused():
    state = sm2_step(Sm2State(), 4, START)
    with pytest.raises(ValueError, match="before the last review"):
        sm2_step(state, 4, START - timedelta(days=1))


def test_late_review_grows_from_the_scheduled_interval():
    # n = 2, I = 6; reviewed 20 days late with q = 4: I(3) = ceil(6 * 2.5) = 15, not 26 * 2.5.
    state = sm2_step(sm2_step(Sm2State(), 4, START), 4, START + timedelta(days=1))
    late = sm2_step(state, 4, START + timedelta(days=27))
    assert late.interval_days == 15


def test_learner_timezone_decides_the_day():
    # 23:30 UTC on 6 Jan is 01:30 on 7 Jan at UTC+2: the learner's day is the 7th.
    east = Sm2Scheduler(timezone(timedelta(hours=2)))
    outcome = east.review(east.new_state(), 4, datetime(2025, 1, 6, 23, 30, tzinfo=UTC))
    assert outcome.state.last_review_day == date(2025, 1, 7)
    # Due from local midnight of the 8th, which is 22:00 UTC on the 7th.
    assert outcome.due == datetime(2025, 1, 7, 22, 0, tzinfo=UTC)
    utc = Sm2Scheduler(UTC)
    assert utc.review(utc.new_state(), 4, datetime(2025, 1, 6, 23, 30, tzinfo=UTC)).due == (
        datetime(2025, 1, 7, 0, 0, tzinfo=UTC)
    )


def test_outcome_of_a_redrill_lasts_until_the_learner_day_ends():
    west = Sm2Scheduler(timezone(timedelta(hours=-5)))
    outcome = west.review(west.new_state(), 2, datetime(2025, 1, 6, 15, 0, tzinfo=UTC))
    assert outcome.repeat_today
    assert outcome.redrill_until == datetime(2025, 1, 7, 5, 0, tzinfo=UTC)
    settled = west.review(outcome.state, 5, datetime(2025, 1, 6, 15, 20, tzinfo=UTC))
    assert not settled.repeat_today and settled.redrill_until is None
    assert settled.due == outcome.due


def test_naive_datetime_refused():
    scheduler = Sm2Scheduler()
    with pytest.raises(ValueError, match="timezone-aware"):
        scheduler.review(scheduler.new_state(), 4, datetime(2025, 1, 6, 12, 0))


def test_state_round_trips_through_json():
    state = sm2_step(sm2_step(Sm2State(), 2, START), 3, START + timedelta(days=1))
    data = json.loads(json.dumps(state.to_dict()))
    assert data == {
        "scheduler": "sm2",
        "repetitions": 2,
        "easiness_hundredths": 204,
        "interval_days": 6,
        "last_review_day": "2025-01-07",
        "redrill": True,
    }
    assert Sm2State.from_dict(data) == state


def test_inconsistent_state_refused():
    bad = Sm2State(1, 250, 1, START).to_dict() | {"easiness_hundredths": 129}
    with pytest.raises(ValueError, match="below 1.30"):
        Sm2State.from_dict(bad)
    with pytest.raises(ValueError, match="scheduler"):
        Sm2State.from_dict(Sm2State().to_dict() | {"scheduler": "fsrs"})


def test_replay_equals_reviewing_one_by_one():
    scheduler = Sm2Scheduler()
    moments = [
        datetime(2025, 1, 6, 9, tzinfo=UTC) + timedelta(days=d, minutes=m)
        for d, m in [(0, 0), (0, 5), (0, 9), (1, 0), (7, 0), (30, 0)]
    ]
    qualities = [1, 3, 4, 4, 5, 2]
    history = [ReviewRecord(q, m) for q, m in zip(qualities, moments, strict=True)]
    state = scheduler.new_state()
    for record in history:
        state = scheduler.review(state, record.quality, record.reviewed_at).state
    assert scheduler.replay(reversed(history)).state == state


def test_predicted_recall_follows_the_stated_curve():
    scheduler = Sm2Scheduler()
    state = Sm2State(3, 250, 15, START)
    assert scheduler.predicted_recall(Sm2State(), datetime(2025, 1, 7, tzinfo=UTC)) == 0.0
    assert scheduler.predicted_recall(state, datetime(2025, 1, 6, 18, tzinfo=UTC)) == 1.0
    at_due = datetime(2025, 1, 21, 12, tzinfo=UTC)  # 15 days later: the end of the interval
    assert scheduler.predicted_recall(state, at_due) == pytest.approx(0.9)
    # exp(-t / S) with S = I / ln(1 / 0.9): the same curve written the other way.
    stability = 15 / math.log(1 / 0.9)
    assert sm2_recall(6, 15) == pytest.approx(math.exp(-6 / stability))


def test_mastery_reports_interval_and_ease():
    scheduler = Sm2Scheduler()
    mastery = scheduler.mastery(Sm2State(3, 236, 14, START), datetime(2025, 1, 20, tzinfo=UTC))
    assert (mastery.interval_days, mastery.easiness) == (14, 2.36)
    assert mastery.recall == pytest.approx(0.9)
