"""The oracle test: learners whose true FSRS parameters are known forget as FSRS says (review
outcomes drawn from the forgetting curve); parameters fitted to their logs must predict their
later reviews better than the defaults, and come closer to the truth than the defaults are.

The larger version, with timings, is bench/fitting.py."""

import math
import random
from datetime import UTC, date
from zoneinfo import ZoneInfo

import fsrs_rs_python
import pytest

from trainer.srs.fsrs_fitting import evaluate_parameters, fit_parameters, judge_fit, split_by_time
from trainer.srs.fsrs_items import sort_by_time, training_items
from trainer.srs.fsrs_scheduler import DEFAULT_PARAMETERS
from trainer.srs.fsrs_simulation import simulate_review_log

# A learner who forgets faster than the defaults say: lower initial stabilities, smaller gains
# from a successful review, a steeper curve; every other parameter moved too.
TRUE_PARAMETERS = (
    0.1, 0.6, 1.2, 4.0, 7.2, 0.5, 2.5, 0.01, 1.4, 0.25, 0.6, 1.8, 0.08, 0.35, 1.9, 0.5, 2.2,
    0.45, 0.12, 0.08, 0.25,
)  # fmt: skip
ZONES = (UTC, ZoneInfo("Europe/Berlin"), ZoneInfo("America/Los_Angeles"))


@pytest.fixture(scope="module")
def population():
    """Training items of 24 simulated learners (25 cards, 200 days each), in time order."""
    items = []
    for learner in range(24):
        zone = ZONES[learner % len(ZONES)]
        log = simulate_review_log(
            TRUE_PARAMETERS,
            cards=25,
            days=200,
            first_day=date(2025, 1, 6),
            learner_tz=zone,
            rng=random.Random(learner),
        )
        items += training_items(log, zone)
    return sort_by_time(items)


@pytest.fixture(scope="module")
def fitted(population):
    earlier, held_out = split_by_time(population, 0.3)
    return fit_parameters(earlier), held_out


def test_fitted_parameters_predict_held_out_reviews_better_than_the_defaults(fitted):
    parameters, held_out = fitted
    assert len(held_out) > 1000
    ours = evaluate_parameters(parameters, held_out)
    defaults = evaluate_parameters(DEFAULT_PARAMETERS, held_out)
    truth = evaluate_parameters(TRUE_PARAMETERS, held_out)
    assert ours.log_loss < defaults.log_loss
    assert ours.rmse_bins < defaults.rmse_bins
    # Nothing predicts better than the truth, beyond noise.
    assert truth.log_loss <= ours.log_loss + 0.002


def _stabilities(parameters, items):
    """Stability [days] before each item's predicted review, under ``parameters``."""
    model = fsrs_rs_python.FSRS(list(parameters))
    histories = [
        fsrs_rs_python.FSRSItem([fsrs_rs_python.FSRSReview(r, d) for r, d in item.reviews[:-1]])
        for item in items
    ]
    return [state.stability for state in model.memory_state_batch(histories)]


def test_fitted_parameters_recover_the_true_memory_states(fitted):
    # The parameters matter through the stabilities they give a history: those of the fitted
    # set are closer to the true ones than the defaults' are, by a wide margin.
    parameters, held_out = fitted
    truth = _stabilities(TRUE_PARAMETERS, held_out)

    def mean_log_error(estimates):
        return sum(abs(math.log(e / t)) for e, t in zip(estimates, truth, strict=True)) / len(truth)

    ours = mean_log_error(_stabilities(parameters, held_out))
    defaults = mean_log_error(_stabilities(DEFAULT_PARAMETERS, held_out))
    assert ours < 0.6 * defaults


def test_fitted_initial_stabilities_are_closer_to_the_truth_than_the_defaults(fitted):
    # w0..w3, the stability after a first Again, Hard, Good or Easy, are set directly by how
    # first reviews are remembered; bench/fitting.py reports every parameter.
    parameters, _ = fitted
    for index in range(4):
        ours = abs(parameters[index] - TRUE_PARAMETERS[index])
        assert ours < abs(DEFAULT_PARAMETERS[index] - TRUE_PARAMETERS[index]), index


def test_a_fit_replaces_the_defaults(population):
    fit = judge_fit(population, DEFAULT_PARAMETERS)
    assert fit.replaces and fit.reviews == len(population)
    assert fit.candidate.reviews == fit.current.reviews == round(0.2 * len(population))
    # Against the true set itself, a fit is within noise of it on the held-out reviews.
    truth = judge_fit(population, TRUE_PARAMETERS)
    assert abs(truth.candidate.log_loss - truth.current.log_loss) < 0.005
