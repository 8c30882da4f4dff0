"""Serving metrics: Little's law, cost per request, the cache hit rate's effect, goodput.

Little's law holds for any stable system, whatever the distributions: the mean number in the
system L equals the arrival rate λ times the mean time in the system W. A server at 20
requests/s with 5 s per request holds 100 requests in flight, each needing a KV cache and a batch
slot.

Goodput counts only the requests that meet their latency objective (SLO); a server can raise
throughput by batching harder while its goodput falls.

References
----------
J. D. C. Little, "A Proof for the Queuing Formula L = λW", Operations Research 9(3), 1961;
Y. Zhong et al., "DistServe", OSDI 2024 (goodput under TTFT and TPOT SLOs).
"""

import numpy as np

from . import _special
from . import _validate as check


def littles_law_concurrency(arrival_rate, time_in_system):
    """Mean requests in flight, L = λW.

    Parameters
    ----------
    arrival_rate : number or array
        Requests per second, λ [requests/s].
    time_in_system : number or array
        Mean time a request spends in the system, W [s].

    Returns
    -------
    Requests in flight [requests] = λ × W.
    """
    check.non_negative("arrival_rate", arrival_rate, check.MAX_RATE)
    check.non_negative("time_in_system", time_in_system, check.MAX_SECONDS)
    return arrival_rate * time_in_system


def littles_law_arrival_rate(concurrency, time_in_system):
    """Throughput a system sustains with a given concurrency, λ = L / W.

    Parameters
    ----------
    concurrency : number or array
        Mean requests in flight, L [requests].
    time_in_system : number or array
        Mean time per request, W [s].

    Returns
    -------
    Rate [requests/s] = L / W.
    """
    check.non_negative("concurrency", concurrency, check.MAX_COUNT)
    check.positive("time_in_system", time_in_system, check.MAX_SECONDS)
    return concurrency / time_in_system


def littles_law_time_in_system(concurrency, arrival_rate):
    """Mean time in the system implied by concurrency and rate, W = L / λ.

    Parameters
    ----------
    concurrency : number or array
        Mean requests in flight, L [requests].
    arrival_rate : number or array
        Requests per second, λ [requests/s].

    Returns
    -------
    Time [s] = L / λ.
    """
    check.non_negative("concurrency", concurrency, check.MAX_COUNT)
    check.positive("arrival_rate", arrival_rate, check.MAX_RATE)
    return concurrency / arrival_rate


def cost_per_request(price_per_second, gpus, requests_per_second):
    """Cost of one request for rented GPUs serving a steady request rate.

    Parameters
    ----------
    price_per_second : number or array
        Rental price of one GPU [USD/s] (a ``$/h`` parameter arrives in USD/s).
    gpus : number or array
        GPUs serving the traffic [GPUs].
    requests_per_second : number or array
        Requests completed per second [requests/s].

    Returns
    -------
    Cost [USD/request] = price × GPUs / requests per second (4 GPUs at $4.50/h serving 7.5
    requests/s: $0.667 per 1,000 requests, shown by a part in ``$/1k req``).
    """
    check.positive("price_per_second", price_per_second, check.MAX_PRICE)
    check.positive("gpus", gpus, check.MAX_DEVICES)
    check.positive("requests_per_second", requests_per_second, check.MAX_RATE)
    return price_per_second * gpus / requests_per_second


def api_cost_per_request(
    input_tokens,
    output_tokens,
    price_per_input_token,
    price_per_output_token,
    cached_input_tokens=0.0,
    price_per_cached_input_token=0.0,
):
    """Cost of one request under per-token pricing, cached prompt tokens billed at their rate.

    Parameters
    ----------
    input_tokens : number or array
        Prompt tokens, cached ones included [tokens].
    output_tokens : number or array
        Generated tokens [tokens].
    price_per_input_token, price_per_output_token : number or array
        Prices [USD/token] (a ``$/Mtok`` parameter arrives in USD/token: $3/Mtok is 3e-6).
    cached_input_tokens : number or array, default 0
        Prompt tokens served from the prefix cache, at most the prompt [tokens]; use hit rate ×
        cacheable prefix for an average.
    price_per_cached_input_token : number or array, default 0
        Price of a cached prompt token [USD/token].

    Returns
    -------
    Cost [USD/request] = (input − cached) × input price + cached × cached price + output ×
    output price.
    """
    check.non_negative("input_tokens", input_tokens, check.MAX_TOKENS)
    check.non_negative("output_tokens", output_tokens, check.MAX_TOKENS)
    check.non_negative("price_per_input_token", price_per_input_token, check.MAX_PRICE)
    check.non_negative("price_per_output_token", price_per_output_token, check.MAX_PRICE)
    check.non_negative("cached_input_tokens", cached_input_tokens, check.MAX_TOKENS)
    check.non_negative(
        "price_per_cached_input_token", price_per_cached_input_token, check.MAX_PRICE
    )
    if check.any_true(cached_input_tokens > input_tokens):
        check.refuse("cached_input_tokens", "must not exceed input_tokens", cached_input_tokens)
    fresh = input_tokens - cached_input_tokens
    return (
        fresh * price_per_input_token
        + cached_input_tokens * price_per_cached_input_token
        + output_tokens * price_per_output_token
    )


def goodput(requests_per_second, slo_attainment):
    """Requests per second that meet their latency objective.

    Parameters
    ----------
    requests_per_second : number or array
        Completed requests per second [requests/s].
    slo_attainment : number or array
        Share of requests meeting the SLO [1].

    Returns
    -------
    Goodput [requests/s] = rate × attainment.
    """
    check.non_negative("requests_per_second", requests_per_second, check.MAX_RATE)
    check.fraction("slo_attainment", slo_attainment)
    return requests_per_second * slo_attainment


def slo_attainment_lognormal(median_latency, sigma, slo):
    """Share of requests within an SLO when latency is log-normally distributed.

    Parameters
    ----------
    median_latency : number or array
        Median latency [s].
    sigma : number or array
        Standard deviation of ln(latency) [1] (p99/p50 = exp(2.326 σ)).
    slo : number or array
        Latency objective [s].

    Returns
    -------
    Share [1] = Φ(ln(SLO / median) / σ).
    """
    check.positive("median_latency", median_latency, check.MAX_SECONDS)
    check.positive("sigma", sigma, 100)
    check.positive("slo", slo, check.MAX_SECONDS)
    return _special.normal_cdf(np.log(slo / median_latency) / sigma)
