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
    if check.is_scalar(capacity, *demands):
        ordered = sorted(demands)
        remaining = capacity
        for index, demand in enumerate(ordered):
            level = remaining / (len(ordered) - index)
            if level <= demand:
                return float(level)
            remaining -= demand
        return float(ordered[-1])
    stacked = np.stack(np.broadcast_arrays(*demands), axis=-1).astype(float)
    ordered = np.sort(stacked, axis=-1)
    tenants = ordered.shape[-1]
    smaller_total = np.cumsum(ordered, axis=-1) - ordered
    remaining = np.asarray(capacity, dtype=float)[..., None] - smaller_total
    candidates = remaining / (tenants - np.arange(tenants))
    binding = candidates <= ordered  # the level caps this tenant and everyone larger
    first = np.argmax(binding, axis=-1)[..., None]
    level = np.take_along_axis(candidates, first, axis=-1)[..., 0]
    level = np.where(binding.any(axis=-1), level, ordered[..., -1])
    return level if level.ndim else level[()]


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
