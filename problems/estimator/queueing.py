"""Queueing and tails: M/M/1 and M/M/c waiting-time percentiles, heavy-tailed percentiles.

Poisson arrivals at rate λ, exponential service at rate μ per server, c servers, utilisation
ρ = λ/(cμ) < 1. The probability that a request waits at all is Erlang's C formula; a request that
waits, waits an exponential time with rate cμ − λ. Hence

    P(W_q > t) = C(c, λ/μ) · exp(−(cμ − λ) t),

so the p-th percentile of the wait is 0 while 1 − p ≥ C, else ln(C / (1 − p)) / (cμ − λ).
For one server C = ρ, and the time in system (wait plus service) is exponential with rate
μ − λ, so its p99/p50 ratio is ln(100)/ln(2) ≈ 6.6 at any load while both grow as 1/(μ − λ):
utilisation moves every percentile, and p99 is several times p50 even for an ideal queue.

Heavy-tailed output lengths make p99 a much larger multiple of p50: see the log-normal and
Pareto percentiles.

References
----------
L. Kleinrock, "Queueing Systems, Volume 1: Theory", Wiley 1975, sections 3.2 and 3.5; A. K.
Erlang (1917); Erlang B as 1/B = Σ_{j=0..c} c!/((c − j)! a^j) and C = B / (1 − ρ(1 − B)).
"""

import math

import numpy as np

from . import _special
from . import _validate as check


def _rates(arrival_rate, service_rate, servers):
    check.positive("arrival_rate", arrival_rate, check.MAX_RATE)
    check.positive("service_rate", service_rate, check.MAX_RATE)
    check.positive_integer("servers", servers, check.MAX_SERVERS)
    if check.any_true(arrival_rate >= servers * service_rate):
        check.refuse(
            "arrival_rate",
            "must be below servers × service_rate (utilisation under 1) for a steady state",
            arrival_rate,
        )


def _erlang_c(offered_load, servers):
    """Erlang C for validated inputs: offered load a = λ/μ, c servers.

    Erlang B from 1/B = Σ_{j=0..c} c!/((c − j)! a^j), whose terms t_j = t_{j−1} (c − j + 1)/a
    turn exactly 0 past j = c, so one loop to the largest c serves every element of an array
    without masking. Then C = B / (1 − ρ(1 − B)).

    The loop stops early, with the same result to the last bit, once the sum has overflowed (B
    is 0) or the terms are shrinking (c − j + 1 < a) and too small to change it: every later
    term is smaller still.
    """
    if check.is_scalar(offered_load, servers):
        term = total = 1.0
        for j in range(1, int(servers) + 1):
            factor = (servers + 1 - j) / offered_load
            term *= factor
            before = total
            total += term
            if total == math.inf or (factor < 1 and total == before):
                break
    else:
        total = _special.blockwise(_inverse_erlang_b_block, offered_load, servers)
    blocking = 1.0 / total
    utilisation = offered_load / servers
    return blocking / (1 - utilisation * (1 - blocking))


def _inverse_erlang_b_block(offered_load, servers):
    """1/B for one block of arrays (the loop of :func:`_erlang_c`, in place)."""
    after = servers + 1.0
    term, total, factor = np.ones(after.shape), np.ones(after.shape), np.empty(after.shape)
    before = np.empty(after.shape)
    with np.errstate(over="ignore", invalid="ignore"):
        for j in range(1, int(np.max(servers, initial=0)) + 1):  # at most MAX_SERVERS steps
            np.subtract(after, j, out=factor)
            factor /= offered_load  # as the scalar loop divides, for identical results
            term *= factor
            before[...] = total
            total += term
            # As the scalar loop: stop once no element's sum can change any more.
            if j % 32 == 0 and np.all(np.isinf(total) | ((factor < 1) & (total == before))):
                break
    # A term that overflowed to infinity turns NaN when its factor reaches 0: B is 0 there.
    total[np.isnan(total)] = np.inf
    return total


def erlang_c(arrival_rate, service_rate, servers):
    """Probability that a request has to wait in an M/M/c queue (Erlang C).

    Parameters
    ----------
    arrival_rate : number or array
        λ [requests/s].
    service_rate : number or array
        μ, per server [requests/s].
    servers : int or array
        c (at most 1024).

    Returns
    -------
    Probability of waiting [1]; equals ρ = λ/μ for one server.
    """
    _rates(arrival_rate, service_rate, servers)
    return _erlang_c(arrival_rate / service_rate, servers)


def mmc_mean_wait(arrival_rate, service_rate, servers):
    """Mean time in the queue (before service) of an M/M/c system.

    Parameters
    ----------
    arrival_rate, service_rate : number or array
        λ and μ per server [requests/s].
    servers : int or array
        c.

    Returns
    -------
    Mean wait [s] = C / (cμ − λ).
    """
    probability = erlang_c(arrival_rate, service_rate, servers)
    return probability / (servers * service_rate - arrival_rate)


def mmc_wait_percentile(arrival_rate, service_rate, servers, percentile):
    """Percentile of the time in the queue of an M/M/c system.

    Parameters
    ----------
    arrival_rate, service_rate : number or array
        λ and μ per server [requests/s].
    servers : int or array
        c.
    percentile : number or array
        As a fraction strictly between 0 and 1 (0.99 for p99).

    Returns
    -------
    Wait [s] = max(0, ln(C / (1 − p)) / (cμ − λ)).
    """
    check.open_fraction("percentile", percentile)
    probability = erlang_c(arrival_rate, service_rate, servers)
    drain = servers * service_rate - arrival_rate
    return np.maximum(0.0, np.log(probability / (1 - percentile)) / drain)


def mm1_wait_percentile(arrival_rate, service_rate, percentile):
    """Percentile of the time in the queue of an M/M/1 system.

    Parameters
    ----------
    arrival_rate, service_rate : number or array
        λ < μ [requests/s].
    percentile : number or array
        Fraction strictly between 0 and 1.

    Returns
    -------
    Wait [s] = max(0, ln(ρ / (1 − p)) / (μ − λ)); 0 when p ≤ 1 − ρ (most requests never wait at
    low load).
    """
    return mmc_wait_percentile(arrival_rate, service_rate, 1, percentile)


def mm1_response_time_percentile(arrival_rate, service_rate, percentile):
    """Percentile of the time in system (wait plus service) of an M/M/1 system.

    Parameters
    ----------
    arrival_rate, service_rate : number or array
        λ < μ [requests/s].
    percentile : number or array
        Fraction strictly between 0 and 1.

    Returns
    -------
    Time [s] = −ln(1 − p) / (μ − λ): the sojourn time is exponential with rate μ − λ.
    """
    _rates(arrival_rate, service_rate, 1)
    check.open_fraction("percentile", percentile)
    return -np.log1p(-percentile) / (service_rate - arrival_rate)


def mm1_mean_response_time(arrival_rate, service_rate):
    """Mean time in system of an M/M/1 queue.

    Parameters
    ----------
    arrival_rate, service_rate : number or array
        λ < μ [requests/s].

    Returns
    -------
    Time [s] = 1 / (μ − λ) = (1/μ) / (1 − ρ): at 90 % utilisation, ten service times.
    """
    _rates(arrival_rate, service_rate, 1)
    return 1 / (service_rate - arrival_rate)


def mm1_slo_attainment(arrival_rate, service_rate, slo):
    """Share of M/M/1 requests whose time in system is within an SLO.

    Parameters
    ----------
    arrival_rate, service_rate : number or array
        λ < μ [requests/s].
    slo : number or array
        Latency objective [s].

    Returns
    -------
    Share [1] = 1 − exp(−(μ − λ) × SLO).
    """
    _rates(arrival_rate, service_rate, 1)
    check.positive("slo", slo, check.MAX_SECONDS)
    return -np.expm1(-(service_rate - arrival_rate) * slo)


def lognormal_percentile(median, sigma, percentile):
    """Percentile of a log-normal distribution (latencies, output lengths).

    Parameters
    ----------
    median : number or array
        The median (e^μ) [any unit].
    sigma : number or array
        Standard deviation of the logarithm [1].
    percentile : number or array
        Fraction strictly between 0 and 1.

    Returns
    -------
    Value [unit of median] = median × exp(σ z_p), z_p the standard normal quantile.
    """
    check.positive("median", median, check.MAX_FLOPS)
    check.positive("sigma", sigma, 100)
    check.open_fraction("percentile", percentile)
    return median * np.exp(sigma * _special.normal_quantile(percentile))


def pareto_percentile(scale, shape, percentile):
    """Percentile of a Pareto distribution (a heavy tail).

    Parameters
    ----------
    scale : number or array
        Minimum value x_m [any unit].
    shape : number or array
        Tail index α [1]; smaller is heavier.
    percentile : number or array
        Fraction strictly between 0 and 1.

    Returns
    -------
    Value [unit of scale] = x_m (1 − p)^(−1/α); p99/p50 = 50^(1/α).
    """
    check.positive("scale", scale, check.MAX_FLOPS)
    check.positive("shape", shape, 1e3)
    check.open_fraction("percentile", percentile)
    return scale * (1 - percentile) ** (-1 / shape)
