"""Rollout: canary sample sizes for an error-rate or latency regression, and time to collect them.

To tell a canary with error rate p₂ from a baseline with rate p₁ at significance level α
(false-alarm probability) and power 1 − β (chance to catch a real regression), each group needs

    n = [z_(1−α/k) √(2 p̄ (1 − p̄)) + z_(1−β) √(p₁(1 − p₁) + p₂(1 − p₂))]² / (p₁ − p₂)²

requests, with p̄ = (p₁ + p₂)/2 and k = 2 for a two-sided test, 1 for one-sided (the pooled-
variance z-test without continuity correction). A shift δ of a mean latency with standard
deviation σ needs n = 2 (z_(1−α/k) + z_(1−β))² σ² / δ² per group.

Both groups collect at once; with a canary share s of traffic the smaller group, at rate
λ · min(s, 1 − s), decides how long that takes.

References
----------
J. L. Fleiss, B. Levin, M. C. Paik, "Statistical Methods for Rates and Proportions", 3rd ed.,
Wiley 2003, section 4.2 (equation 4.14 without the continuity correction); S.-C. Chow, J. Shao,
H. Wang, "Sample Size Calculations in Clinical Research", 2nd ed., 2008, section 3.2.
"""

import numpy as np

from . import _special
from . import _validate as check


def _z_values(significance, power, tails):
    check.open_fraction("significance", significance)
    check.open_fraction("power", power)
    check.positive_integer("tails", tails, 2)
    z_alpha = _special.normal_quantile(1 - significance / tails)
    z_beta = _special.normal_quantile(power)
    return z_alpha, z_beta


def canary_sample_size_proportions(
    baseline_rate, canary_rate, significance=0.05, power=0.8, tails=2
):
    """Requests per group to detect a change in an error rate between baseline and canary.

    Parameters
    ----------
    baseline_rate : number or array
        Error rate of the current version, p₁ [1].
    canary_rate : number or array
        Error rate to detect in the canary, p₂ ≠ p₁ [1].
    significance : number or array, default 0.05
        False-alarm probability α.
    power : number or array, default 0.8
        Probability of detecting the change, 1 − β.
    tails : int or array, default 2
        2 for a two-sided test, 1 for one-sided (only regressions matter).

    Returns
    -------
    Requests per group [requests], rounded up. p₁ = 1 %, p₂ = 2 %, α = 0.05 two-sided, power
    0.8: 2,319.
    """
    check.open_fraction("baseline_rate", baseline_rate)
    check.open_fraction("canary_rate", canary_rate)
    if check.any_true(baseline_rate == canary_rate):
        check.refuse("canary_rate", "must differ from baseline_rate", canary_rate)
    z_alpha, z_beta = _z_values(significance, power, tails)
    pooled = (baseline_rate + canary_rate) / 2
    null_spread = np.sqrt(2 * pooled * (1 - pooled))
    alternative_spread = np.sqrt(
        baseline_rate * (1 - baseline_rate) + canary_rate * (1 - canary_rate)
    )
    numerator = (z_alpha * null_spread + z_beta * alternative_spread) ** 2
    return np.ceil(numerator / (baseline_rate - canary_rate) ** 2)


def canary_sample_size_means(
    standard_deviation, minimum_difference, significance=0.05, power=0.8, tails=2
):
    """Requests per group to detect a shift in mean latency between baseline and canary.

    Parameters
    ----------
    standard_deviation : number or array
        Standard deviation of one request's latency, σ [s].
    minimum_difference : number or array
        Smallest mean shift worth detecting, δ [s].
    significance : number or array, default 0.05
    power : number or array, default 0.8
    tails : int or array, default 2

    Returns
    -------
    Requests per group [requests] = ceil(2 (z_(1−α/k) + z_(1−β))² σ² / δ²), a z-test on two
    means with equal variances (fine for the thousands of requests a canary sees).
    """
    check.positive("standard_deviation", standard_deviation, check.MAX_SECONDS)
    check.positive("minimum_difference", minimum_difference, check.MAX_SECONDS)
    z_alpha, z_beta = _z_values(significance, power, tails)
    ratio = standard_deviation / minimum_difference
    return np.ceil(2 * (z_alpha + z_beta) ** 2 * ratio**2)


def canary_collection_time(samples_per_group, requests_per_second, canary_share):
    """Time until both the canary and the baseline have collected their samples.

    Parameters
    ----------
    samples_per_group : number or array
        Requests needed in each group [requests].
    requests_per_second : number or array
        Total traffic [requests/s].
    canary_share : number or array
        Share of traffic sent to the canary, strictly between 0 and 1.

    Returns
    -------
    Time [s] = samples / (rate × min(share, 1 − share)).
    """
    check.positive("samples_per_group", samples_per_group, check.MAX_COUNT)
    check.positive("requests_per_second", requests_per_second, check.MAX_RATE)
    check.open_fraction("canary_share", canary_share)
    smaller = np.minimum(canary_share, 1 - canary_share)
    return samples_per_group / (requests_per_second * smaller)
