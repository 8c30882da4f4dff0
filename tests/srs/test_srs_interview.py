"""Interview-date mode and the forecast, on concrete calendars worked out by hand (SM-2), plus
invariants that hold for both schedulers on random calendars.

SM-2 facts used below (q = 4 keeps EF at 2.5): intervals 1, 6, ceil(6 * 2.5) = 15,
ceil(15 * 2.5) = 38, ceil(38 * 2.5) = 95. Recall model R(t) = 0.9 ** (t / I).
"""

from datetime import UTC, date, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.srs import (
    InterviewCard,
    ReviewRecord,
    forecast_reviews,
    make_scheduler,
    plan_interview,
    successful_streak,
)
from trainer.srs.interview import plan_card, scheduler_chain, squeeze_days
from trainer.srs.sm2 import Sm2State

TODAY = date(2025, 3, 3)  # a Monday
SM2 = make_scheduler("sm2")


def noon(day):
    return datetime.combine(day, datetime.min.time().replace(hour=12), tzinfo=UTC)


def logged(*reviews):
    """An SM-2 card from (quality, day) reviews, state replayed from the log."""
    history = tuple(ReviewRecord(quality, noon(day)) for quality, day in reviews)
    return InterviewCard(SM2.replay(history).state, history)


# Reviewed with q = 4 on 20, 21 and 27 February: n = 3, I = 15, due 14 March; a run of 3.
SETTLED = logged((4, date(2025, 2, 20)), (4, date(2025, 2, 21)), (4, date(2025, 2, 27)))


def test_new_card_with_room_keeps_the_scheduler_spacing():
    # Interview 13 March: reviews 3, 4 (+1), 10 March (+6); the next would be 25 March (+15).
    # Recall on the 13th: 0.9 ** (3 / 15) = 0.979 >= 0.95, so no refresher.
    plan = plan_card(
        SM2, InterviewCard(SM2.new_state()), today=TODAY, interview_day=date(2025, 3, 13)
    )
    assert plan.review_days == (date(2025, 3, 3), date(2025, 3, 4), date(2025, 3, 10))
    assert not plan.compressed and not plan.refresher and plan.shortfall == 0
    assert plan.successful_reviews_on_day == 3
    assert plan.recall_on_day == pytest.approx(0.9 ** (3 / 15))
    assert plan.state_on_day == Sm2State(3, 250, 15, date(2025, 3, 10))


def test_new_card_with_little_room_is_compressed_to_end_the_day_before():
    # Interview 8 March, last review day 7 March (4 days after today). The chain 0, 1, 7 does not
    # fit; scaled by 4/7 it is 0, 0.57, 4 -> days 0, 0 (pushed to 1), 4: 3, 4 and 7 March.
    plan = plan_card(
        SM2, InterviewCard(SM2.new_state()), today=TODAY, interview_day=date(2025, 3, 8)
    )
    assert plan.review_days == (date(2025, 3, 3), date(2025, 3, 4), date(2025, 3, 7))
    assert plan.compressed and plan.shortfall == 0
    # After the 7 March review I = 15 (SM-2 counts early reviews): 0.9 ** (1 / 15) on the day.
    assert plan.recall_on_day == pytest.approx(0.9 ** (1 / 15))


def test_compression_spreads_the_shortening_over_both_gaps():
    # SETTLED needs 2 more reviews for a run of 5; interview 16 April, last day 15 April.
    # Its chain from 14 March: 14 March, then +38 = 21 April, too late: compression.
    # First day s = 27 Feb + x: the gap since the last review shrinks to x / 15, the chain gap
    # (38 days) to (47 - x) / 38, as 15 April is 47 days after 27 Feb. x = 13: min(0.867, 0.895);
    # x = 14: min(0.933, 0.868) = 0.868, the best; x = 15: 0.842. So 13 March, then 15 April.
    plan = plan_card(
        SM2,
        SETTLED,
        today=TODAY,
        interview_day=date(2025, 4, 16),
        minimum_successful_reviews=5,
    )
    assert plan.successful_reviews == 3
    assert plan.review_days == (date(2025, 3, 13), date(2025, 4, 15))
    assert plan.compressed and plan.successful_reviews_on_day == 5
    # 13 March: n = 4, I = 38; 15 April: n = 5, I = 95; one day later on the 16th.
    assert plan.recall_on_day == pytest.approx(0.9 ** (1 / 95))


def test_refresher_the_day_before_when_recall_would_be_too_low():
    # SETTLED has its run of 3. Interview 10 March: no review falls due before (14 March), and
    # recall on the 10th would be 0.9 ** (11 / 15) = 0.926 < 0.95: one review on 9 March.
    plan = plan_card(SM2, SETTLED, today=TODAY, interview_day=date(2025, 3, 10))
    assert plan.review_days == (date(2025, 3, 9),)
    assert plan.refresher and not plan.compressed
    assert plan.recall_on_day == pytest.approx(0.9 ** (1 / 38))


def test_no_review_when_recall_on_the_day_is_already_high():
    # Interview 5 March: 0.9 ** (6 / 15) = 0.959 >= 0.95, and the run of 3 is there.
    plan = plan_card(SM2, SETTLED, today=TODAY, interview_day=date(2025, 3, 5))
    assert plan.review_days == () and plan.next_review is None
    assert plan.recall_on_day == pytest.approx(0.9 ** (6 / 15))
    stricter = plan_card(
        SM2, SETTLED, today=TODAY, interview_day=date(2025, 3, 5), target_recall=0.96
    )
    assert stricter.review_days == (date(2025, 3, 4),)


def test_too_few_days_means_one_a_day_and_a_shortfall():
    # Interview tomorrow: only today is left, three reviews are needed.
    plan = plan_card(
        SM2, InterviewCard(SM2.new_state()), today=TODAY, interview_day=date(2025, 3, 4)
    )
    assert plan.review_days == (TODAY,)
    assert plan.shortfall == 2 and plan.successful_reviews_on_day == 1


def test_interview_today_plans_nothing():
    plan = plan_card(SM2, SETTLED, today=TODAY, interview_day=TODAY)
    assert plan.review_days == () and plan.shortfall == 0
    fresh = plan_card(SM2, InterviewCard(SM2.new_state()), today=TODAY, interview_day=TODAY)
    assert fresh.shortfall == 3 and fresh.recall_on_day == 0.0


def test_a_card_reviewed_today_is_planned_from_tomorrow():
    # Reviewed today (q = 4, first review): n = 1, I = 1, due tomorrow. Interview 6 March.
    # Run 1, needs 2 more: chain 4 March, then +6 = 10 March too late -> compress into 4..5 March.
    card = logged((4, TODAY))
    plan = plan_card(SM2, card, today=TODAY, interview_day=date(2025, 3, 6))
    assert plan.review_days == (date(2025, 3, 4), date(2025, 3, 5))
    assert plan.compressed


def test_a_lapse_restarts_the_count():
    card = logged((4, date(2025, 2, 20)), (4, date(2025, 2, 21)), (1, date(2025, 2, 27)))
    assert successful_streak(card.history, UTC) == 0
    assert successful_streak(SETTLED.history, UTC) == 3
    # Re-drills later on the lapse day do not count: only a day's first review does.
    redrilled = card.history + (ReviewRecord(5, noon(date(2025, 2, 27)) + timedelta(hours=1)),)
    assert successful_streak(redrilled, UTC) == 0


def test_plan_interview_plans_every_card():
    plans = plan_interview(
        SM2,
        {"kv-cache": SETTLED, "batching": InterviewCard(SM2.new_state())},
        today=TODAY,
        interview_day=date(2025, 3, 10),
    )
    assert plans["kv-cache"].review_days == (date(2025, 3, 9),)
    assert plans["batching"].review_days == (date(2025, 3, 3), date(2025, 3, 4), date(2025, 3, 9))
    with pytest.raises(ValueError):
        plan_interview(SM2, {}, today=TODAY, interview_day=TODAY, target_recall=2)


def test_squeeze_days_keeps_order_and_distinct_days():
    assert squeeze_days([0, 1, 7], TODAY, TODAY + timedelta(days=4)) == [
        TODAY,
        TODAY + timedelta(days=1),
        TODAY + timedelta(days=4),
    ]
    assert squeeze_days([0, 1, 7], TODAY, TODAY + timedelta(days=10)) == [
        TODAY,
        TODAY + timedelta(days=1),
        TODAY + timedelta(days=7),
    ]
    assert squeeze_days([0, 6, 21, 59], TODAY, TODAY + timedelta(days=2)) == [
        TODAY,
        TODAY + timedelta(days=1),
        TODAY + timedelta(days=2),
    ]


def test_forecast_counts_each_due_day_for_thirty_days():
    # A: last 1 March, I = 1 -> overdue, counted today (3rd); then I = 6 -> 9th; 15 -> 24th;
    #    38 -> 1 May, outside the window (3 March .. 1 April).
    # B: last 1 March, I = 15 -> 16th; then 38 -> 23 April, outside.
    # C: failed today (EF 2.36), re-drill pending -> counted today; due 4th; then I = 6 -> 10th;
    #    ceil(6 * 2.36 = 14.16) = 15 -> 25th; ceil(15 * 2.36 = 35.4) = 36 -> outside.
    # D: new, not counted.
    states = [
        Sm2State(1, 250, 1, date(2025, 3, 1)),
        Sm2State(3, 250, 15, date(2025, 3, 1)),
        Sm2State(1, 236, 1, TODAY, redrill=True),
        Sm2State(),
    ]
    forecast = forecast_reviews(SM2, states, today=TODAY)
    assert list(forecast) == [TODAY + timedelta(days=i) for i in range(30)]
    nonzero = {day.day: count for day, count in forecast.items() if count}
    assert nonzero == {3: 2, 4: 1, 9: 1, 10: 1, 16: 1, 24: 1, 25: 1}


def test_forecast_with_fsrs_follows_the_scheduler_chain_one_review_per_card_day():
    fsrs_scheduler = make_scheduler("fsrs")
    # Good, then Good at the 10-minute learning step: in review with a stability of days.
    graduated = fsrs_scheduler.replay(
        [ReviewRecord(4, noon(TODAY)), ReviewRecord(4, noon(TODAY) + timedelta(minutes=10))]
    )
    forecast = forecast_reviews(fsrs_scheduler, [graduated.state], today=TODAY)
    chain, _ = scheduler_chain(
        fsrs_scheduler, graduated, graduated.due.date(), last_day=TODAY + timedelta(days=29)
    )
    assert len(chain) >= 2
    assert [day for day, count in forecast.items() if count] == chain
    assert set(forecast.values()) == {0, 1}


calendars = st.tuples(
    st.sampled_from(["sm2", "fsrs"]),
    st.lists(st.tuples(st.integers(0, 5), st.integers(1, 9)), max_size=6),
    st.integers(0, 60),
    st.integers(0, 5),
)


@settings(max_examples=80, deadline=None)
@given(calendars)
def test_plan_invariants(calendar):
    name, reviews, days_to_interview, minimum = calendar
    scheduler = make_scheduler(name)
    day, history = date(2025, 2, 1), []
    for quality, gap in reviews:
        history.append(ReviewRecord(quality, noon(day)))
        day += timedelta(days=gap)
    today = max(day - timedelta(days=1), date(2025, 2, 1))
    card = InterviewCard(scheduler.replay(history).state, tuple(history))
    interview = today + timedelta(days=days_to_interview)
    plan = plan_card(
        scheduler, card, today=today, interview_day=interview, minimum_successful_reviews=minimum
    )
    reviewed_today = any(record.reviewed_at.date() == today for record in history)
    first_allowed = today + timedelta(days=1 if reviewed_today else 0)
    last_allowed = interview - timedelta(days=1)
    assert list(plan.review_days) == sorted(set(plan.review_days))
    assert all(first_allowed <= d <= last_allowed for d in plan.review_days)
    window = max(0, (last_allowed - first_allowed).days + 1)
    needed = max(0, minimum - plan.successful_reviews)
    if window >= needed:
        assert plan.shortfall == 0 and plan.successful_reviews_on_day >= minimum
    else:
        assert len(plan.review_days) == window and plan.shortfall == needed - window
    if window > 0:
        assert plan.recall_on_day >= 0.95 or plan.review_days[-1] == last_allowed
    if not plan.compressed and plan.review_days:
        natural = plan.review_days[:-1] if plan.refresher else plan.review_days
        start = scheduler.outcome(card.state).due
        start_day = first_allowed if start is None else max(first_allowed, start.date())
        chain, _ = scheduler_chain(
            scheduler, scheduler.outcome(card.state), start_day, last_day=last_allowed
        )
        assert list(natural) == chain
