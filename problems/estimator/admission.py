"""Admission control and multi-tenant fairness: a KV-cache budget, max-min fair shares.

A server can only run as many sequences as its KV budget holds; admitting more makes the engine
preempt (swap or recompute) running ones. An admission controller that reserves each sequence's
worst case (prompt plus maximum output) never preempts; one that counts current usage admits more
and risks preemption.

When tenants want more than the capacity, max-min fairness gives every tenant the same share L,
except those who want less, who get their demand; L is the water level where the allocations
min(demand, L) add up to the capacity. (If total demand fits, everyone gets their demand.)

References
----------
D. Bertsekas and R. Gallager, "Data Networks", 2nd ed., 1992, section 6.5.2 (max-min fairness by
water-filling); Y. Sheng et al., "Fairness in Serving Large Language Models", OSDI 2024.
"""

import numpy as np

from . import _validate as check


def admitted_sequences(kv_budget_bytes, kv_bytes_per_sequence):
    """Sequences an admission controller can run within a KV-cache budget.

    Parameters
    ----------
    kv_budget_bytes : number or array
        Memory for the KV cache [bytes] (see :func:`memory.kv_budget_bytes`).
    kv_bytes_per_sequence : number or array
        KV cache each admitted sequence reserves [bytes]: its worst case (prompt plus maximum
        output) for a controller that never preempts.

    Returns
    -------
    Sequences [sequences] = floor(budget / bytes per sequence).
    """
    check.non_negative("kv_budget_bytes", kv_budget_bytes, check.MAX_BYTES)
    check.positive("kv_bytes_per_sequence", kv_bytes_per_sequence, check.MAX_BYTES)
    return np.floor(kv_budget_bytes / kv_bytes_per_sequence)


def _water_level(capacity, demands):
    """Water level for validated inputs.

    With the demands sorted, tenant k is offered s_k = (capacity − the k smaller demands) /
    (tenants − k). The shares rise while s_k exceeds d_k (that tenant is satisfied) and fall from
    the first k with s_k ≤ d_k, which is the level; if every tenant is satisfied the level is the
    largest demand. So the level is min(max_k s_k, largest demand), no branching per element.
    """
    if check.is_scalar(capacity, *demands):
        ordered = sorted(demands)
    else:
        # Sort the four demands element-wise with a five-comparator sorting network.
        first, second, third, fourth = (np.asarray(d, dtype=float) for d in demands)
        first, second = np.minimum(first, second), np.maximum(first, second)
        third, fourth = np.minimum(third, fourth), np.maximum(third, fourth)
        first, third = np.minimum(first, third), np.maximum(first, third)
        second, fourth = np.minimum(second, fourth), np.maximum(second, fourth)
        second, third = np.minimum(second, third), np.maximum(second, third)
        ordered = [first, second, third, fourth]
    remaining = capacity
    highest_share = remaining / len(ordered)
    for index, demand in enumerate(ordered[:-1], start=1):
        remaining = remaining - demand
        highest_share = np.maximum(highest_share, remaining / (len(ordered) - index))
    level = np.minimum(highest_share, ordered[-1])
    return float(level) if np.ndim(level) == 0 else level


def max_min_fair_level(capacity, demand_1, demand_2, demand_3=0.0, demand_4=0.0):
    """Water level of a max-min fair split of a capacity among up to four tenants.

    Parameters
    ----------
    capacity : number or array
        What is shared (tokens/s, KV bytes, batch slots) [any unit].
    demand_1, demand_2 : number or array
        Each tenant's demand [same unit].
    demand_3, demand_4 : number or array, default 0
        Further tenants (0 = absent).

    Returns
    -------
    Level [same unit]: the L with Σ min(demand_i, L) = capacity, or the largest demand if all
    demands fit. Tenant i receives min(demand_i, L).
    """
    check.non_negative("capacity", capacity, check.MAX_FLOPS)
    demands = (demand_1, demand_2, demand_3, demand_4)
    for index, demand in enumerate(demands, start=1):
        check.non_negative(f"demand_{index}", demand, check.MAX_FLOPS)
    return _water_level(capacity, demands)


def max_min_fair_share(capacity, demand, other_demand_1, other_demand_2=0.0, other_demand_3=0.0):
    """What one tenant receives under a max-min fair split with up to three others.

    Parameters
    ----------
    capacity : number or array
        What is shared [any unit].
    demand : number or array
        This tenant's demand [same unit].
    other_demand_1 : number or array
        Another tenant's demand [same unit].
    other_demand_2, other_demand_3 : number or array, default 0
        Further tenants (0 = absent).

    Returns
    -------
    Allocation [same unit] = min(demand, water level).
    """
    check.non_negative("capacity", capacity, check.MAX_FLOPS)
    check.non_negative("demand", demand, check.MAX_FLOPS)
    check.non_negative("other_demand_1", other_demand_1, check.MAX_FLOPS)
    check.non_negative("other_demand_2", other_demand_2, check.MAX_FLOPS)
    check.non_negative("other_demand_3", other_demand_3, check.MAX_FLOPS)
    level = _water_level(capacity, (demand, other_demand_1, other_demand_2, other_demand_3))
    return np.minimum(demand, level)
