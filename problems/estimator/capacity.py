"""Cost and capacity: dollars per million tokens, users to peak load, GPUs and cost per day.

Capacity planning chains a few stated assumptions: daily users × requests per user per day /
86,400 s gives the average request rate; a peak-to-average factor (2-4 for consumer chat, which
follows the waking day) gives the peak; tokens per request turn requests into token throughput;
the throughput one GPU (or replica) sustains at the latency target turns that into GPUs, divided
by a target utilisation to keep headroom; GPU-seconds × price give the cost.

Money is in base units like everything else: prices in USD/s per GPU (a scenario parameter written
``{value: 3, unit: $/h}`` reaches a formula as 3 / 3600 USD/s, and ``gpu.price_per_second_default``
is the catalogue's price in the same unit), results in USD/token, USD/s or USD/request. A part
shows them in $/Mtok, $/day or $/1k req; the engine converts.

Cost levers compound multiplicatively: cutting cost by 40 % and then by 50 % cuts it by
1 − 0.6 × 0.5 = 70 %, not 90 %.

References
----------
Standard capacity-planning arithmetic; see also the course's problems 24 and 25.
"""

import numpy as np

from . import _validate as check

SECONDS_PER_DAY = 86_400


def cost_per_million_tokens(price_per_second, tokens_per_second, gpus=1):
    """Cost of a token for rented GPUs at a sustained throughput (shown per million tokens).

    Parameters
    ----------
    price_per_second : number or array
        Rental price of one GPU [USD/s] (a ``$/h`` parameter arrives in USD/s).
    tokens_per_second : number or array
        Tokens the GPUs produce together [tokens/s].
    gpus : int or array, default 1
        GPUs producing that throughput, all paid for.

    Returns
    -------
    Cost [USD/token] = price × GPUs / tokens per second; a part in ``$/Mtok`` shows it per
    million tokens ($3/h on one GPU at 1,000 tokens/s: $0.833/Mtok).
    """
    check.positive("price_per_second", price_per_second, check.MAX_PRICE)
    check.positive("tokens_per_second", tokens_per_second, check.MAX_RATE)
    check.positive_integer("gpus", gpus, check.MAX_DEVICES)
    return price_per_second * gpus / tokens_per_second


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


def cost_per_day(gpus, price_per_second):
    """Spending rate of GPUs rented around the clock (shown per day by a part in $/day).

    Parameters
    ----------
    gpus : number or array
        GPUs running [GPUs].
    price_per_second : number or array
        Rental price of one GPU [USD/s] (a ``$/h`` parameter arrives in USD/s).

    Returns
    -------
    Cost rate [USD/s] = GPUs × price; a part in ``$/day`` shows it × 86,400 (10 GPUs at $3/h:
    $720/day). For the dollars of one day as an amount, multiply by 86,400 s.
    """
    check.positive("gpus", gpus, check.MAX_DEVICES)
    check.positive("price_per_second", price_per_second, check.MAX_PRICE)
    return gpus * price_per_second


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
