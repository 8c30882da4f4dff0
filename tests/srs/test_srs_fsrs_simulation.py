"""Simulated reviews from the FSRS forgetting curve: synthetic learners and the workload a
desired retention costs."""

import random
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from trainer.srs.fsrs_items import training_items
from trainer.srs.fsrs_scheduler import DEFAULT_PARAMETERS, FsrsScheduler
from trainer.srs.fsrs_simulation import (
    WorkloadCard,
    optimal_retention,
    retention_workloads,
    simulate_review_log,
    simulate_workload,
    workload_days,
)

TODAY = date(2025, 6, 2)
NOW = datetime(2025, 6, 2, 7, 0, tzinfo=UTC)
BERLIN = ZoneInfo("Europe/Berlin")


@pytest.mark.parametrize("retention", [0.75, 0.9])
def test_a_learner_who_forgets_as_the_scheduler_predicts_recalls_at_the_desired_retention(
    retention,
):
    # Every due card reviewed on its due day: recall there is the desired retention, by the
    # definition of the interval.
    log = simulate_review_log(
        DEFAULT_PARAMETERS,
        cards=300,
        days=240,
        first_day=TODAY,
        learner_tz=BERLIN,
        rng=random.Random(1),
        desired_retention=retention,
        skip_chance=0.0,
    )
    # Intervals of a few days: a one-day interval is often longer than the retention asks.
    later = [item for item in training_items(log, BERLIN) if item.reviews[-1][1] >= 3]
    recalled = sum(item.reviews[-1][0] > 1 for item in later) / len(later)
    assert len(later) > 800
    assert recalled == pytest.approx(retention, abs=0.03)


def test_the_log_is_reproducible_from_its_seed_and_in_time_order():
    def log(seed):
        return simulate_review_log(
            DEFAULT_PARAMETERS, cards=5, days=30, first_day=TODAY, learner_tz=UTC,
            rng=random.Random(seed),
        )  # fmt: skip

    assert log(3) == log(3) != log(4)
    instants = [review.reviewed_at for review in log(3)]
    assert instants == sorted(instants)
    assert {review.card_id for review in log(3)} == set(range(5))


def _reviewed_cards(count, minutes=10.0):
    """Cards first seen 5 to 14 days before TODAY and reviewed (Good) whenever due since."""
    scheduler = FsrsScheduler(BERLIN)
    cards = []
    for index in range(count):
        outcome = scheduler.review(scheduler.new_state(), 4, NOW - timedelta(days=5 + index % 10))
        while outcome.due < NOW:
            outcome = scheduler.review(outcome.state, 4, outcome.due + timedelta(hours=9))
        cards.append(WorkloadCard(outcome.state, minutes))
    return cards


def _workload(cards, retention, **options):
    first, last = workload_days(TODAY)
    return simulate_workload(
        cards,
        parameters=DEFAULT_PARAMETERS,
        desired_retention=retention,
        learner_tz=BERLIN,
        first_day=first,
        last_day=last,
        new_cards_per_day=options.pop("new_cards_per_day", 5),
        **options,
    )


def test_a_higher_retention_costs_more_reviews():
    cards = _reviewed_cards(25)
    low, high = _workload(cards, 0.75), _workload(cards, 0.95)
    assert len(low.days) == 30 and low.days[0] == TODAY
    assert sum(high.reviews_per_day) > 1.3 * sum(low.reviews_per_day)


def test_minutes_are_each_problems_expected_minutes_per_review():
    quick, slow = _reviewed_cards(10, minutes=4.0), _reviewed_cards(10, minutes=12.0)
    both = _workload(quick + slow, 0.9)
    assert _workload(quick, 0.9).minutes_per_day == tuple(
        4.0 * n for n in _workload(quick, 0.9).reviews_per_day
    )
    # The halves are alike but for their minutes: about 8 minutes a review on the whole.
    reviews, minutes = sum(both.reviews_per_day), sum(both.minutes_per_day)
    assert 4 * reviews < minutes < 12 * reviews
    assert minutes == pytest.approx(8 * reviews, rel=0.1)


def test_new_cards_come_in_at_the_daily_limit():
    scheduler = FsrsScheduler(BERLIN)
    new = [WorkloadCard(scheduler.new_state(), 5.0) for _ in range(12)]
    workload = _workload(new, 0.9, new_cards_per_day=5, runs=10)
    # Each new card's first day: its first review and the learning steps after it.
    assert workload.reviews_per_day[0] >= 5 and workload.reviews_per_day[1] >= 5
    assert workload.reviews_per_day[0] < 5 * 4
    assert sum(workload.reviews_per_day) > 12


def test_the_workload_stops_the_day_before_an_interview_within_30_days():
    assert workload_days(TODAY) == (TODAY, TODAY + timedelta(days=29))
    assert workload_days(TODAY, TODAY + timedelta(days=10)) == (TODAY, TODAY + timedelta(days=9))
    assert workload_days(TODAY, TODAY + timedelta(days=90)) == (TODAY, TODAY + timedelta(days=29))
    assert workload_days(TODAY, TODAY) == (TODAY, TODAY + timedelta(days=29))


def test_retention_outside_the_range_is_refused():
    for retention in (0.69, 0.98):
        with pytest.raises(ValueError, match="0.7 to 0.97"):
            _workload(_reviewed_cards(1), retention)


def test_the_workload_is_reproducible():
    cards = _reviewed_cards(8)
    assert _workload(cards, 0.85, seed=5) == _workload(cards, 0.85, seed=5)


def test_optimal_retention_is_in_range_and_the_chart_shows_both():
    cards = _reviewed_cards(20) + [WorkloadCard(FsrsScheduler().new_state(), 8.0)] * 5
    best = optimal_retention(
        cards, parameters=DEFAULT_PARAMETERS, learner_tz=BERLIN, now=NOW, new_cards_per_day=5
    )
    assert 0.7 <= best <= 0.97
    both = retention_workloads(
        cards,
        parameters=DEFAULT_PARAMETERS,
        desired_retention=0.95,
        learner_tz=BERLIN,
        now=NOW,
        interview_day=TODAY + timedelta(days=14),
        new_cards_per_day=5,
        runs=5,
    )
    assert (both.chosen.desired_retention, both.optimal.desired_retention) == (0.95, best)
    assert len(both.chosen.days) == len(both.optimal.days) == 14
    with pytest.raises(ValueError, match="at least one card"):
        optimal_retention(
            [], parameters=DEFAULT_PARAMETERS, learner_tz=BERLIN, now=NOW, new_cards_per_day=5
        )
