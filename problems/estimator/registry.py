"""The functions scenario formulas may call: ``FUNCTIONS``, name -> function.

Only these names are reachable from formulas. Every one validates its own arguments (raising a
``ValueError`` that names the bad argument), takes numbers or numpy arrays (broadcasting) and
catalogue entries, and returns a number or an array in SI base units. The first line of each
docstring is the one-sentence summary shown to instructors in the formula reference.
"""

import functools
import inspect
import math

import numpy as np
from numpy import ndarray

from . import (
    _special,
    admission,
    attention_io,
    autoscaling,
    batching,
    capacity,
    disaggregation,
    fused_kernels,
    gpu_choice,
    latency,
    memory,
    metrics,
    moe,
    paged_kv,
    parallelism,
    prefix_cache,
    profiling,
    quantisation,
    queueing,
    rollout,
    roofline,
    speculative,
    streaming,
)

# One tuple per concept module, in the order of the course's pages.
_BY_MODULE = (
    (
        latency,
        (
            "time_to_first_token",
            "distance_during_latency",
            "prefill_time",
            "decode_compute_time",
            "decode_memory_time",
            "decode_step_time",
            "decode_tokens_per_second",
            "end_to_end_latency",
        ),
    ),
    (
        streaming,
        (
            "sse_framing_bytes",
            "sse_overhead_bytes_per_token",
            "sse_overhead_fraction",
            "wasted_tokens_after_disconnect",
            "wasted_gpu_seconds_after_disconnect",
        ),
    ),
    (
        memory,
        (
            "weight_bytes",
            "weight_bytes_mixed",
            "kv_bytes_per_token",
            "kv_bytes_per_token_mha",
            "kv_cache_bytes",
            "kv_cache_bytes_per_gpu",
            "usable_memory_bytes",
            "gpus_needed",
            "kv_budget_bytes",
            "max_concurrent_sequences",
            "max_kv_tokens",
        ),
    ),
    (
        paged_kv,
        (
            "kv_blocks",
            "paged_waste_tokens",
            "paged_fragmentation",
            "expected_paged_waste_tokens",
            "contiguous_waste_fraction",
            "contiguous_sequences",
            "paged_sequences",
            "paged_concurrency_gain",
        ),
    ),
    (
        attention_io,
        (
            "attention_core_flops",
            "naive_attention_hbm_bytes",
            "flash_attention_hbm_bytes",
            "fused_attention_hbm_bytes",
            "naive_attention_time",
            "flash_attention_time",
            "fused_attention_time",
        ),
    ),
    (
        batching,
        (
            "expected_max_uniform",
            "expected_max_exponential",
            "expected_max_pareto",
            "static_batching_utilization",
            "continuous_batching_utilization",
            "static_batching_throughput",
            "continuous_batching_throughput",
            "prefill_chunks",
            "prefill_chunk_time",
            "chunked_prefill_max_stall",
        ),
    ),
    (
        admission,
        ("admitted_sequences", "max_min_fair_level", "max_min_fair_share"),
    ),
    (
        prefix_cache,
        (
            "prefix_cache_flops_saved",
            "prefix_cache_time_saved",
            "cache_adjusted_prompt_tokens",
            "random_routing_hit_rate",
            "random_routing_capacity_hit_rate",
            "cache_aware_routing_capacity_hit_rate",
        ),
    ),
    (
        disaggregation,
        ("kv_transfer_bytes", "kv_transfer_time", "kv_transfer_break_even_bandwidth"),
    ),
    (
        speculative,
        (
            "speculative_expected_tokens",
            "speculative_speedup",
            "speculative_break_even_acceptance",
            "speculative_speedup_with_costs",
            "speculative_verify_step_time",
            "speculative_speedup_at_batch",
        ),
    ),
    (
        queueing,
        (
            "erlang_c",
            "mmc_mean_wait",
            "mmc_wait_percentile",
            "mm1_wait_percentile",
            "mm1_response_time_percentile",
            "mm1_mean_response_time",
            "mm1_slo_attainment",
            "lognormal_percentile",
            "pareto_percentile",
        ),
    ),
    (
        quantisation,
        ("fits_on_gpus", "min_gpus_for_weights", "decode_speedup_from_quantisation"),
    ),
    (
        gpu_choice,
        (
            "decode_cost_per_million_tokens",
            "decode_compute_to_memory_ratio",
            "decode_critical_batch_size",
        ),
    ),
    (
        roofline,
        (
            "peak_flops",
            "ridge_point",
            "arithmetic_intensity",
            "attainable_flops",
            "roofline_time",
            "forward_flops_per_token",
            "attention_flops",
            "prefill_flops",
            "decode_flops",
            "decode_weight_bytes",
            "decode_bytes",
            "prefill_bytes",
            "decode_arithmetic_intensity",
            "prefill_arithmetic_intensity",
            "model_flops_utilization",
            "memory_bandwidth_utilization",
        ),
    ),
    (
        profiling,
        (
            "timeline_share",
            "amdahl_speedup",
            "amdahl_limit",
            "time_after_speedup",
            "launch_bound_gpu_utilization",
        ),
    ),
    (
        fused_kernels,
        (
            "rmsnorm_unfused_bytes",
            "rmsnorm_fused_bytes",
            "elementwise_chain_unfused_bytes",
            "elementwise_chain_fused_bytes",
            "memory_bound_time",
            "fusion_speedup",
        ),
    ),
    (
        metrics,
        (
            "littles_law_concurrency",
            "littles_law_arrival_rate",
            "littles_law_time_in_system",
            "cost_per_request",
            "api_cost_per_request",
            "goodput",
            "slo_attainment_lognormal",
        ),
    ),
    (
        rollout,
        (
            "canary_sample_size_proportions",
            "canary_sample_size_means",
            "canary_collection_time",
        ),
    ),
    (
        autoscaling,
        ("cold_start_time", "headroom_replicas"),
    ),
    (
        parallelism,
        (
            "ring_allreduce_bytes",
            "collective_bandwidth_per_direction",
            "tensor_parallel_allreduce_bytes",
            "tensor_parallel_allreduce_time",
            "pipeline_bubble_fraction",
            "pipeline_bubble_over_ideal",
            "expert_parallel_weight_bytes_per_gpu",
            "all_to_all_bytes_per_token",
        ),
    ),
    (
        moe,
        ("expected_distinct_experts", "model_distinct_experts"),
    ),
    (
        capacity,
        (
            "cost_per_million_tokens",
            "peak_requests_per_second",
            "replicas_needed",
            "cost_per_day",
            "combined_cost_reduction",
        ),
    ),
)


def _in_blocks(function):
    """Wrap an elementwise estimator function to evaluate large arrays in cache-sized blocks.

    Every registered function is elementwise in its array arguments, so a call over 100,000
    draws can run as a few calls over blocks of ``_special.BLOCK`` draws whose temporaries stay
    in cache: about twice as fast on the development machine, with the same values (identical
    for closed forms; an iterative solver may stop a block a step earlier, below 1e-15). Scalars
    and small arrays go straight through. If a block is refused, the whole call is repeated so
    the ValueError names the position in the caller's array.
    """
    signature = inspect.signature(function)

    block = _special.BLOCK

    @functools.wraps(function)
    def call(*args, **kwargs):
        # Plain loops: this test runs on every scalar call, so it must cost next to nothing.
        for value in args:
            if type(value) is ndarray and value.size > block:
                return _blocked(args, kwargs)
        for value in kwargs.values():
            if type(value) is ndarray and value.size > block:
                return _blocked(args, kwargs)
        return function(*args, **kwargs)

    def _blocked(args, kwargs):
        try:
            bound = signature.bind(*args, **kwargs)
            arrays = {
                name: value
                for name, value in bound.arguments.items()
                if isinstance(value, np.ndarray)
            }
            shape = np.broadcast_shapes(*(value.shape for value in arrays.values()))
        except (TypeError, ValueError):
            return function(*args, **kwargs)  # let the function itself report the problem
        flat = {name: np.broadcast_to(value, shape).ravel() for name, value in arrays.items()}
        size = math.prod(shape)
        result = np.empty(size)
        try:
            for start in range(0, size, block):
                stop = start + block
                part = {name: values[start:stop] for name, values in flat.items()}
                result[start:stop] = function(**dict(bound.arguments, **part))
        except ValueError:
            return function(*args, **kwargs)  # raises again, with whole-array positions
        return result.reshape(shape)

    return call


FUNCTIONS = {
    name: _in_blocks(getattr(module, name)) for module, names in _BY_MODULE for name in names
}

CONCEPTS = {module.__name__.rsplit(".", 1)[-1]: names for module, names in _BY_MODULE}
"""Registered function names per concept module (for the formula reference and the benchmark)."""


def summary(name):
    """The first line of a registered function's docstring, as shown to instructors."""
    return FUNCTIONS[name].__doc__.strip().splitlines()[0]
