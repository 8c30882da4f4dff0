"""FSRS fitting on generated review logs: how long fitting takes, how well it recovers known
parameters, and how many reviews a learner needs before personal parameters beat pooled ones.

Run: .venv/bin/python bench/fitting.py [--sizes 100000 1000000] [--skip-threshold]

Learners are simulated by trainer.srs.fsrs_simulation.simulate_review_log: they are scheduled
by the app's FSRS with the default parameters and remember as their own true parameters say.

1. Fitting time: logs of learners with 25 cards over a year, until the pooled log holds each
   size of reviews to predict; times of building the training items, of fit_parameters, and of
   judge_fit (what a nightly pooled run does after reading the log: two fits, two evaluations).
2. Oracle: one population sharing TRUE_PARAMETERS; every parameter fitted vs true vs default.
3. Personal vs pooled: learners whose true parameters scatter around the population's (each
   parameter times a log-normal factor, sigma LEARNER_SPREAD, kept in bounds). Pooled
   parameters are fitted on other learners; for each test learner and each history size N, a
   personal set is fitted on their first N reviews to predict, and both sets predict the next
   TEST_REVIEWS of that learner's reviews.
"""

import argparse
import math
import random
import statistics
import sys
import time
from datetime import UTC, date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import fsrs  # noqa: E402

from trainer.srs.fsrs_fitting import (  # noqa: E402
    evaluate_parameters,
    fit_parameters,
    judge_fit,
    split_by_time,
)
from trainer.srs.fsrs_items import sort_by_time, training_items  # noqa: E402
from trainer.srs.fsrs_scheduler import DEFAULT_PARAMETERS  # noqa: E402
from trainer.srs.fsrs_simulation import simulate_review_log  # noqa: E402

TRUE_PARAMETERS = (
    0.1, 0.6, 1.2, 4.0, 7.2, 0.5, 2.5, 0.01, 1.4, 0.25, 0.6, 1.8, 0.08, 0.35, 1.9, 0.5, 2.2,
    0.45, 0.12, 0.08, 0.25,
)  # fmt: skip
FIRST_DAY = date(2025, 1, 6)
LEARNER_SPREAD = 0.3
TEST_REVIEWS = 200
HISTORY_SIZES = (50, 100, 200, 400, 800, 1600)
LOWER = fsrs.scheduler.LOWER_BOUNDS_PARAMETERS
UPPER = fsrs.scheduler.UPPER_BOUNDS_PARAMETERS


def learner_items(parameters, seed, cards=25, days=365):
    """Training items of one simulated learner, and the size of their whole log [reviews]."""
    log = simulate_review_log(
        parameters, cards=cards, days=days, first_day=FIRST_DAY, learner_tz=UTC,
        rng=random.Random(seed),
    )  # fmt: skip
    return training_items(log, UTC), len(log)


def timed(function):
    start = time.perf_counter()
    result = function()
    return result, time.perf_counter() - start


def fitting_times(sizes):
    print("== fitting time (reviews to predict; 25 cards a learner, one year each) ==")
    items, log_reviews, seed = [], 0, 0
    start = time.perf_counter()
    while len(items) < max(sizes):
        more, count = learner_items(TRUE_PARAMETERS, seed)
        items += more
        log_reviews += count
        seed += 1
    print(f"generated {len(items):,} items from {log_reviews:,} reviews of {seed:,} learners "
          f"in {time.perf_counter() - start:.0f} s")  # fmt: skip
    items = sort_by_time(items)
    for size in sizes:
        chosen = items[:size]
        _, fit_time = timed(lambda chosen=chosen: fit_parameters(chosen))
        fit, judge_time = timed(lambda chosen=chosen: judge_fit(chosen))
        print(f"{size:>9,} reviews: fit_parameters {fit_time:6.1f} s, "
              f"judge_fit {judge_time:6.1f} s "
              f"(replaces the defaults: {fit.replaces}; held-out log loss "
              f"{fit.current.log_loss:.4f} -> {fit.candidate.log_loss:.4f})")  # fmt: skip


def convert_time():
    """Time to turn a log into training items (the nightly run does it for every learner)."""
    logs = [
        simulate_review_log(TRUE_PARAMETERS, cards=25, days=365, first_day=FIRST_DAY,
                            learner_tz=UTC, rng=random.Random(seed))
        for seed in range(40)
    ]  # fmt: skip
    reviews = sum(len(log) for log in logs)
    items, seconds = timed(lambda: [training_items(log, UTC) for log in logs])
    count = sum(len(each) for each in items)
    print(f"training_items: {reviews:,} logged reviews -> {count:,} items in {seconds:.2f} s "
          f"({1e6 * seconds / reviews:.1f} us per logged review)")  # fmt: skip


def oracle():
    print("== oracle: 100 learners sharing known parameters, latest 30% held out ==")
    items = []
    for seed in range(100):
        items += learner_items(TRUE_PARAMETERS, seed)[0]
    earlier, held_out = split_by_time(sort_by_time(items), 0.3)
    fitted = fit_parameters(earlier)
    for name, parameters in (("defaults", DEFAULT_PARAMETERS), ("fitted", fitted),
                             ("true", TRUE_PARAMETERS)):  # fmt: skip
        figures = evaluate_parameters(parameters, held_out)
        print(f"{name:>8}: log loss {figures.log_loss:.4f}, RMSE(bins) {figures.rmse_bins:.4f}"
              f" on {figures.reviews:,} held-out reviews")  # fmt: skip
    print("parameter   true  default  fitted  |fitted-true| < |default-true|")
    for index, (true, default, fit) in enumerate(
        zip(TRUE_PARAMETERS, DEFAULT_PARAMETERS, fitted, strict=True)
    ):
        closer = abs(fit - true) < abs(default - true)
        print(f"w{index:<9} {true:6.3f} {default:8.3f} {fit:7.3f}  {closer}")


def scattered(rng):
    """A learner's true parameters: the population's, each times a log-normal factor."""
    return tuple(
        min(high, max(low, value * math.exp(rng.gauss(0, LEARNER_SPREAD))))
        for value, low, high in zip(TRUE_PARAMETERS, LOWER, UPPER, strict=True)
    )


def personal_vs_pooled(test_learners=30):
    print(f"== personal vs pooled parameters (learners scattered by sigma {LEARNER_SPREAD}; "
          f"100 cards each, 600 days) ==")  # fmt: skip
    rng = random.Random(7)
    pool = []
    for seed in range(120):
        pool += learner_items(scattered(rng), 10_000 + seed)[0]
    pooled = fit_parameters(pool)
    print(f"pooled set fitted on {len(pool):,} reviews of 120 other learners")
    differences = {size: [] for size in HISTORY_SIZES}
    for seed in range(test_learners):
        items = sort_by_time(learner_items(scattered(rng), seed, cards=100, days=600)[0])
        for size in HISTORY_SIZES:
            if size + TEST_REVIEWS > len(items):
                continue
            test = items[size : size + TEST_REVIEWS]
            personal = fit_parameters(items[:size])
            differences[size].append(
                evaluate_parameters(personal, test).log_loss
                - evaluate_parameters(pooled, test).log_loss
            )
    print("history  learners  mean log loss, personal - pooled  personal better")
    for size, values in differences.items():
        if values:
            better = sum(value < 0 for value in values)
            mean, median = statistics.mean(values), statistics.median(values)
            print(f"{size:>7}  {len(values):>8}  {mean:+.4f} (median {median:+.4f})"
                  f"          {better}/{len(values)}")  # fmt: skip


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--skip-threshold", action="store_true")
    args = parser.parse_args()
    convert_time()
    oracle()
    if not args.skip_threshold:
        personal_vs_pooled()
    fitting_times(args.sizes)


if __name__ == "__main__":
    main()
