"""Fitting FSRS parameters: the checks, the time split, the rule for replacing a set, and who
gets personal parameters. The oracle test (test_srs_fsrs_oracle.py) checks what a fit is worth."""

from datetime import UTC, datetime, timedelta

import pytest

from trainer.srs.fsrs_fitting import (
    PERSONAL_MINIMUM_REVIEWS,
    Evaluation,
    Fit,
    check_parameters,
    evaluate_parameters,
    fit_parameters,
    judge_fit,
    parameters_for_learner,
    split_by_time,
)
from trainer.srs.fsrs_items import TrainingItem
from trainer.srs.fsrs_scheduler import DEFAULT_PARAMETERS, FsrsScheduler

START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
OTHER = tuple(value * 1.1 if index < 4 else value for index, value in enumerate(DEFAULT_PARAMETERS))


def _items(count):
    """``count`` items, one an hour, alternating success and failure after a 3-day gap."""
    return [
        TrainingItem(index, START + timedelta(hours=index), ((3, 0), (3 if index % 2 else 1, 3)))
        for index in range(count)
    ]


def test_parameters_are_checked():
    assert check_parameters(list(DEFAULT_PARAMETERS)) == DEFAULT_PARAMETERS
    with pytest.raises(ValueError, match="21 parameters"):
        check_parameters(DEFAULT_PARAMETERS[:19])
    with pytest.raises(ValueError, match="out of bounds"):
        check_parameters((500.0, *DEFAULT_PARAMETERS[1:]))


def test_too_few_reviews_give_the_defaults_and_judging_them_is_refused():
    assert fit_parameters(_items(7)) == DEFAULT_PARAMETERS
    with pytest.raises(ValueError, match="at least 8"):
        judge_fit(_items(7))
    with pytest.raises(ValueError, match="no reviews"):
        evaluate_parameters(DEFAULT_PARAMETERS, [])


def test_a_fitted_set_is_rounded_and_the_scheduler_takes_it():
    fitted = fit_parameters(_items(200))
    assert fitted != DEFAULT_PARAMETERS
    assert all(round(value, 4) == value for value in fitted)
    FsrsScheduler(parameters=fitted)  # py-fsrs checks every bound


def test_the_held_out_reviews_are_the_latest():
    items = list(reversed(_items(10)))
    earlier, held_out = split_by_time(items, 0.2)
    assert [item.card_id for item in earlier] == list(range(8))
    assert [item.card_id for item in held_out] == [8, 9]
    assert [len(part) for part in split_by_time(_items(2), 0.01)] == [1, 1]
    for fraction in (0, 1):
        with pytest.raises(ValueError, match="fraction"):
            split_by_time(items, fraction)


@pytest.mark.parametrize(
    ("candidate", "replaces"),
    [
        (Evaluation(0.30, 0.040, 100), True),
        (Evaluation(0.30, 0.050, 100), True),  # as good by RMSE(bins), better by log loss
        (Evaluation(0.30, 0.051, 100), False),  # worse by RMSE(bins)
        (Evaluation(0.32, 0.040, 100), False),  # log loss must improve
    ],
)
def test_a_set_replaces_the_current_one_only_if_it_beats_it_on_held_out_reviews(
    candidate, replaces
):
    fit = Fit(DEFAULT_PARAMETERS, 500, Evaluation(0.32, 0.050, 100), candidate)
    assert fit.replaces is replaces


def test_personal_parameters_need_enough_own_reviews():
    enough = PERSONAL_MINIMUM_REVIEWS
    assert parameters_for_learner(OTHER, None, enough) == OTHER
    assert parameters_for_learner(OTHER, None, enough - 1) == DEFAULT_PARAMETERS
    assert parameters_for_learner(OTHER, DEFAULT_PARAMETERS, enough - 1) == DEFAULT_PARAMETERS
    assert parameters_for_learner(None, OTHER, 10 * enough) == OTHER
    assert parameters_for_learner(None, None, 0) == DEFAULT_PARAMETERS
