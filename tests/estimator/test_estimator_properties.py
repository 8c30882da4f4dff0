"""Invariants that hold for every model, GPU, format and size (hypothesis property tests)."""

import math

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from problems.estimator import (
    _special,
    admission,
    batching,
    capacity,
    disaggregation,
    latency,
    memory,
    metrics,
    moe,
    paged_kv,
    parallelism,
    profiling,
    queueing,
    rollout,
    roofline,
    speculative,
)
from problems.estimator.catalogue import FORMATS, GPUS, MODELS

models = st.sampled_from(sorted(MODELS.values(), key=lambda m: m.key))
gpus = st.sampled_from([g for g in GPUS.values() if g.interconnect_bandwidth])
storage_formats = st.sampled_from(sorted(FORMATS.values(), key=lambda f: f.key))
tokens = st.integers(1, 200_000)
batches = st.integers(1, 4096)
fractions = st.floats(0, 1)
open_fractions = st.floats(0.001, 0.999)
BF16 = FORMATS["bf16"]


@given(models, storage_formats, tokens, tokens, st.integers(1, 500))
def test_kv_cache_grows_with_context_and_sequences(model, fmt, context_a, context_b, sequences):
    low, high = sorted((context_a, context_b))
    assert memory.kv_cache_bytes(model, fmt, low, sequences) <= memory.kv_cache_bytes(
        model, fmt, high, sequences
    )
    one = memory.kv_cache_bytes(model, fmt, low)
    assert memory.kv_cache_bytes(model, fmt, low, sequences) == pytest.approx(sequences * one)
    # Never more than every layer keeping every token.
    assert one <= memory.kv_bytes_per_token(model, fmt) * low * (1 + 1e-12)


@given(models, gpus, batches, batches, tokens, st.sampled_from([1, 2, 4, 8]))
def test_decode_step_time_grows_with_batch_and_context(model, gpu, batch_a, batch_b, context, tp):
    fp8 = FORMATS["fp8"]
    low, high = sorted((batch_a, batch_b))
    step = latency.decode_step_time(model, gpu, fp8, fp8, low, context, tp)
    assert step <= latency.decode_step_time(model, gpu, fp8, fp8, high, context, tp)
    assert step <= latency.decode_step_time(model, gpu, fp8, fp8, low, context + 1000, tp)


@given(models, st.integers(1, 100_000), st.integers(1, 100_000))
def test_moe_weight_reads_grow_with_batch_up_to_all_experts(model, batch_a, batch_b):
    low, high = sorted((batch_a, batch_b))
    small = roofline.decode_weight_bytes(model, BF16, low)
    assert small <= roofline.decode_weight_bytes(model, BF16, high)
    everything = (model.total_params - model.embedding_params) * 2
    assert roofline.decode_weight_bytes(model, BF16, high) <= everything * (1 + 1e-12)


@given(models, storage_formats, storage_formats, st.integers(1, 100_000))
def test_weight_reads_in_two_formats_lie_between_the_one_format_reads(model, experts, other, batch):
    mixed = roofline.decode_weight_bytes(model, experts, batch, other)
    bounds = sorted(roofline.decode_weight_bytes(model, f, batch) for f in (experts, other))
    assert bounds[0] * (1 - 1e-12) <= mixed <= bounds[1] * (1 + 1e-12)
    if not model.experts:  # a dense model is all "other"
        assert mixed == roofline.decode_weight_bytes(model, other, batch)
    # A prefill touches every expert: the stored mixed weights less the lookup-only table.
    lookup = 0 if model.tie_word_embeddings else model.embedding_params
    prefill = roofline.prefill_bytes(model, experts, BF16, 1, 1, other)
    stored = memory.weight_bytes_mixed(model, experts, other) - lookup * other.bytes_per_element
    assert prefill - memory.kv_cache_bytes(model, BF16, 1) == pytest.approx(stored, rel=1e-12)


@given(
    models,
    st.integers(1, 16_384),
    st.integers(0, 200_000),
    st.sampled_from([1, 2, 4, 8]),
    st.floats(0.05, 1),
)
def test_a_prefill_chunk_is_no_faster_than_its_compute_and_its_traffic(
    model, chunk, cached, tp, efficiency
):
    gpu, fp8 = GPUS["h100-sxm"], FORMATS["fp8"]
    time = batching.prefill_chunk_time(model, gpu, fp8, fp8, chunk, cached, fp8, tp, efficiency)
    flops = roofline.forward_flops_per_token(model) * chunk
    flops += roofline.attention_flops(model, chunk, cached)
    assert time >= flops / (gpu.fp8_flops * efficiency * tp) * (1 - 1e-12)
    weights = (model.total_params - model.embedding_params) * fp8.bytes_per_element
    assert time >= weights / tp / gpu.hbm_bandwidth * (1 - 1e-12)
    # Lower efficiency or fewer GPUs never make it faster.
    full = batching.prefill_chunk_time(model, gpu, fp8, fp8, chunk, cached, fp8, tp)
    single = batching.prefill_chunk_time(model, gpu, fp8, fp8, chunk, cached, fp8, 1, efficiency)
    assert full <= time * (1 + 1e-12) and time <= single * (1 + 1e-12)


@given(
    st.integers(1, 512),
    st.data(),
    st.floats(1, 1e7),
)
def test_distinct_experts_between_top_k_and_all(experts, data, tokens_routed):
    top_k = data.draw(st.integers(1, experts))
    touched = moe.expected_distinct_experts(experts, top_k, tokens_routed)
    assert top_k * (1 - 1e-9) <= touched <= min(experts, top_k * tokens_routed) * (1 + 1e-9)


@given(models, storage_formats, tokens, st.integers(1, 64), st.sampled_from([1, 2, 4, 8]))
def test_kv_bytes_are_conserved_across_tensor_parallel_shards(model, fmt, context, seqs, tp):
    total = memory.kv_cache_bytes(model, fmt, context, seqs)
    per_gpu = memory.kv_cache_bytes_per_gpu(model, fmt, context, seqs, tp)
    if model.kv_lora_rank:  # an MLA latent is replicated on every rank
        assert per_gpu == pytest.approx(total)
    elif model.kv_heads % tp == 0:
        assert per_gpu * tp == pytest.approx(total)
    else:
        assert per_gpu * tp >= total


@given(models, gpus, batches, tokens, st.sampled_from([2, 4, 8]))
def test_tensor_parallel_splits_the_memory_traffic_exactly(model, gpu, batch, context, tp):
    assume(not model.kv_lora_rank and model.kv_heads % tp == 0)
    one = latency.decode_memory_time(model, gpu, BF16, BF16, batch, context, 1)
    split = latency.decode_memory_time(model, gpu, BF16, BF16, batch, context, tp)
    assert split * tp == pytest.approx(one)


@given(st.floats(1, 1e12), st.integers(1, 1024))
def test_ring_all_reduce_moves_2_p_minus_1_messages_in_total(message, gpus_in_ring):
    total = gpus_in_ring * parallelism.ring_allreduce_bytes(message, gpus_in_ring)
    assert total == pytest.approx(2 * (gpus_in_ring - 1) * message)


@given(models, gpus, batches, tokens, st.sampled_from([1, 2, 4]))
def test_step_time_and_throughput_round_trip(model, gpu, batch, context, tp):
    step = latency.decode_step_time(model, gpu, BF16, BF16, batch, context, tp)
    rate = latency.decode_tokens_per_second(model, gpu, BF16, BF16, batch, context, tp)
    assert step * rate == pytest.approx(batch)


@given(models, storage_formats, tokens, st.floats(1e8, 1e13))
def test_transfer_time_and_bandwidth_round_trip(model, fmt, prompt, bandwidth):
    seconds = disaggregation.kv_transfer_time(model, fmt, prompt, bandwidth)
    moved = disaggregation.kv_transfer_bytes(model, fmt, prompt)
    assert seconds * bandwidth == pytest.approx(moved)


@given(st.floats(1e-5, 0.03), st.floats(1, 1e7), st.integers(1, 64))
def test_cost_per_token_times_throughput_is_the_spending_rate(price, rate, gpus_used):
    per_token = capacity.cost_per_million_tokens(price, rate, gpus_used)
    assert per_token * rate == pytest.approx(capacity.cost_per_day(gpus_used, price))
    assert per_token * rate == pytest.approx(price * gpus_used)


@given(st.floats(0.01, 1e4), st.floats(0.001, 1e3))
def test_littles_law_round_trips(rate, seconds):
    in_flight = metrics.littles_law_concurrency(rate, seconds)
    assert metrics.littles_law_arrival_rate(in_flight, seconds) == pytest.approx(rate)
    assert metrics.littles_law_time_in_system(in_flight, rate) == pytest.approx(seconds)


@given(fractions, st.integers(1, 64), st.floats(0, 2))
def test_speculative_speedup_never_exceeds_its_bounds(alpha, gamma, cost):
    expected = speculative.speculative_expected_tokens(alpha, gamma)
    assert 1 - 1e-12 <= expected <= gamma + 1 + 1e-12
    speedup = speculative.speculative_speedup(alpha, gamma, cost)
    assert speedup <= (gamma + 1) / (gamma * cost + 1) * (1 + 1e-12)
    if alpha < 1:
        assert speedup <= 1 / ((1 - alpha) * (gamma * cost + 1)) * (1 + 1e-12)


@given(st.integers(1, 64), st.floats(0, 0.99))
def test_break_even_acceptance_gives_speedup_one(gamma, cost):
    alpha = speculative.speculative_break_even_acceptance(gamma, cost)
    assert 0 <= alpha <= 1
    assert speculative.speculative_speedup(alpha, gamma, cost) == pytest.approx(1, rel=1e-9)


@given(fractions, st.floats(1, 1e6))
def test_amdahl_speedup_never_exceeds_its_limit(fraction, part_speedup):
    assume(fraction < 1)
    gain = profiling.amdahl_speedup(fraction, part_speedup)
    assert 1 - 1e-12 <= gain <= profiling.amdahl_limit(fraction) * (1 + 1e-12)


@given(st.integers(1, 64), st.integers(1, 10_000))
def test_pipeline_bubble_conventions_agree(stages, microbatches):
    of_total = parallelism.pipeline_bubble_fraction(stages, microbatches)
    over_ideal = parallelism.pipeline_bubble_over_ideal(stages, microbatches)
    assert of_total == pytest.approx(over_ideal / (1 + over_ideal))


@given(models, st.integers(1, 50_000), st.integers(0, 50_000))
def test_attention_flops_add_up_over_chunks(model, first, second):
    whole = roofline.attention_flops(model, first + max(second, 1))
    parts = roofline.attention_flops(model, first) + roofline.attention_flops(
        model, max(second, 1), first
    )
    assert parts == pytest.approx(whole, rel=1e-12)


@given(st.integers(1, 10**7), st.integers(1, 4096))
def test_paged_waste_is_less_than_a_block(length, block):
    waste = paged_kv.paged_waste_tokens(length, block)
    assert 0 <= waste <= block - 1


@given(st.floats(0, 1e4), st.lists(st.floats(0, 1e4), min_size=2, max_size=4))
def test_max_min_shares_fill_the_capacity_or_every_demand(capacity_total, demands):
    padded = demands + [0.0] * (4 - len(demands))
    level = admission.max_min_fair_level(capacity_total, *padded)
    shares = [min(d, level) for d in padded]
    assert sum(shares) == pytest.approx(min(capacity_total, sum(padded)), abs=1e-6)
    vectorised = admission.max_min_fair_level(np.array([capacity_total]), *padded)
    assert vectorised[0] == pytest.approx(level, abs=1e-9)


@given(st.floats(0.01, 100), st.floats(0.01, 100), st.integers(1, 200), open_fractions)
def test_mmc_with_one_server_is_mm1(arrival, extra, servers, percentile):
    service = arrival + extra
    assert queueing.erlang_c(arrival, service, 1) == pytest.approx(arrival / service)
    assert queueing.mmc_wait_percentile(arrival, service, 1, percentile) == pytest.approx(
        queueing.mm1_wait_percentile(arrival, service, percentile)
    )
    # More servers at the same per-server utilisation never make the wait likelier.
    load = arrival / service
    assume(load < 0.95)
    assert queueing.erlang_c(load * servers, 1, servers) <= load + 1e-12


@given(st.floats(0.1, 100), st.floats(0.01, 100), open_fractions, open_fractions)
def test_response_time_percentiles_grow_with_load_and_percentile(service, gap, p, q):
    arrival = service / (1 + gap)
    low, high = sorted((p, q))
    slow = queueing.mm1_response_time_percentile(arrival, service, high)
    assert queueing.mm1_response_time_percentile(arrival, service, low) <= slow
    lighter = queueing.mm1_response_time_percentile(arrival / 2, service, high)
    assert lighter <= slow


@given(st.floats(0.001, 0.5), st.floats(0.001, 0.5), st.floats(0.5, 0.99))
def test_canary_sample_size_falls_with_effect_and_rises_with_power(base, shift, power):
    canary = base + shift
    assume(canary < 0.999)
    smaller_effect = base + shift / 2
    n = rollout.canary_sample_size_proportions(base, canary, 0.05, power)
    assert rollout.canary_sample_size_proportions(base, smaller_effect, 0.05, power) >= n
    assert (
        rollout.canary_sample_size_proportions(base, canary, 0.05, min(power + 0.005, 0.999)) >= n
    )


@given(st.integers(1, 1000), st.floats(1, 1e4))
def test_static_batching_never_beats_continuous(batch, mean):
    longest = batching.expected_max_exponential(mean, batch)
    assert longest >= mean * (1 - 1e-12)
    static = batching.static_batching_throughput(batch, 0.02, mean, longest)
    assert static <= batching.continuous_batching_throughput(batch, 0.02, mean) * (1 + 1e-12)


@given(st.floats(1e-9, 1 - 1e-9))
def test_normal_quantile_inverts_the_cdf(probability):
    z = _special.normal_quantile(probability)
    assert _special.normal_cdf(z) == pytest.approx(probability, rel=2e-7, abs=1e-12)


def test_special_function_array_paths_match_the_standard_library():
    from statistics import NormalDist

    probabilities = np.concatenate([np.linspace(1e-12, 1 - 1e-12, 20_001), [1e-300, 0.975]])
    exact = np.array([NormalDist().inv_cdf(p) for p in probabilities])
    np.testing.assert_allclose(_special.normal_quantile(probabilities), exact, rtol=1e-14)
    x = np.linspace(-30, 30, 20_001)
    reference = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in x])
    nonzero = reference > 1e-300
    np.testing.assert_allclose(_special.normal_cdf(x)[nonzero], reference[nonzero], rtol=1.2e-7)
    assert _special.normal_cdf(1.5) == _special.normal_cdf(np.array([1.5]))[0]
    values = np.concatenate([np.linspace(1e-3, 60, 20_000), [1e5, 1e8]])
    lgamma = np.array([math.lgamma(v) for v in values])
    np.testing.assert_allclose(_special.log_gamma(values), lgamma, rtol=1e-13, atol=1e-13)
    n = np.arange(0, 3000)
    harmonic = np.concatenate([[0.0], np.cumsum(1 / np.arange(1, 3000))])
    np.testing.assert_allclose(_special.harmonic_number(n.astype(float)), harmonic, atol=1e-13)
