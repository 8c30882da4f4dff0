"""Cost and capacity: dollars per million tokens, users to peak load, GPUs and cost per day.

Capacity planning chains a few stated assumptions: daily users × requests per user per day /
86,400 s gives the average request rate; a peak-to-average factor (2-4 for consumer chat, which
follows the waking day) gives the peak; tokens per request turn requests into token throughput;
the throughput one GPU (or replica) sustains at the latency target turns that into GPUs, divided
by a target utilisation to keep headroom; GPU-hours × price give the cost.

Cost levers compound multiplicatively: cutting cost by 40 % and then by 50 % cuts it by
1 − 0.6 × 0.5 = 70 %, not 90 %.

References
----------
Standard capacity-planning arithmetic; see also the course's problems 24 and 25.
"""

import numpy as np

from . import _validate as check

SECONDS_PER_DAY = 86_400
SECONDS_PER_HOUR = 3_600


def cost_per_million_tokens(price_per_hour, tokens_per_second, gpus=1):
    """Dollars per million tokens for GPUs rented by the hour at a sustained throughput.

    Parameters
    ----------
    price_per_hour : number or array
        Price of one GPU-hour [USD/h].
    tokens_per_second : number or array
        Tokens the GPUs produce together [tokens/s].
    gpus : int or array, default 1
        GPUs producing that throughput.

    Returns
    -------
    Cost [USD per 1e6 tokens] = price × GPUs / 3600 / tokens per second × 1e6.
    """
    check.positive("price_per_hour", price_per_hour, check.MAX_PRICE)
    check.positive("tokens_per_second", tokens_per_second, check.MAX_RATE)
    check.positive_integer("gpus", gpus, check.MAX_DEVICES)
    return price_per_hour * gpus / SECONDS_PER_HOUR / tokens_per_second * 1e6


def peak_requests_per_second(daily_users, requests_per_user_per_day, peak_to_average):
    """Peak request rate from daily users, their usage and a peak-to-average factor.

    Parameters
    ----------
    daily_users : number or array
        Daily active users [users].
    requests_per_user_per_day : number or array
        Requests each user sends per day [requests].
    peak_to_average : number or array
        Peak rate over the daily average rate, at least 1 [1].

    Returns
    -------
    Peak rate [requests/s] = users × requests per user / 86,400 × peak-to-average.
    """
    check.positive("daily_users", daily_users, check.MAX_COUNT)
    check.positive("requests_per_user_per_day", requests_per_user_per_day, 1e6)
    check.at_least("peak_to_average", peak_to_average, 1, 1e3)
    average = daily_users * requests_per_user_per_day / SECONDS_PER_DAY
    return average * peak_to_average


def replicas_needed(load, replica_throughput, target_utilization=1.0):
    """Replicas (or GPUs) needed to carry a load at a target utilisation.

    Parameters
    ----------
    load : number or array
        Demand, in any rate unit (requests/s, tokens/s).
    replica_throughput : number or array
        What one replica sustains at the latency target, in the same unit.
    target_utilization : number or array, default 1.0
        Planned busy share of each replica, above 0 and at most 1 (e.g. 0.7 keeps headroom).

    Returns
    -------
    Replicas [replicas] = ceil(load / (throughput × utilisation)).
    """
    check.positive("load", load, check.MAX_RATE)
    check.positive("replica_throughput", replica_throughput, check.MAX_RATE)
    check.positive_fraction("target_utilization", target_utilization)
    return np.ceil(load / (replica_throughput * target_utilization))


def cost_per_day(gpus, price_per_hour):
    """Dollars per day of running GPUs around the clock.

    Parameters
    ----------
    gpus : number or array
        GPUs running [GPUs].
    price_per_hour : number or array
        Price of one GPU-hour [USD/h].

    Returns
    -------
    Cost [USD/day] = GPUs × price × 24.
    """
    check.positive("gpus", gpus, check.MAX_DEVICES)
    check.positive("price_per_hour", price_per_hour, check.MAX_PRICE)
    return gpus * price_per_hour * 24


def combined_cost_reduction(reduction_1, reduction_2, reduction_3=0.0, reduction_4=0.0):
    """Total cost reduction of independent levers applied one after another.

    Parameters
    ----------
    reduction_1, reduction_2 : number or array
        Fractional cost cut of each lever [1] (0.4 = 40 % cheaper).
    reduction_3, reduction_4 : number or array, default 0
        Further levers.

    Returns
    -------
    Reduction [1] = 1 − (1 − r1)(1 − r2)(1 − r3)(1 − r4). A lever that raises throughput by a
    factor g cuts cost by 1 − 1/g.
    """
    check.fraction("reduction_1", reduction_1)
    check.fraction("reduction_2", reduction_2)
    check.fraction("reduction_3", reduction_3)
    check.fraction("reduction_4", reduction_4)
    remaining = (1 - reduction_1) * (1 - reduction_2) * (1 - reduction_3) * (1 - reduction_4)
    return 1 - remaining
