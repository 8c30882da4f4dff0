"""One worked example call of every registered function, with real catalogue entries.

``EXAMPLE_CALLS`` maps each name in :data:`registry.FUNCTIONS` to keyword arguments that make a
valid call, so the formula reference can show instructors a working call, the tests can perturb
each argument in turn, and the benchmark can time every function. A test fails when a function is
registered without an example.
"""

from .catalogue import FORMATS, GPUS, MODELS

L8 = MODELS["llama-3-8b"]
L70 = MODELS["llama-3-70b"]
MIXTRAL = MODELS["mixtral-8x7b"]
DEEPSEEK = MODELS["deepseek-v3"]
H100 = GPUS["h100-sxm"]
BF16 = FORMATS["bf16"]
FP8 = FORMATS["fp8"]

_DECODE = dict(
    model=L8,
    gpu=H100,
    weight_format=BF16,
    kv_format=BF16,
    batch_size=16,
    context_tokens=2000,
    tensor_parallel=2,
    compute_format=BF16,
)

EXAMPLE_CALLS = {
    # latency
    "time_to_first_token": dict(queue_time=0.1, prefill_time=0.25, network_time=0.03),
    "distance_during_latency": dict(speed=2.0, latency=0.4),
    "prefill_time": dict(
        model=L8,
        gpu=H100,
        weight_format=BF16,
        kv_format=BF16,
        prompt_tokens=2000,
        batch_size=2,
        tensor_parallel=2,
        compute_format=BF16,
        allreduce_latency=5e-6,
        other_format=BF16,
    ),
    "decode_compute_time": dict(
        model=L8,
        gpu=H100,
        batch_size=16,
        context_tokens=2000,
        tensor_parallel=2,
        compute_format=BF16,
    ),
    "decode_memory_time": dict(
        model=L8,
        gpu=H100,
        weight_format=BF16,
        kv_format=BF16,
        batch_size=16,
        context_tokens=2000,
        tensor_parallel=2,
        other_format=BF16,
    ),
    "decode_step_time": dict(_DECODE, allreduce_latency=5e-6, other_format=BF16),
    "decode_tokens_per_second": dict(_DECODE, allreduce_latency=5e-6, other_format=BF16),
    "end_to_end_latency": dict(first_token_time=0.4, time_per_output_token=0.02, output_tokens=500),
    # streaming
    "sse_framing_bytes": dict(event_name_bytes=5, id_bytes=3),
    "sse_overhead_bytes_per_token": dict(
        tokens_per_event=2, envelope_bytes=120, event_name_bytes=5, id_bytes=3
    ),
    "sse_overhead_fraction": dict(
        token_bytes=4.0, tokens_per_event=1, envelope_bytes=120, event_name_bytes=5, id_bytes=3
    ),
    "wasted_tokens_after_disconnect": dict(
        undetected_time=30.0, time_per_output_token=0.025, remaining_tokens=2000
    ),
    "wasted_gpu_seconds_after_disconnect": dict(undetected_time=30.0, batch_size=64, gpus=8),
    # memory
    "weight_bytes": dict(model=L70, weight_format=BF16),
    "weight_bytes_mixed": dict(model=MIXTRAL, expert_format=FP8, other_format=BF16),
    "kv_bytes_per_token": dict(model=L70, kv_format=BF16),
    "kv_bytes_per_token_mha": dict(model=L70, kv_format=BF16),
    "kv_cache_bytes": dict(model=L70, kv_format=BF16, context_tokens=32768, sequences=100),
    "kv_cache_bytes_per_gpu": dict(
        model=L70, kv_format=BF16, context_tokens=32768, sequences=100, tensor_parallel=8
    ),
    "usable_memory_bytes": dict(gpu=H100, gpus=2, usable_fraction=0.9),
    "gpus_needed": dict(total_bytes=1.2e12, gpu=H100, usable_fraction=0.9),
    "kv_budget_bytes": dict(model=L8, gpu=H100, weight_format=BF16, gpus=1, usable_fraction=0.9),
    "max_concurrent_sequences": dict(
        model=L8,
        gpu=H100,
        weight_format=BF16,
        kv_format=BF16,
        context_tokens=8192,
        gpus=1,
        usable_fraction=0.9,
    ),
    "max_kv_tokens": dict(
        model=L8, gpu=H100, weight_format=BF16, kv_format=BF16, gpus=1, usable_fraction=0.9
    ),
    # paged KV
    "kv_blocks": dict(tokens=100, block_size=16),
    "paged_waste_tokens": dict(tokens=100, block_size=16),
    "paged_fragmentation": dict(tokens=100, block_size=16),
    "expected_paged_waste_tokens": dict(block_size=16),
    "contiguous_waste_fraction": dict(max_tokens=2048, used_tokens=512),
    "contiguous_sequences": dict(kv_budget_tokens=100_000, max_tokens=2048),
    "paged_sequences": dict(kv_budget_tokens=100_000, mean_tokens=512, block_size=16),
    "paged_concurrency_gain": dict(max_tokens=2048, mean_tokens=512, block_size=16),
    # attention IO
    "attention_core_flops": dict(sequence_length=4096, head_dim=64, heads=2, batch_size=2),
    "naive_attention_hbm_bytes": dict(
        sequence_length=4096, head_dim=64, heads=2, batch_size=2, element_format=BF16
    ),
    "flash_attention_hbm_bytes": dict(
        sequence_length=4096,
        head_dim=64,
        sram_bytes=100e3,
        heads=2,
        batch_size=2,
        element_format=BF16,
    ),
    "fused_attention_hbm_bytes": dict(
        sequence_length=4096, head_dim=64, heads=2, batch_size=2, element_format=BF16
    ),
    "naive_attention_time": dict(
        sequence_length=4096, head_dim=64, gpu=H100, heads=2, batch_size=2, element_format=BF16
    ),
    "flash_attention_time": dict(
        sequence_length=4096,
        head_dim=64,
        sram_bytes=100e3,
        gpu=H100,
        heads=2,
        batch_size=2,
        element_format=BF16,
    ),
    "fused_attention_time": dict(
        sequence_length=4096, head_dim=64, gpu=H100, heads=2, batch_size=2, element_format=BF16
    ),
    # batching
    "expected_max_uniform": dict(low=10, high=1000, count=8),
    "expected_max_exponential": dict(mean=200.0, count=8),
    "expected_max_pareto": dict(scale=100.0, shape=2.0, count=8),
    "static_batching_utilization": dict(mean_output_tokens=500, expected_max_output_tokens=900),
    "continuous_batching_utilization": dict(mean_output_tokens=500, refill_steps=1),
    "static_batching_throughput": dict(
        batch_size=8,
        step_time=0.02,
        mean_output_tokens=500,
        expected_max_output_tokens=900,
        prefill_time=0.05,
    ),
    "continuous_batching_throughput": dict(
        batch_size=8, step_time=0.02, mean_output_tokens=500, prefill_time=0.05
    ),
    "prefill_chunks": dict(prompt_tokens=100_000, chunk_tokens=8192),
    "prefill_chunk_time": dict(
        model=L8,
        gpu=H100,
        weight_format=BF16,
        kv_format=BF16,
        chunk_tokens=8192,
        cached_tokens=16384,
        compute_format=BF16,
        tensor_parallel=2,
        efficiency=0.5,
        other_format=BF16,
    ),
    "chunked_prefill_max_stall": dict(
        model=L8,
        gpu=H100,
        weight_format=BF16,
        kv_format=BF16,
        prompt_tokens=100_000,
        chunk_tokens=8192,
        compute_format=BF16,
        tensor_parallel=2,
        efficiency=0.5,
        other_format=BF16,
    ),
    # admission
    "admitted_sequences": dict(kv_budget_bytes=55e9, kv_bytes_per_sequence=1.07e9),
    "max_min_fair_level": dict(
        capacity=100.0, demand_1=10.0, demand_2=50.0, demand_3=60.0, demand_4=5.0
    ),
    "max_min_fair_share": dict(
        capacity=100.0, demand=50.0, other_demand_1=10.0, other_demand_2=60.0, other_demand_3=5.0
    ),
    # prefix caching
    "prefix_cache_flops_saved": dict(model=L8, prefix_tokens=2000, hit_rate=0.5),
    "prefix_cache_time_saved": dict(
        model=L8,
        gpu=H100,
        prefix_tokens=2000,
        hit_rate=0.5,
        compute_format=BF16,
        tensor_parallel=2,
        efficiency=0.5,
    ),
    "cache_adjusted_prompt_tokens": dict(
        prompt_tokens=3000, cached_prefix_tokens=2000, hit_rate=0.6
    ),
    "random_routing_hit_rate": dict(replicas=8, previous_requests=5),
    "random_routing_capacity_hit_rate": dict(distinct_prefixes=1000, prefixes_per_replica=100),
    "cache_aware_routing_capacity_hit_rate": dict(
        distinct_prefixes=1000, prefixes_per_replica=100, replicas=8
    ),
    # disaggregation
    "kv_transfer_bytes": dict(model=L70, kv_format=BF16, prompt_tokens=4000),
    "kv_transfer_time": dict(
        model=L70, kv_format=BF16, prompt_tokens=4000, link_bandwidth=50e9, link_latency=1e-5
    ),
    "kv_transfer_break_even_bandwidth": dict(
        model=L70,
        gpu=H100,
        weight_format=BF16,
        kv_format=BF16,
        prompt_tokens=4000,
        tensor_parallel=2,
        compute_format=BF16,
        other_format=BF16,
    ),
    # speculative decoding
    "speculative_expected_tokens": dict(acceptance_rate=0.8, draft_tokens=4),
    "speculative_speedup": dict(acceptance_rate=0.8, draft_tokens=4, cost_ratio=0.05),
    "speculative_break_even_acceptance": dict(draft_tokens=4, cost_ratio=0.05),
    "speculative_speedup_with_costs": dict(
        acceptance_rate=0.8,
        draft_tokens=4,
        draft_step_time=0.002,
        verify_step_time=0.04,
        target_step_time=0.04,
    ),
    "speculative_verify_step_time": dict(
        target_model=L70,
        gpu=H100,
        weight_format=BF16,
        kv_format=BF16,
        batch_size=8,
        context_tokens=2000,
        draft_tokens=4,
        tensor_parallel=2,
        compute_format=BF16,
        other_format=BF16,
    ),
    "speculative_speedup_at_batch": dict(
        target_model=L70,
        draft_model=L8,
        gpu=H100,
        weight_format=BF16,
        kv_format=BF16,
        batch_size=8,
        context_tokens=2000,
        acceptance_rate=0.8,
        draft_tokens=4,
        tensor_parallel=2,
        compute_format=BF16,
        other_format=BF16,
    ),
    # queueing
    "erlang_c": dict(arrival_rate=2.0, service_rate=1.0, servers=3),
    "mmc_mean_wait": dict(arrival_rate=2.0, service_rate=1.0, servers=3),
    "mmc_wait_percentile": dict(arrival_rate=2.0, service_rate=1.0, servers=3, percentile=0.9),
    "mm1_wait_percentile": dict(arrival_rate=8.0, service_rate=10.0, percentile=0.99),
    "mm1_response_time_percentile": dict(arrival_rate=8.0, service_rate=10.0, percentile=0.99),
    "mm1_mean_response_time": dict(arrival_rate=8.0, service_rate=10.0),
    "mm1_slo_attainment": dict(arrival_rate=8.0, service_rate=10.0, slo=1.0),
    "lognormal_percentile": dict(median=1.0, sigma=1.0, percentile=0.99),
    "pareto_percentile": dict(scale=100.0, shape=1.5, percentile=0.99),
    # quantisation
    "fits_on_gpus": dict(model=L70, gpu=H100, weight_format=FP8, gpus=1, usable_fraction=0.9),
    "min_gpus_for_weights": dict(model=L70, gpu=H100, weight_format=BF16, usable_fraction=0.9),
    "decode_speedup_from_quantisation": dict(
        model=L70,
        gpu=H100,
        base_weight_format=BF16,
        weight_format=FP8,
        kv_format=BF16,
        batch_size=4,
        context_tokens=1000,
        tensor_parallel=2,
        base_compute_format=BF16,
        compute_format=FP8,
        other_format=BF16,
    ),
    # GPU comparison
    "decode_cost_per_million_tokens": dict(
        model=L8,
        gpu=H100,
        weight_format=BF16,
        kv_format=BF16,
        batch_size=64,
        context_tokens=2000,
        price_per_second=3.0 / 3600,
        tensor_parallel=1,
        compute_format=BF16,
        other_format=BF16,
    ),
    "decode_compute_to_memory_ratio": dict(_DECODE, other_format=BF16),
    "decode_critical_batch_size": dict(
        model=MIXTRAL, gpu=H100, weight_format=FP8, compute_format=BF16, other_format=BF16
    ),
    # roofline
    "peak_flops": dict(gpu=H100, compute_format=FP8),
    "ridge_point": dict(gpu=H100, compute_format=BF16),
    "arithmetic_intensity": dict(flops=1e12, bytes_moved=1e10),
    "attainable_flops": dict(intensity=100.0, gpu=H100, compute_format=BF16),
    "roofline_time": dict(flops=1e12, bytes_moved=1e10, gpu=H100, compute_format=BF16),
    "forward_flops_per_token": dict(model=L70),
    "attention_flops": dict(model=L8, new_tokens=1000, cached_tokens=500),
    "prefill_flops": dict(model=L8, prompt_tokens=1000, batch_size=2),
    "decode_flops": dict(model=L8, batch_size=16, context_tokens=2000),
    "decode_weight_bytes": dict(model=MIXTRAL, weight_format=FP8, batch_size=4, other_format=BF16),
    "decode_bytes": dict(
        model=MIXTRAL,
        weight_format=FP8,
        kv_format=BF16,
        batch_size=16,
        context_tokens=2000,
        other_format=BF16,
    ),
    "prefill_bytes": dict(
        model=MIXTRAL,
        weight_format=FP8,
        kv_format=BF16,
        prompt_tokens=1000,
        batch_size=2,
        other_format=BF16,
    ),
    "decode_arithmetic_intensity": dict(
        model=L8,
        weight_format=BF16,
        kv_format=BF16,
        batch_size=16,
        context_tokens=2000,
        other_format=BF16,
    ),
    "prefill_arithmetic_intensity": dict(
        model=L8,
        weight_format=BF16,
        kv_format=BF16,
        prompt_tokens=1000,
        batch_size=2,
        other_format=BF16,
    ),
    "model_flops_utilization": dict(
        model=L70, gpu=H100, tokens_per_second=10_000, compute_format=BF16, gpus=8
    ),
    "memory_bandwidth_utilization": dict(
        model=L8,
        gpu=H100,
        weight_format=BF16,
        kv_format=BF16,
        tokens_per_second=50,
        batch_size=1,
        context_tokens=1000,
        gpus=1,
        other_format=BF16,
    ),
    # profiling
    "timeline_share": dict(part_time=30.0, total_time=100.0),
    "amdahl_speedup": dict(fraction=0.6, part_speedup=4.0),
    "amdahl_limit": dict(fraction=0.6),
    "time_after_speedup": dict(total_time=100.0, part_time=60.0, part_speedup=4.0),
    "launch_bound_gpu_utilization": dict(
        kernel_count=300, launch_overhead=1e-5, gpu_busy_time=9e-4
    ),
    # fused kernels
    "rmsnorm_unfused_bytes": dict(tokens=4096, hidden_size=8192, element_format=BF16),
    "rmsnorm_fused_bytes": dict(tokens=4096, hidden_size=8192, element_format=BF16),
    "elementwise_chain_unfused_bytes": dict(
        elements=1e6, operations=3, extra_inputs=1, element_format=BF16
    ),
    "elementwise_chain_fused_bytes": dict(
        elements=1e6, operations=3, extra_inputs=1, element_format=BF16
    ),
    "memory_bound_time": dict(bytes_moved=4.7e8, gpu=H100),
    "fusion_speedup": dict(
        unfused_bytes=4.7e8,
        fused_bytes=1.34e8,
        gpu=H100,
        unfused_kernels=6,
        fused_kernels=1,
        launch_overhead=5e-6,
    ),
    # metrics
    "littles_law_concurrency": dict(arrival_rate=20.0, time_in_system=5.0),
    "littles_law_arrival_rate": dict(concurrency=100.0, time_in_system=5.0),
    "littles_law_time_in_system": dict(concurrency=100.0, arrival_rate=20.0),
    "cost_per_request": dict(price_per_second=3.0 / 3600, gpus=8, requests_per_second=10.0),
    "api_cost_per_request": dict(
        input_tokens=3000,
        output_tokens=500,
        price_per_input_token=3e-6,
        price_per_output_token=15e-6,
        cached_input_tokens=2000,
        price_per_cached_input_token=0.3e-6,
    ),
    "goodput": dict(requests_per_second=100.0, slo_attainment=0.9),
    "slo_attainment_lognormal": dict(median_latency=1.0, sigma=0.5, slo=2.0),
    # rollout
    "canary_sample_size_proportions": dict(
        baseline_rate=0.01, canary_rate=0.02, significance=0.05, power=0.8, tails=2
    ),
    "canary_sample_size_means": dict(
        standard_deviation=0.2, minimum_difference=0.02, significance=0.05, power=0.8, tails=2
    ),
    "canary_collection_time": dict(
        samples_per_group=2319, requests_per_second=100.0, canary_share=0.05
    ),
    # autoscaling
    "cold_start_time": dict(
        model=L70, weight_format=BF16, load_bandwidth=2e9, initialization_time=30.0
    ),
    "headroom_replicas": dict(load_ramp_rate=0.5, provisioning_time=120.0, replica_throughput=4.0),
    # parallelism
    "ring_allreduce_bytes": dict(message_bytes=1e9, gpus=8),
    "collective_bandwidth_per_direction": dict(gpu=H100, gpus=4),
    "tensor_parallel_allreduce_bytes": dict(
        model=L70, tokens=1, tensor_parallel=8, activation_format=BF16
    ),
    "tensor_parallel_allreduce_time": dict(
        model=L70,
        gpu=H100,
        tokens=16,
        tensor_parallel=8,
        activation_format=BF16,
        allreduce_latency=5e-6,
    ),
    "pipeline_bubble_fraction": dict(stages=4, microbatches=8),
    "pipeline_bubble_over_ideal": dict(stages=4, microbatches=8),
    "expert_parallel_weight_bytes_per_gpu": dict(
        model=DEEPSEEK, weight_format=FP8, expert_parallel=64
    ),
    "all_to_all_bytes_per_token": dict(model=DEEPSEEK, expert_parallel=64, activation_format=BF16),
    # MoE
    "expected_distinct_experts": dict(experts=8, experts_per_token=2, tokens=2),
    "model_distinct_experts": dict(model=MIXTRAL, tokens=2),
    # cost and capacity
    "cost_per_million_tokens": dict(price_per_second=3.0 / 3600, tokens_per_second=1000.0, gpus=1),
    "peak_requests_per_second": dict(
        daily_users=1_000_000, requests_per_user_per_day=10, peak_to_average=3.0
    ),
    "replicas_needed": dict(load=173_611.0, replica_throughput=2000.0, target_utilization=0.7),
    "cost_per_day": dict(gpus=125, price_per_second=3.0 / 3600),
    "combined_cost_reduction": dict(
        reduction_1=0.4, reduction_2=0.5, reduction_3=0.1, reduction_4=0.2
    ),
}
