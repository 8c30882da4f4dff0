"""FSRS through py-fsrs: mapping, determinism, days, and the stability definition."""

import json
from datetime import UTC, date, datetime, timedelta, timezone

import fsrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.srs.days import learner_day
from trainer.srs.fsrs_scheduler import FsrsScheduler, FsrsState, rating_for_quality
from trainer.srs.interface import ReviewRecord

MORNING = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


def test_quality_to_rating():
    assert [rating_for_quality(q) for q in range(6)] == [
        fsrs.Rating.Again,
        fsrs.Rating.Again,
        fsrs.Rating.Again,
        fsrs.Rating.Hard,
        fsrs.Rating.Good,
        fsrs.Rating.Easy,
    ]
    with pytest.raises(ValueError):
        rating_for_quality(6)


def test_matches_py_fsrs_without_fuzz():
    ours = FsrsScheduler()
    theirs = fsrs.Scheduler(enable_fuzzing=False)
    card = fsrs.Card(card_id=1, due=MORNING)
    state = ours.new_state()
    moment = MORNING
    for quality in [4, 4, 3, 5, 1, 4, 4]:
        card, _ = theirs.review_card(card, rating_for_quality(quality), moment)
        state = ours.review(state, quality, moment).state
        assert (state.stability, state.difficulty, state.due, state.step) == (
            card.stability,
            card.difficulty,
            card.due,
            card.step,
        )
        moment = max(card.due, moment) + timedelta(hours=2)


def test_new_card_good_comes_back_after_the_learning_step():
    scheduler = FsrsScheduler()
    outcome = scheduler.review(scheduler.new_state(), 4, MORNING)
    assert outcome.repeat_today
    assert outcome.due == MORNING + timedelta(minutes=10)  # py-fsrs default second step
    graduated = scheduler.review(outcome.state, 4, outcome.due)
    assert graduated.state.phase == "review" and not graduated.repeat_today


def test_day_scale_due_starts_at_learner_midnight():
    tokyo = timezone(timedelta(hours=9))
    scheduler = FsrsScheduler(tokyo)
    outcome = scheduler.review(scheduler.new_state(), 5, MORNING)  # Easy: straight to review
    exact_due = outcome.state.due
    assert exact_due - MORNING >= timedelta(days=1)
    local_day = learner_day(exact_due, tokyo)
    assert outcome.due == datetime.combine(local_day, datetime.min.time(), tzinfo=tokyo)
    assert outcome.due <= exact_due


def test_interval_is_the_stability_rounded_at_90_percent():
    # FSRS defines stability as the days until recall is 0.9, and schedules at 0.9 retention,
    # so a review-phase interval is the stability rounded to whole days.
    scheduler = FsrsScheduler()
    state = scheduler.new_state()
    moment = MORNING
    for quality in [5, 4, 4, 3]:
        state = scheduler.review(state, quality, moment).state
        assert (state.due - state.last_review).days == max(1, round(state.stability))
        moment = state.due
    retrievability = scheduler.predicted_recall(
        state, state.last_review + timedelta(days=round(state.stability))
    )
    assert retrievability == pytest.approx(0.9, abs=0.01)


def test_recall_of_new_card_is_zero_and_decreases_with_time():
    scheduler = FsrsScheduler()
    assert scheduler.predicted_recall(scheduler.new_state(), MORNING) == 0.0
    state = scheduler.review(scheduler.new_state(), 5, MORNING).state
    recalls = [scheduler.predicted_recall(state, MORNING + timedelta(days=d)) for d in range(20)]
    assert recalls[0] == 1.0
    assert all(later < earlier for earlier, later in zip(recalls, recalls[1:], strict=False))


def test_state_round_trips_through_json():
    scheduler = FsrsScheduler()
    state = scheduler.review(scheduler.new_state(), 3, MORNING).state
    data = json.loads(json.dumps(state.to_dict()))
    assert data["scheduler"] == "fsrs" and data["phase"] == "learning"
    assert FsrsState.from_dict(data) == state
    assert FsrsState.from_dict(json.loads(json.dumps(FsrsState().to_dict()))) == FsrsState()


def test_non_utc_aware_datetimes_are_accepted_and_naive_refused():
    scheduler = FsrsScheduler()
    paris_morning = MORNING.astimezone(timezone(timedelta(hours=1)))
    assert scheduler.review(scheduler.new_state(), 4, paris_morning).state.last_review == MORNING
    with pytest.raises(ValueError, match="timezone-aware"):
        scheduler.review(scheduler.new_state(), 4, datetime(2025, 3, 3, 9))


def test_review_before_the_last_one_is_refused():
    scheduler = FsrsScheduler()
    state = scheduler.review(scheduler.new_state(), 4, MORNING).state
    with pytest.raises(ValueError, match="before the last review"):
        scheduler.review(state, 4, MORNING - timedelta(minutes=1))


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(1, 60 * 24 * 20)), min_size=1, max_size=15)
)
def test_replay_is_deterministic_and_equals_one_by_one(steps):
    scheduler = FsrsScheduler()
    history, moment = [], MORNING
    for quality, minutes in steps:
        moment += timedelta(minutes=minutes)
        history.append(ReviewRecord(quality, moment))
    state = scheduler.new_state()
    for record in history:
        state = scheduler.review(state, record.quality, record.reviewed_at).state
    assert scheduler.replay(history).state == state
    assert scheduler.replay(list(reversed(history))).state == state


def test_mastery_reports_stability_and_difficulty():
    scheduler = FsrsScheduler()
    state = scheduler.review(scheduler.new_state(), 5, MORNING).state
    mastery = scheduler.mastery(state, MORNING)
    assert mastery.stability_days == state.stability
    assert mastery.difficulty == state.difficulty
    assert mastery.easiness is None
    assert mastery.interval_days == (learner_day(state.due, UTC) - date(2025, 3, 3)).days
