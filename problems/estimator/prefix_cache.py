"""Prefix caching and cache-aware routing.

A request whose prompt starts with a prefix already in a replica's KV cache (a system prompt, a
conversation so far) skips the prefill of that prefix. Skipping p cached tokens before a suffix
saves exactly the FLOPs of prefilling the p tokens alone (the suffix's attention to the prefix is
still computed).

Routing decides whether the cache is there. With N replicas and random routing, a prefix seen k
times before sits on each replica with probability 1 − (1 − 1/N)^k (no eviction); cache-aware
routing (by prefix hash or longest-prefix match) sends it back to the replica that has it. When
capacity is the limit, with P equally popular prefixes and room for C per replica, a random
router makes every replica cache the same mix, hit rate C/P, while a prefix-partitioning router
gives each replica P/N of the prefixes, hit rate min(1, N·C/P).

References
----------
L. Zheng et al., "SGLang: Efficient Execution of Structured Language Model Programs" (RadixAttention
and cache-aware scheduling), arXiv 2312.07104; vLLM automatic prefix caching documentation; the
hit rate C/P of any replacement policy under the independent reference model with uniform
popularity (Coffman and Denning, "Operating Systems Theory", 1973).
"""

import numpy as np

from . import _validate as check
from .catalogue import FORMATS, GPU
from .roofline import peak_flops, prefill_flops

BF16 = FORMATS["bf16"]


def prefix_cache_flops_saved(model, prefix_tokens, hit_rate):
    """Expected prefill FLOPs a request saves when its prefix is cached with some probability.

    Parameters
    ----------
    model : Model
    prefix_tokens : number or array
        Shared prefix length [tokens].
    hit_rate : number or array
        Probability the prefix is found in the cache [1].

    Returns
    -------
    FLOPs [FLOP] = hit rate × prefill FLOPs of the prefix alone.
    """
    check.positive("prefix_tokens", prefix_tokens, check.MAX_TOKENS)
    check.fraction("hit_rate", hit_rate)
    return hit_rate * prefill_flops(model, prefix_tokens)


def prefix_cache_time_saved(
    model, gpu, prefix_tokens, hit_rate, compute_format=BF16, tensor_parallel=1, efficiency=1.0
):
    """Expected prefill time a request saves through the prefix cache (compute-bound prefill).

    Parameters
    ----------
    model : Model
    gpu : GPU
    prefix_tokens : number or array
        Shared prefix length [tokens].
    hit_rate : number or array
        Probability the prefix is cached [1].
    compute_format : NumberFormat, default bf16
        Format of the matrix multiplies (its dense peak is used).
    tensor_parallel : int or array, default 1
        GPUs sharing each layer of the prefill.
    efficiency : number or array, default 1.0
        Share of the dense peak the prefill attains (MFU), above 0 and at most 1 [1].

    Returns
    -------
    Time [s] = FLOPs saved / (peak × efficiency × p), a lower bound that treats prefill as
    compute-bound (tensor-parallel communication left out).
    """
    check.entry("gpu", gpu, GPU, "GPUS")
    check.positive_integer("tensor_parallel", tensor_parallel, check.MAX_DEVICES)
    check.positive_fraction("efficiency", efficiency)
    saved = prefix_cache_flops_saved(model, prefix_tokens, hit_rate)
    return saved / (peak_flops(gpu, compute_format) * efficiency * tensor_parallel)


def cache_adjusted_prompt_tokens(prompt_tokens, cached_prefix_tokens, hit_rate):
    """Prompt tokens that still need prefill on average, given a cacheable prefix and hit rate.

    Parameters
    ----------
    prompt_tokens : number or array
        Full prompt length [tokens].
    cached_prefix_tokens : number or array
        Length of the cacheable prefix, at most the prompt [tokens].
    hit_rate : number or array
        Probability the prefix is cached [1].

    Returns
    -------
    Tokens [tokens] = prompt − hit rate × prefix.
    """
    check.positive("prompt_tokens", prompt_tokens, check.MAX_TOKENS)
    check.non_negative("cached_prefix_tokens", cached_prefix_tokens, check.MAX_TOKENS)
    check.fraction("hit_rate", hit_rate)
    if check.any_true(cached_prefix_tokens > prompt_tokens):
        check.refuse("cached_prefix_tokens", "must not exceed prompt_tokens", cached_prefix_tokens)
    return prompt_tokens - hit_rate * cached_prefix_tokens


def random_routing_hit_rate(replicas, previous_requests):
    """Chance a randomly routed request finds its prefix, after earlier requests cached it.

    Parameters
    ----------
    replicas : int or array
        Replicas the router picks from uniformly, N.
    previous_requests : number or array
        Earlier requests with the same prefix, each cached where it ran, k.

    Returns
    -------
    Hit rate [1] = 1 − (1 − 1/N)^k, assuming no eviction. Cache-aware routing hits whenever
    k ≥ 1, so the gap is the cost of random routing.
    """
    check.positive_integer("replicas", replicas, check.MAX_DEVICES)
    check.non_negative("previous_requests", previous_requests, check.MAX_COUNT)
    return 1 - (1 - 1 / replicas) ** previous_requests


def random_routing_capacity_hit_rate(distinct_prefixes, prefixes_per_replica):
    """Prefix hit rate with random routing when cache capacity is the limit.

    Parameters
    ----------
    distinct_prefixes : number or array
        Equally popular prefixes in the traffic, P.
    prefixes_per_replica : number or array
        Prefixes one replica's cache holds, C.

    Returns
    -------
    Hit rate [1] = min(1, C / P): every replica sees every prefix, so adding replicas does not
    help.
    """
    check.positive("distinct_prefixes", distinct_prefixes, check.MAX_COUNT)
    check.positive("prefixes_per_replica", prefixes_per_replica, check.MAX_COUNT)
    return np.minimum(1.0, prefixes_per_replica / distinct_prefixes)


def cache_aware_routing_capacity_hit_rate(distinct_prefixes, prefixes_per_replica, replicas):
    """Prefix hit rate when a cache-aware router partitions prefixes over replicas.

    Parameters
    ----------
    distinct_prefixes : number or array
        Equally popular prefixes in the traffic, P.
    prefixes_per_replica : number or array
        Prefixes one replica's cache holds, C.
    replicas : int or array
        Replicas, N.

    Returns
    -------
    Hit rate [1] = min(1, N × C / P): the caches add up instead of holding copies.
    """
    check.positive("distinct_prefixes", distinct_prefixes, check.MAX_COUNT)
    check.positive("prefixes_per_replica", prefixes_per_replica, check.MAX_COUNT)
    check.positive_integer("replicas", replicas, check.MAX_DEVICES)
    return np.minimum(1.0, replicas * prefixes_per_replica / distinct_prefixes)
