"""One FSRS for scheduling: py-fsrs (through FsrsScheduler) and fsrs-rs (which fits the
parameters) give the same stability, difficulty and intervals for the same 21 parameters on the
same review log, with the log read as training items read it (learner days)."""

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import fsrs_rs_python
import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.srs.fsrs_items import CardReview, card_history
from trainer.srs.fsrs_scheduler import FsrsScheduler, rating_for_quality

MAXIMUM_INTERVAL = 36500
"""Days; the cap both apply (Anki's default), FsrsScheduler's default."""
START = datetime(2025, 3, 1, 7, 0, tzinfo=UTC)
ZONES = [UTC, ZoneInfo("Europe/Berlin"), ZoneInfo("America/New_York"), timezone(timedelta(hours=9))]
# A few parameter sets: the defaults and fitted-looking ones (every value inside py-fsrs's bounds).
PARAMETER_SETS = [
    tuple(FsrsScheduler().engine.parameters),
    (
        0.4,
        1.8,
        3.1,
        12.0,
        6.9,
        0.6,
        2.2,
        0.02,
        1.5,
        0.2,
        0.9,
        1.6,
        0.08,
        0.3,
        1.8,
        0.5,
        2.3,
        0.4,
        0.2,
        0.1,
        0.3,
    ),
    (
        0.1,
        0.9,
        1.6,
        5.0,
        5.5,
        1.1,
        3.5,
        0.005,
        2.1,
        0.1,
        0.6,
        1.2,
        0.05,
        0.2,
        1.3,
        0.7,
        1.5,
        0.7,
        0.05,
        0.03,
        0.12,
    ),
]


def _compare(steps, zone, parameters, retention):
    """Review one card through FsrsScheduler; after each review, read its log as fsrs-rs reads
    a training item and compare the memory state and the next interval."""
    scheduler = FsrsScheduler(zone, parameters=parameters, desired_retention=retention)
    model = fsrs_rs_python.FSRS(list(parameters))
    outcome = scheduler.outcome(scheduler.new_state())
    moment = START
    log = []
    for quality, minutes_after_due in steps:
        if outcome.due is not None:
            moment = max(moment, outcome.due) + timedelta(minutes=minutes_after_due)
        outcome = scheduler.review(outcome.state, quality, moment)
        log.append(CardReview(0, moment, int(rating_for_quality(quality))))
        item = fsrs_rs_python.FSRSItem(
            [fsrs_rs_python.FSRSReview(r, d) for r, d in card_history(log, zone)]
        )
        theirs = model.memory_state(item)
        ours = outcome.state
        # fsrs-rs computes in 32-bit floats, whose rounding builds up over a long log (a
        # relative 1.1e-4 after 14 reviews was seen); a model that counted days differently
        # would be off by far more than a part in a thousand.
        assert ours.stability == pytest.approx(theirs.stability, rel=1e-3, abs=1e-6)
        assert ours.difficulty == pytest.approx(theirs.difficulty, rel=1e-3)
        if ours.phase == "review":
            # In 32 bits, a value within a hair of .5 may round either way.
            exact = model.next_interval(theirs.stability, retention, 3)
            if abs(abs(exact - round(exact)) - 0.5) > 1e-3:
                expected = min(MAXIMUM_INTERVAL, max(1, round(exact)))
                assert (ours.due - ours.last_review).days == expected


@given(
    st.lists(
        st.tuples(st.sampled_from([0, 1, 2, 3, 4, 5]), st.integers(0, 60 * 24 * 3)),
        min_size=1,
        max_size=14,
    ),
    st.sampled_from(ZONES),
    st.sampled_from(PARAMETER_SETS),
    st.sampled_from([0.7, 0.8, 0.9, 0.97]),
)
def test_py_fsrs_and_fsrs_rs_agree_on_any_log(steps, zone, parameters, retention):
    _compare(steps, zone, parameters, retention)


def test_a_review_the_next_morning_is_a_day_later_not_the_same_day():
    # 20:00, then 08:00 the next day: 12 hours apart, but one learner day, as Anki counts.
    zone = ZoneInfo("Europe/Berlin")
    scheduler = FsrsScheduler(zone)
    evening = datetime(2025, 3, 3, 19, 0, tzinfo=UTC)
    state = scheduler.review(scheduler.new_state(), 5, evening).state
    morning = scheduler.review(state, 4, evening + timedelta(hours=12)).state
    a_day = scheduler.review(state, 4, evening + timedelta(hours=24)).state
    assert morning.stability == a_day.stability
    assert scheduler.predicted_recall(state, evening + timedelta(hours=12)) < 1.0
