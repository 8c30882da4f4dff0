"""Fitting FSRS's 21 parameters to review logs, and judging a fitted set on reviews it has not seen.

Fitting and evaluation are fsrs-rs's (``fsrs_rs_python``), the code behind Anki's "Optimize" and
"Evaluate" buttons, fed with training items built as Anki builds them (``fsrs_items``). Anki's two
figures:

- **log loss**: the mean of ``-[y log p + (1 - y) log(1 - p)]`` over the predicted reviews, where
  ``p`` is the predicted recall and ``y`` is 1 if the review succeeded (any rating but Again);
  lower is better.
- **RMSE(bins)**: predictions and outcomes grouped into bins (by elapsed days, review count and
  lapses), the root of the review-weighted mean squared difference between each bin's mean
  predicted recall and its observed recall rate; lower is better.

**When a fitted set replaces the current one** (``judge_fit``): the reviews are split in time,
the earlier ``1 - held_out_fraction`` for fitting and the latest ``held_out_fraction`` held out.
A set fitted on the earlier part must predict the held-out reviews better than the current set:
lower log loss (the quantity the fit minimises) and an RMSE(bins) no worse. Judged on the
learner's latest reviews, as it will be used: on reviews to come. The set then put in use is
fitted on all the reviews, since the latest reviews say most about the learner now.

**Who gets personal parameters**: a learner with at least ``PERSONAL_MINIMUM_REVIEWS`` reviews
to predict in their own log; below that, pooled parameters (fitted over all learners) predict
a learner's later reviews better than a fit to their own few (measured by ``bench/fitting.py``
on simulated learners whose true parameters are known; see ``bench/README.md``).
"""

from collections.abc import Sequence
from dataclasses import dataclass

import fsrs
import fsrs_rs_python

from trainer.srs.fsrs_items import TrainingItem, sort_by_time
from trainer.srs.fsrs_scheduler import DEFAULT_PARAMETERS

PARAMETER_COUNT = 21
PERSONAL_MINIMUM_REVIEWS = 1000
"""Reviews to predict (``fsrs_items.training_items``) a learner needs for personal parameters
(module docstring)."""
MINIMUM_REVIEWS_TO_FIT = 8
"""Below this many reviews to predict, fsrs-rs does not fit and returns the defaults."""
HELD_OUT_FRACTION = 0.2
"""Share of the latest reviews held out to judge a fitted set."""
DECIMALS = 4
"""Fitted parameters are rounded to this many decimals, as Anki stores them."""


@dataclass(frozen=True)
class Evaluation:
    """How well a parameter set predicts some reviews (Anki's figures; module docstring).

    Attributes:
        log_loss: mean log loss per review [nats]; lower is better.
        rmse_bins: RMSE(bins) of predicted recall, in [0, 1]; lower is better.
        reviews: reviews predicted.
    """

    log_loss: float
    rmse_bins: float
    reviews: int


def check_parameters(parameters: Sequence[float]) -> tuple[float, ...]:
    """The 21 parameters as a tuple of floats; refuse a wrong count or a value py-fsrs (the
    scheduler) would refuse."""
    values = tuple(float(value) for value in parameters)
    if len(values) != PARAMETER_COUNT:
        raise ValueError(f"FSRS-6 has {PARAMETER_COUNT} parameters, got {len(values)}")
    fsrs.Scheduler(parameters=values)  # raises ValueError naming any value out of bounds
    return values


def _fsrs_items(items: Sequence[TrainingItem]) -> list[fsrs_rs_python.FSRSItem]:
    return [item.to_fsrs() for item in items]


def fit_parameters(items: Sequence[TrainingItem]) -> tuple[float, ...]:
    """The 21 FSRS parameters that best predict ``items`` (fsrs-rs's ``compute_parameters``,
    short-term parameters included, started from the defaults), rounded to ``DECIMALS`` and
    kept within the scheduler's bounds. Fewer than ``MINIMUM_REVIEWS_TO_FIT`` items give the
    defaults.

    Time: about linear in the number of items (``bench/README.md``).
    """
    if len(items) < MINIMUM_REVIEWS_TO_FIT:
        return DEFAULT_PARAMETERS
    model = fsrs_rs_python.FSRS(list(DEFAULT_PARAMETERS))
    fitted = model.compute_parameters(_fsrs_items(items), enable_short_term=True)
    low, high = fsrs.scheduler.LOWER_BOUNDS_PARAMETERS, fsrs.scheduler.UPPER_BOUNDS_PARAMETERS
    return check_parameters(
        [
            min(high[index], max(low[index], round(value, DECIMALS)))
            for index, value in enumerate(fitted)
        ]
    )


def evaluate_parameters(parameters: Sequence[float], items: Sequence[TrainingItem]) -> Evaluation:
    """Log loss and RMSE(bins) of ``parameters`` on ``items`` (fsrs-rs's ``evaluate``)."""
    if not items:
        raise ValueError("there are no reviews to evaluate on")
    figures = fsrs_rs_python.FSRS(list(check_parameters(parameters))).evaluate(_fsrs_items(items))
    return Evaluation(float(figures.log_loss), float(figures.rmse_bins), len(items))


def split_by_time(
    items: Sequence[TrainingItem], held_out_fraction: float = HELD_OUT_FRACTION
) -> tuple[list[TrainingItem], list[TrainingItem]]:
    """The items whose predicted review came earlier, and the latest ``held_out_fraction`` of
    them (at least one in each part when there are two or more items)."""
    if not 0 < held_out_fraction < 1:
        raise ValueError(f"held-out fraction must be in (0, 1), got {held_out_fraction}")
    ordered = sort_by_time(items)
    held_out = min(len(ordered) - 1, max(1, round(len(ordered) * held_out_fraction)))
    cut = len(ordered) - held_out
    return ordered[:cut], ordered[cut:]


@dataclass(frozen=True)
class Fit:
    """A fitted parameter set and how it compares with the current one.

    Attributes:
        parameters: the set fitted on all the reviews (put in use if ``replaces``).
        reviews: reviews to predict it was fitted on.
        current: the current set's figures on the held-out reviews.
        candidate: the figures, on the same held-out reviews, of a set fitted on the earlier
            reviews alone.
    """

    parameters: tuple[float, ...]
    reviews: int
    current: Evaluation
    candidate: Evaluation

    @property
    def replaces(self) -> bool:
        """The fitted set beats the current one on held-out reviews (module docstring)."""
        return (
            self.candidate.log_loss < self.current.log_loss
            and self.candidate.rmse_bins <= self.current.rmse_bins
        )


def judge_fit(
    items: Sequence[TrainingItem],
    current_parameters: Sequence[float] = DEFAULT_PARAMETERS,
    held_out_fraction: float = HELD_OUT_FRACTION,
) -> Fit:
    """Fit on ``items`` and judge the fit against ``current_parameters`` (module docstring).

    Args:
        items: training items of one learner (personal) or of all learners (pooled).
        current_parameters: the set in use now.
        held_out_fraction: share of the latest reviews held out.

    Raises:
        ValueError: fewer than ``MINIMUM_REVIEWS_TO_FIT`` items, or a bad parameter set.
    """
    if len(items) < MINIMUM_REVIEWS_TO_FIT:
        raise ValueError(
            f"{len(items)} reviews to predict; fitting needs at least {MINIMUM_REVIEWS_TO_FIT}"
        )
    earlier, held_out = split_by_time(items, held_out_fraction)
    return Fit(
        parameters=fit_parameters(items),
        reviews=len(items),
        current=evaluate_parameters(current_parameters, held_out),
        candidate=evaluate_parameters(fit_parameters(earlier), held_out),
    )


def parameters_for_learner(
    personal: Sequence[float] | None, pooled: Sequence[float] | None, own_reviews: int
) -> tuple[float, ...]:
    """The set a learner is scheduled with: their personal set once they have
    ``PERSONAL_MINIMUM_REVIEWS`` reviews to predict, else the pooled set, else the defaults."""
    if personal is not None and own_reviews >= PERSONAL_MINIMUM_REVIEWS:
        return check_parameters(personal)
    if pooled is not None:
        return check_parameters(pooled)
    return DEFAULT_PARAMETERS
