"""Time the pure scheduling core (trainer/srs) at the sizes a request sees.

Run: .venv/bin/python bench/bench_srs.py
Prints the median of several repeats per operation. The page budget is 15 ms median per request
with 1,000 reviews of history (issue 6), so the scheduling share must stay well below that.
"""

import statistics
import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from trainer.srs import (  # noqa: E402
    InterviewCard,
    ReviewRecord,
    build_queue,
    forecast_reviews,
    make_scheduler,
    plan_interview,
    queue_card,
)

TODAY = date(2025, 6, 2)
NOW = datetime(2025, 6, 2, 14, 0, tzinfo=UTC)
QUALITY_CYCLE = (5, 4, 4, 3, 4, 2, 4, 5, 4, 1, 4, 4)


def median_time(function, repeats=7, number=1):
    """Median wall time of ``function()`` [s] over ``repeats`` runs of ``number`` calls each."""
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(number):
            function()
        runs.append((time.perf_counter() - start) / number)
    return statistics.median(runs)


def card_history(card_index, reviews):
    """A deterministic log: one review every 1–3 days, ending before TODAY."""
    moment = datetime(2025, 6, 1, 9, 0, tzinfo=UTC) - timedelta(days=2 * reviews)
    history = []
    for index in range(reviews):
        quality = QUALITY_CYCLE[(index + card_index) % len(QUALITY_CYCLE)]
        history.append(ReviewRecord(quality, moment))
        moment += timedelta(days=1 + (index + card_index) % 3, minutes=7)
    return history


def time_scheduler(name):
    """Median time [s] of each operation with scheduler ``name``."""
    scheduler = make_scheduler(name)
    long_log = card_history(0, 1000)
    per_card = [card_history(index, 40) for index in range(25)]
    states = [scheduler.replay(log).state for log in per_card]
    cards = {index: InterviewCard(states[index], tuple(per_card[index])) for index in range(25)}

    def queue():
        return build_queue(
            [queue_card(index, scheduler, state, NOW) for index, state in enumerate(states)],
            NOW,
            learner_tz=UTC,
            new_limit=10,
            new_done_today=0,
            review_cap=100,
            reviews_done_today=0,
        )

    def plan(days):
        return plan_interview(
            scheduler, cards, today=TODAY, interview_day=TODAY + timedelta(days=days)
        )

    return {
        "review (one call)": median_time(lambda: scheduler.review(states[0], 4, NOW), number=2000),
        "replay 1,000 reviews (one card)": median_time(
            lambda: scheduler.replay(long_log), number=5
        ),
        "replay 25 cards x 40 reviews": median_time(
            lambda: [scheduler.replay(log) for log in per_card], number=5
        ),
        "queue of 25 cards (queue_card + build_queue)": median_time(queue, number=200),
        "30-day forecast, 25 cards": median_time(
            lambda: forecast_reviews(scheduler, states, today=TODAY), number=20
        ),
        "interview plan, 25 cards, interview in 14 days": median_time(lambda: plan(14), number=10),
        "interview plan, 25 cards, interview in 90 days": median_time(lambda: plan(90), number=10),
    }


def main():
    for name in ("sm2", "fsrs"):
        for label, seconds in time_scheduler(name).items():
            print(f"{name:4}  {label:48} {seconds * 1e3:9.3f} ms")


if __name__ == "__main__":
    main()
