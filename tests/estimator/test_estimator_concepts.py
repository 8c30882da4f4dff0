"""A hand-worked answer for every concept, and the published figures.

Each expected value is derived in the test from the architecture or the formula's definition,
with the arithmetic written out, never copied from the function under test.
"""

import math

import numpy as np
import pytest

from problems.estimator import (
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
from problems.estimator.catalogue import FORMATS, GPUS, MODELS

L8, L70, L405 = MODELS["llama-3-8b"], MODELS["llama-3-70b"], MODELS["llama-3.1-405b"]
MIXTRAL, DEEPSEEK, GPT_OSS = MODELS["mixtral-8x7b"], MODELS["deepseek-v3"], MODELS["gpt-oss-120b"]
H100, A100, L40S = GPUS["h100-sxm"], GPUS["a100-80gb"], GPUS["l40s"]
BF16, FP8, INT4, MXFP4 = FORMATS["bf16"], FORMATS["fp8"], FORMATS["int4"], FORMATS["mxfp4"]

# Matmul weights of Llama-3 (everything but the input embedding table), from the config.
L8_MATMUL = 8_030_261_248 - 128256 * 4096  # 7,504,924,672
L70_MATMUL = 70_553_706_496 - 128256 * 8192  # 69,503,033,344
L8_KV_PER_TOKEN = 2 * 32 * 8 * 128 * 2  # 131,072 B
L70_KV_PER_TOKEN = 2 * 80 * 8 * 128 * 2  # 327,680 B
# Attention FLOPs per (query, key) pair summed over layers: 2 · heads · (d_k + d_v) · layers.
L8_PAIR_FLOPS = 2 * 32 * (128 + 128) * 32  # 524,288
L70_PAIR_FLOPS = 2 * 64 * (128 + 128) * 80  # 2,621,440


# -- memory (problem 3) -------------------------------------------------------------------------


def test_published_llama_3_70b_kv_figures():
    assert memory.kv_bytes_per_token(L70, BF16) == 327_680
    total = memory.kv_cache_bytes(L70, BF16, 32_768, 100)
    assert total == 327_680 * 32_768 * 100
    assert round(total / 1e12, 2) == 1.07  # decimal TB


def test_mla_caches_the_latent_and_rope_key_only():
    # (kv_lora_rank 512 + rope dim 64) × 61 layers × 2 bytes
    assert memory.kv_bytes_per_token(DEEPSEEK, BF16) == (512 + 64) * 61 * 2 == 70_272
    # Decompressed MHA would hold 128 heads × (192-wide key + 128-wide value) per layer.
    assert memory.kv_bytes_per_token_mha(DEEPSEEK, BF16) == 61 * 128 * (192 + 128) * 2


def test_gqa_saves_query_heads_over_kv_heads():
    mha = memory.kv_bytes_per_token_mha(L70, BF16)
    assert mha == 80 * 64 * (128 + 128) * 2 == 8 * memory.kv_bytes_per_token(L70, BF16)


def test_sliding_window_layers_stop_growing_at_the_window():
    per_layer_token = 2 * 8 * 64 * 2  # 2,048 B
    assert memory.kv_bytes_per_token(GPT_OSS, BF16) == 36 * per_layer_token == 73_728
    context = 131_072
    expected = per_layer_token * (18 * context + 18 * 128)
    assert memory.kv_cache_bytes(GPT_OSS, BF16, context) == expected == 4_836_556_800
    # Within the window every layer grows.
    assert memory.kv_cache_bytes(GPT_OSS, BF16, 100) == 36 * per_layer_token * 100


def test_weights_and_gpus_needed_after_weights():
    weights = 70_553_706_496 * 2
    assert memory.weight_bytes(L70, BF16) == weights
    kv = 327_680 * 32_768 * 100
    # 80 GB × 0.9 usable per H100: (141.1 GB + 1,073.7 GB) / 72 GB = 16.9 → 17
    assert memory.gpus_needed(weights + kv, H100) == math.ceil((weights + kv) / 72e9) == 17


def test_gpt_oss_in_mxfp4_with_the_rest_in_bf16_fits_one_80_gb_gpu():
    expert = 3 * 2880 * 2880 + 2 * 2880 + 2880  # SwiGLU weights and biases
    routed = 36 * 128 * expert
    expected = routed * 4.25 / 8 + (116_829_156_672 - routed) * 2
    mixed = memory.weight_bytes_mixed(GPT_OSS, MXFP4, BF16)
    assert mixed == pytest.approx(expected, rel=1e-12)
    assert 65e9 < mixed < 65.3e9 < 72e9


def test_concurrent_sequences_after_the_weights():
    budget = 80e9 * 0.9 - 8_030_261_248 * 2
    assert memory.kv_budget_bytes(L8, H100, BF16) == pytest.approx(budget)
    per_sequence = L8_KV_PER_TOKEN * 8192  # 1.07 GB
    expected = math.floor(budget / per_sequence)  # 52
    assert memory.max_concurrent_sequences(L8, H100, BF16, BF16, 8192) == expected == 52
    assert memory.max_kv_tokens(L8, H100, BF16, BF16) == math.floor(budget / L8_KV_PER_TOKEN)
    # A model that does not fit leaves no room at all.
    assert memory.max_concurrent_sequences(L70, H100, BF16, BF16, 8192) == 0


def test_kv_heads_split_across_tensor_parallel_ranks_then_replicate():
    total = memory.kv_cache_bytes(L70, BF16, 4096, 10)
    assert memory.kv_cache_bytes_per_gpu(L70, BF16, 4096, 10, 8) == total / 8
    assert memory.kv_cache_bytes_per_gpu(L70, BF16, 4096, 10, 16) == total / 8  # 1 head each
    latent = memory.kv_cache_bytes(DEEPSEEK, BF16, 4096, 10)
    assert memory.kv_cache_bytes_per_gpu(DEEPSEEK, BF16, 4096, 10, 8) == latent


# -- paged KV (problem 4) -----------------------------------------------------------------------


def test_paged_blocks_and_fragmentation():
    assert paged_kv.kv_blocks(100, 16) == 7  # 6 full blocks hold 96 tokens
    assert paged_kv.paged_waste_tokens(100, 16) == 7 * 16 - 100 == 12
    assert paged_kv.paged_fragmentation(100, 16) == 12 / 112
    assert paged_kv.expected_paged_waste_tokens(16) == 7.5


def test_contiguous_reservation_against_paging():
    assert paged_kv.contiguous_waste_fraction(2048, 512) == 0.75
    assert paged_kv.contiguous_sequences(100_000, 2048) == 48  # 100,000 / 2,048 = 48.8
    assert paged_kv.paged_sequences(100_000, 512, 16) == 192  # 100,000 / 519.5 = 192.5
    assert paged_kv.paged_concurrency_gain(2048, 512, 16) == 2048 / 519.5


# -- attention IO (problem 5) -------------------------------------------------------------------


def test_naive_and_flash_attention_bytes():
    n, d = 4096, 64
    naive_elements = 4 * n * d + 4 * n * n  # read Q, K, V, P, S twice; write S, P, O
    assert attention_io.naive_attention_hbm_bytes(n, d) == naive_elements * 2 == 136_314_880
    sram_elements = 100_000 / 2
    key_block = math.ceil(sram_elements / (4 * d))  # 196
    outer = math.ceil(n / key_block)  # 21
    flash_elements = 3 * n * d + 2 * n + outer * (3 * n * d + 4 * n)
    assert (key_block, outer) == (196, 21)
    assert attention_io.flash_attention_hbm_bytes(n, d, 100e3) == flash_elements * 2
    assert flash_elements * 2 == 35_307_520


def test_attention_time_bounds_on_an_a100():
    n, d = 4096, 64
    flops = 4 * n * n * d  # QKᵀ and PV
    assert attention_io.attention_core_flops(n, d) == flops
    naive_memory = 136_314_880 / 2.039e12  # 66.9 µs, above the 13.8 µs of compute
    flash_memory = 35_307_520 / 2.039e12  # 17.3 µs
    assert attention_io.naive_attention_time(n, d, A100) == pytest.approx(naive_memory)
    assert attention_io.flash_attention_time(n, d, 100e3, A100) == pytest.approx(flash_memory)
    assert flops / 312e12 < flash_memory


def test_algorithm_1_is_memory_bound_where_a_fused_kernel_is_compute_bound():
    # N = 8,192, d = 128, 32 heads, BF16, M = 160 KiB on an H100 SXM (findings-1-5.md).
    n, d, heads = 8192, 128, 32
    flops = 4 * n * n * d * heads  # 1.10e12 FLOP: 1.11 ms at 989 TFLOP/s
    sram_elements = 160 * 1024 / 2
    outer = math.ceil(n / math.ceil(sram_elements / (4 * d)))  # 52 blocks of 160 keys
    flash = (3 * n * d + 2 * n + outer * (3 * n * d + 4 * n)) * 2 * heads  # 10.78 GB
    flash_time = attention_io.flash_attention_time(n, d, 160 * 1024, H100, heads)
    assert flash_time == pytest.approx(flash / 3.35e12) == pytest.approx(3.218e-3, rel=1e-3)
    assert flash_time > 2.8 * flops / 989e12  # memory-bound, whatever N
    # Its intensity is about M/(6d) = 107 FLOP/B (102 with the rounding of 51.2 blocks up to
    # 52 and the one-off terms), under the H100's ridge point of 295.
    assert flops / flash == pytest.approx(sram_elements / (6 * d), rel=0.05)
    # With 96 KiB of SRAM, Algorithm 1 moves more than standard attention (17.45 GB).
    naive = (4 * n * d + 4 * n * n) * 2 * heads
    assert attention_io.flash_attention_hbm_bytes(n, d, 96 * 1024, heads) > naive
    # FlashAttention-2/3: Q, K, V read and O written once, 4Nd elements per head: 268 MB.
    fused = 4 * n * d * 2 * heads
    assert attention_io.fused_attention_hbm_bytes(n, d, heads) == fused == 268_435_456
    fused_time = attention_io.fused_attention_time(n, d, H100, heads)
    assert fused_time == pytest.approx(flops / 989e12)  # compute-bound: 80 µs of memory
    # Intensity N/2 FLOP/B: at N = 512, under the ridge, the memory term wins.
    assert attention_io.fused_attention_time(512, d, H100) == pytest.approx(
        4 * 512 * d * 2 / 3.35e12
    )


# -- roofline and MFU / MBU (problems 12, 14) ---------------------------------------------------


def test_ridge_point_and_attainable_throughput():
    assert roofline.ridge_point(H100) == 989e12 / 3.35e12  # 295 FLOP/B
    assert roofline.ridge_point(H100, FP8) == 1979e12 / 3.35e12
    assert roofline.attainable_flops(100, H100) == 100 * 3.35e12
    assert roofline.attainable_flops(1000, H100) == 989e12
    assert roofline.roofline_time(1e12, 1e10, H100) == max(1e12 / 989e12, 1e10 / 3.35e12)
    assert roofline.arithmetic_intensity(1e12, 1e10) == 100


def test_forward_and_attention_flops():
    assert roofline.forward_flops_per_token(L70) == 2 * L70_MATMUL
    pairs = 1000 * 1001 / 2  # causal: token i attends to i positions
    assert roofline.attention_flops(L8, 1000) == L8_PAIR_FLOPS * pairs
    expected_prefill = 2 * (2 * L8_MATMUL * 1000 + L8_PAIR_FLOPS * pairs)
    assert roofline.prefill_flops(L8, 1000, 2) == expected_prefill


def test_sliding_window_attention_flops():
    pair = 2 * 64 * (64 + 64)  # per layer
    full = 1000 * 1001 / 2
    windowed = 128 * 129 / 2 + (1000 - 128) * 128  # positions past 128 see 128 keys
    expected = pair * (18 * full + 18 * windowed)
    assert roofline.attention_flops(GPT_OSS, 1000) == expected


def test_decode_reads_only_the_experts_the_batch_touches():
    expert = 3 * 4096 * 14336
    non_expert = 46_702_792_704 - 32000 * 4096 - 32 * 8 * expert
    # batch 1 touches exactly top-2 experts per layer
    assert roofline.decode_weight_bytes(MIXTRAL, BF16, 1) == (non_expert + 32 * 2 * expert) * 2
    # batch 2: 8 (1 − (6/8)²) = 3.5 experts per layer
    assert roofline.decode_weight_bytes(MIXTRAL, BF16, 2) == (non_expert + 32 * 3.5 * expert) * 2
    # FP8 experts around BF16 attention, embeddings and routers.
    mixed = non_expert * 2 + 32 * 2 * expert * 1
    assert roofline.decode_weight_bytes(MIXTRAL, FP8, 1, BF16) == pytest.approx(mixed, rel=1e-15)


def test_gpt_oss_reads_mxfp4_experts_and_bf16_everything_else():
    expert = 3 * 2880 * 2880 + 2 * 2880 + 2880  # SwiGLU weights and biases
    routed = 36 * 128 * expert
    lookup = 201_088 * 2880  # the input embedding table, not read in a matmul
    rest = 116_829_156_672 - routed - lookup
    # Batch 1 touches 4 of 128 experts in each of 36 layers.
    one = rest * 2 + 36 * 4 * expert * 4.25 / 8
    assert roofline.decode_weight_bytes(GPT_OSS, MXFP4, 1, BF16) == pytest.approx(one, rel=1e-12)
    all_mxfp4 = (rest + 36 * 4 * expert) * 4.25 / 8
    assert roofline.decode_weight_bytes(GPT_OSS, MXFP4, 1) == pytest.approx(all_mxfp4, rel=1e-12)
    # A prefill reads every weight once: weight_bytes_mixed less the lookup-only table.
    kv = memory.kv_cache_bytes(GPT_OSS, BF16, 1000)
    prefill = roofline.prefill_bytes(GPT_OSS, MXFP4, BF16, 1000, 1, BF16)
    stored = memory.weight_bytes_mixed(GPT_OSS, MXFP4, BF16)
    assert prefill == pytest.approx(stored - lookup * 2 + kv, rel=1e-12)
    # The decode step reads the difference too, at batch 1 memory-bound on an H100.
    extra = (one - all_mxfp4) / 3.35e12
    step = latency.decode_step_time(GPT_OSS, H100, MXFP4, BF16, 1, 1000, other_format=BF16)
    plain = latency.decode_step_time(GPT_OSS, H100, MXFP4, BF16, 1, 1000)
    assert step - plain == pytest.approx(extra, rel=1e-9)
    # A dense model has no routed experts: other_format then covers every weight.
    assert roofline.decode_weight_bytes(L8, FP8, 1, BF16) == roofline.decode_weight_bytes(
        L8, BF16, 1
    )


def test_mfu_and_mbu_from_observed_throughput():
    mfu = 10_000 * 2 * L70_MATMUL / (8 * 989e12)  # 17.6 %
    assert roofline.model_flops_utilization(L70, H100, 10_000, BF16, 8) == pytest.approx(mfu)
    step_bytes = L8_MATMUL * 2 + L8_KV_PER_TOKEN * 1000
    mbu = step_bytes * 50 / 3.35e12  # 50 steps/s at batch 1: 22.6 %
    result = roofline.memory_bandwidth_utilization(L8, H100, BF16, BF16, 50, 1, 1000)
    assert result == pytest.approx(mbu)
    assert round(result, 3) == 0.226


def test_decode_intensity_is_about_the_batch_at_short_context():
    flops = 64 * (2 * L8_MATMUL + L8_PAIR_FLOPS * 11)
    moved = L8_MATMUL * 2 + 64 * L8_KV_PER_TOKEN * 10
    assert roofline.decode_arithmetic_intensity(L8, BF16, BF16, 64, 10) == pytest.approx(
        flops / moved
    )
    assert 60 < flops / moved < 64


# -- latency (problems 1, 9) --------------------------------------------------------------------


def test_ttft_and_robot_distance():
    assert latency.time_to_first_token(0.1, 0.25, 0.03) == pytest.approx(0.38)
    assert latency.distance_during_latency(2.0, 0.38) == pytest.approx(0.76)
    assert latency.end_to_end_latency(0.4, 0.02, 501) == pytest.approx(0.4 + 500 * 0.02)


def test_prefill_time_of_llama_3_70b_on_one_h100():
    flops = 2000 * 2 * L70_MATMUL + L70_PAIR_FLOPS * 2000 * 2001 / 2  # 2.83e14
    assert latency.prefill_time(L70, H100, BF16, BF16, 2000) == pytest.approx(flops / 989e12)


def test_decode_step_of_llama_3_70b_is_memory_bound_at_batch_1():
    moved = L70_MATMUL * 2 + L70_KV_PER_TOKEN * 1000  # 139.3 GB
    step = latency.decode_step_time(L70, H100, BF16, BF16, 1, 1000)
    assert step == pytest.approx(moved / 3.35e12)  # 41.6 ms
    assert latency.decode_tokens_per_second(L70, H100, BF16, BF16, 1, 1000) == 1 / step


def test_tensor_parallel_decode_adds_all_reduces():
    # 8 GPUs: each reads 1/8 of weights and of the KV heads; 2 all-reduces per layer of
    # 8192 × 2 bytes, each GPU sending 2·7/8 of it at 450 GB/s per direction, + 5 µs each.
    memory_time = (L70_MATMUL * 2 + L70_KV_PER_TOKEN * 1000) / 8 / 3.35e12
    sent = 80 * 2 * 2 * 7 / 8 * 8192 * 2
    communication = sent / 450e9 + 160 * 5e-6
    step = latency.decode_step_time(L70, H100, BF16, BF16, 1, 1000, 8, BF16, 5e-6)
    assert step == pytest.approx(memory_time + communication)
    assert parallelism.tensor_parallel_allreduce_bytes(L70, 1, 8) == sent == 4_587_520


def test_a_collective_gets_only_the_links_between_its_gpus_without_a_switch():
    mi300x, h100 = GPUS["mi300x"], GPUS["h100-sxm"]
    # MI300X: one 128 GB/s link (64 each way) to each of 7 peers, no switch (AMD Instinct
    # MI300X platform data sheet).
    assert parallelism.collective_bandwidth_per_direction(mi300x, 2) == pytest.approx(64e9)
    assert parallelism.collective_bandwidth_per_direction(mi300x, 4) == pytest.approx(192e9)
    assert parallelism.collective_bandwidth_per_direction(mi300x, 8) == pytest.approx(448e9)
    assert parallelism.collective_bandwidth_per_direction(mi300x, 1) == 0
    # NVSwitch gives any group the full 450 GB/s each way.
    assert parallelism.collective_bandwidth_per_direction(h100, 2) == 450e9
    arrays = parallelism.collective_bandwidth_per_direction(mi300x, np.array([1, 2, 8]))
    assert arrays == pytest.approx([0, 64e9, 448e9])
    # So a TP-2 all-reduce on MI300X runs at one link's 64 GB/s, not 448.
    sent = parallelism.tensor_parallel_allreduce_bytes(L70, 1, 2)
    assert parallelism.tensor_parallel_allreduce_time(L70, mi300x, 1, 2) == pytest.approx(
        sent / 64e9
    )


def test_decode_becomes_compute_bound_at_large_batch():
    compute = 4096 * (2 * L8_MATMUL + L8_PAIR_FLOPS * 101) / 989e12
    moved = (L8_MATMUL * 2 + 4096 * L8_KV_PER_TOKEN * 100) / 3.35e12
    assert compute > moved
    assert latency.decode_step_time(L8, H100, BF16, BF16, 4096, 100) == pytest.approx(compute)
    assert latency.decode_compute_time(L8, H100, 4096, 100) == pytest.approx(compute)
    assert latency.decode_memory_time(L8, H100, BF16, BF16, 4096, 100) == pytest.approx(moved)


# -- streaming (problem 2) ----------------------------------------------------------------------


def test_sse_framing_and_disconnect_waste():
    assert streaming.sse_framing_bytes() == len(b"data: \n\n") == 8
    framing = len(b"event: token\n") + len(b"id: 123\n") + 8
    assert streaming.sse_framing_bytes(5, 3) == framing == 29
    assert streaming.sse_overhead_bytes_per_token(1, 120) == 128
    assert streaming.sse_overhead_fraction(4, 1, 120) == 128 / 132
    assert streaming.wasted_tokens_after_disconnect(30, 0.025) == pytest.approx(1200)
    # A response with 500 tokens left ends before the 30 s check: it wastes only those.
    assert streaming.wasted_tokens_after_disconnect(30, 0.025, 500) == 500
    assert streaming.wasted_tokens_after_disconnect(30, 0.025, 5000) == pytest.approx(1200)
    assert streaming.wasted_gpu_seconds_after_disconnect(30, 64, 8) == 30 * 8 / 64


# -- batching (problems 6, 7) -------------------------------------------------------------------


def test_expected_maxima():
    assert batching.expected_max_uniform(0, 1000, 8) == pytest.approx(1000 * 8 / 9)
    harmonic_8 = sum(1 / k for k in range(1, 9))  # 2.717857
    assert batching.expected_max_exponential(200, 8) == pytest.approx(200 * harmonic_8)
    # Pareto(100, α = 2), two draws: 100 · Γ(3) Γ(1/2) / Γ(5/2) = 100 · 2 / 0.75
    assert batching.expected_max_pareto(100, 2, 2) == pytest.approx(800 / 3)


def test_static_against_continuous_batching():
    longest = 1000 * 8 / 9  # uniform output lengths on [0, 1000], batch 8
    assert batching.static_batching_utilization(500, longest) == pytest.approx(500 / longest)
    static = 8 * 500 / (longest * 0.02)  # 225 tokens/s
    continuous = 8 * 500 / (500 * 0.02)  # 400 tokens/s
    assert batching.static_batching_throughput(8, 0.02, 500, longest) == pytest.approx(static)
    assert batching.continuous_batching_throughput(8, 0.02, 500) == pytest.approx(continuous)
    with_prefill = 8 * 500 / (8 * 0.05 + 500 * 0.02)
    assert batching.continuous_batching_throughput(8, 0.02, 500, 0.05) == pytest.approx(
        with_prefill
    )
    assert batching.continuous_batching_utilization(500, 1) == 500 / 501


def test_chunked_prefill_chunks_and_stall():
    assert batching.prefill_chunks(100_000, 8192) == 13  # 12.2 → 13
    # Chunk 12 (8,192 tokens after 90,112) is compute-bound and bigger than the last 1,696.
    cached = 11 * 8192
    pairs = 8192 * cached + 8192 * 8193 / 2
    flops = 2 * L8_MATMUL * 8192 + L8_PAIR_FLOPS * pairs
    stall = batching.chunked_prefill_max_stall(L8, H100, BF16, BF16, 100_000, 8192)
    assert stall == pytest.approx(flops / 989e12)  # 0.53 s
    whole = latency.prefill_time(L8, H100, BF16, BF16, 100_000)
    assert whole > 7 * stall  # without chunking, decoders wait the whole 4.2 s prefill


def test_chunked_prefill_on_eight_gpus_at_half_the_peak():
    # Llama-3.1-405B, FP8 weights, KV and multiplies, 8 H100 SXM at 50 % MFU: problem 7.
    matmul = 2 * (405_853_388_800 - 128_256 * 16_384)  # FLOP per token
    pair_flops = 2 * 128 * (128 + 128) * 126  # per (query, key) pair over 126 layers
    cached = 47 * 2048  # chunk 48 of 49; the last holds only 1,696 tokens
    pairs = 2048 * cached + 2048 * 2049 / 2
    flops = matmul * 2048 + pair_flops * pairs
    compute = flops / (8 * 1979e12 * 0.5)  # 0.42 s
    stall = batching.chunked_prefill_max_stall(L405, H100, FP8, FP8, 100_000, 2048, FP8, 8, 0.5)
    assert stall == pytest.approx(compute, rel=1e-9)
    assert stall == pytest.approx(0.4167, rel=1e-3)
    chunk = batching.prefill_chunk_time(L405, H100, FP8, FP8, 2048, cached, FP8, 8, 0.5)
    assert chunk == stall
    # One GPU at the full peak has 1 / (8 × 0.5) of that compute: 4 times as slow, 1.67 s.
    alone = batching.prefill_chunk_time(L405, H100, FP8, FP8, 2048, cached, FP8)
    assert alone == pytest.approx(stall * 4)
    # A memory-bound chunk is not slowed by the MFU: 16 tokens read every weight.
    small = batching.prefill_chunk_time(L8, H100, BF16, BF16, 16, 0)
    assert batching.prefill_chunk_time(L8, H100, BF16, BF16, 16, 0, efficiency=0.5) == small


# -- admission and fairness (problem 21) --------------------------------------------------------


def test_admission_and_max_min_fairness():
    assert admission.admitted_sequences(55.9e9, 1.0737e9) == 52
    # 100 units, demands 10, 50, 60: the 10 is met, the other two split 90 evenly.
    assert admission.max_min_fair_level(100, 10, 50, 60) == 45
    assert admission.max_min_fair_share(100, 50, 10, 60) == 45
    assert admission.max_min_fair_share(100, 10, 50, 60) == 10
    assert admission.max_min_fair_level(100, 10, 20) == 20  # everything fits


# -- prefix caching and routing (problem 8) -----------------------------------------------------


def test_prefix_cache_savings_and_routing():
    saved = 0.5 * (2 * L8_MATMUL * 2000 + L8_PAIR_FLOPS * 2000 * 2001 / 2)
    assert prefix_cache.prefix_cache_flops_saved(L8, 2000, 0.5) == pytest.approx(saved)
    assert prefix_cache.prefix_cache_time_saved(L8, H100, 2000, 0.5) == pytest.approx(
        saved / 989e12
    )
    on_four_at_40 = prefix_cache.prefix_cache_time_saved(L8, H100, 2000, 0.5, BF16, 4, 0.4)
    assert on_four_at_40 == pytest.approx(saved / (4 * 989e12 * 0.4))
    assert prefix_cache.cache_adjusted_prompt_tokens(3000, 2000, 0.6) == 1800
    assert prefix_cache.random_routing_hit_rate(8, 1) == 1 / 8
    assert prefix_cache.random_routing_hit_rate(8, 5) == pytest.approx(1 - (7 / 8) ** 5)
    assert prefix_cache.random_routing_capacity_hit_rate(1000, 100) == 0.1
    assert prefix_cache.cache_aware_routing_capacity_hit_rate(1000, 100, 8) == 0.8


# -- disaggregation (problem 22) ----------------------------------------------------------------


def test_kv_transfer_over_links():
    moved = L70_KV_PER_TOKEN * 4000  # 1.31 GB
    assert disaggregation.kv_transfer_bytes(L70, BF16, 4000) == moved
    assert disaggregation.kv_transfer_time(L70, BF16, 4000, 50e9) == moved / 50e9  # 26 ms IB
    assert disaggregation.kv_transfer_time(L70, BF16, 4000, 12.5e9) == moved / 12.5e9  # 105 ms
    prefill = (2 * L70_MATMUL * 4000 + L70_PAIR_FLOPS * 4000 * 4001 / 2) / 989e12
    assert disaggregation.kv_transfer_break_even_bandwidth(
        L70, H100, BF16, BF16, 4000
    ) == pytest.approx(moved / prefill)


# -- speculative decoding (problem 10) ----------------------------------------------------------


def test_published_speculative_decoding_numbers():
    expected = 1 + 0.8 + 0.8**2 + 0.8**3 + 0.8**4  # bonus token included
    assert speculative.speculative_expected_tokens(0.8, 4) == pytest.approx(expected)
    assert round(speculative.speculative_expected_tokens(0.8, 4), 4) == 3.3616
    assert round(speculative.speculative_speedup(0.8, 4, 0.05), 2) == 2.80
    assert speculative.speculative_expected_tokens(1, 4) == 5


def test_speculative_break_even_and_costs():
    alpha = speculative.speculative_break_even_acceptance(4, 0.05)
    assert 1 + alpha + alpha**2 + alpha**3 + alpha**4 == pytest.approx(1 + 4 * 0.05)
    assert speculative.speculative_speedup(alpha, 4, 0.05) == pytest.approx(1)
    result = speculative.speculative_speedup_with_costs(0.8, 4, 0.002, 0.04, 0.04)
    assert result == pytest.approx(3.3616 * 0.04 / (4 * 0.002 + 0.04))


def test_speculation_hurts_at_large_batch():
    # FP8 weights, BF16 KV, target on 2 GPUs. At batch 1 every step is memory-bound: the
    # 5-token verification reads the weights and KV once, like a normal step, and only its
    # all-reduces carry 5 tokens instead of 1.
    memory_time = (L70_MATMUL * 1 + L70_KV_PER_TOKEN * 1000) / 2 / 3.35e12
    all_reduce_per_token = 80 * 2 * 2 * (1 / 2) * 8192 * 2 / 450e9
    target = memory_time + all_reduce_per_token
    verify = memory_time + 5 * all_reduce_per_token
    draft = (L8_MATMUL * 1 + L8_KV_PER_TOKEN * 1000) / 3.35e12
    expected = 3.3616 * target / (4 * draft + verify)
    small = speculative.speculative_speedup_at_batch(L70, L8, H100, FP8, BF16, 1, 1000, 0.8, 4, 2)
    assert small == pytest.approx(expected, rel=1e-4)
    assert small > 1.5
    # At batch 1024 the target is compute-bound: verifying 5 tokens costs ~5 steps.
    large = speculative.speculative_speedup_at_batch(
        L70, L8, H100, FP8, BF16, 1024, 1000, 0.8, 4, 2
    )
    assert large < 1


# -- quantisation (problem 11) ------------------------------------------------------------------


def test_fits_and_gpus_for_weights():
    assert quantisation.fits_on_gpus(L70, H100, BF16) == 0  # 141 GB > 72 GB
    assert quantisation.fits_on_gpus(L70, H100, FP8) == 1  # 70.6 GB ≤ 72 GB
    assert quantisation.fits_on_gpus(L70, L40S, INT4) == 1  # 36.4 GB ≤ 43.2 GB
    weights = 405_853_388_800 * 2  # 811.7 GB
    assert quantisation.min_gpus_for_weights(L405, H100, BF16) == math.ceil(weights / 72e9) == 12


def test_quantisation_decode_speedup_at_batch_1():
    def step(bytes_per_weight):
        moved = (L70_MATMUL * bytes_per_weight + L70_KV_PER_TOKEN * 1000) / 2  # TP 2
        return moved / 3.35e12 + 80 * 2 * 2 * (1 / 2) * 8192 * 2 / 450e9

    result = quantisation.decode_speedup_from_quantisation(L70, H100, BF16, FP8, BF16, 1, 1000, 2)
    assert result == pytest.approx(step(2) / step(1))
    assert 1.9 < result < 2


# -- GPU comparison (problem 12) ----------------------------------------------------------------


def test_decode_cost_and_bound():
    compute = 64 * (2 * L8_MATMUL + L8_PAIR_FLOPS * 2001) / 989e12
    moved = (L8_MATMUL * 2 + 64 * L8_KV_PER_TOKEN * 2000) / 3.35e12
    step = max(compute, moved)  # memory-bound: 9.5 ms (15.0 GB weights + 16.8 GB KV) against 1.2 ms
    per_token = 3.0 / 3600 / (64 / step)  # $3/h in USD/s over the batch's tokens per second
    result = gpu_choice.decode_cost_per_million_tokens(L8, H100, BF16, BF16, 64, 2000, 3.0 / 3600)
    assert result == pytest.approx(per_token)
    # $/Mtok: 31.8 GB / 3.35 TB/s = 9.49 ms per step of 64 tokens at $3/h.
    assert result * 1e6 == pytest.approx(3 / 3600 * 9.49e-3 / 64 * 1e6, rel=2e-3)
    ratio = gpu_choice.decode_compute_to_memory_ratio(L8, H100, BF16, BF16, 64, 2000, 1)
    assert ratio == pytest.approx(compute / moved)
    # Dense BF16: the crossover batch is the ridge point (2 bytes and 2 FLOP per weight).
    assert gpu_choice.decode_critical_batch_size(L8, H100, BF16) == pytest.approx(989 / 3.35)


# -- profiling (problems 13, 14) ----------------------------------------------------------------


def test_timeline_amdahl_and_launch_bound():
    assert profiling.timeline_share(30, 100) == 0.3
    assert profiling.amdahl_speedup(0.6, 4) == pytest.approx(1 / (0.4 + 0.15))
    assert profiling.amdahl_limit(0.6) == pytest.approx(2.5)
    assert profiling.time_after_speedup(100, 60, 4) == 55
    # 300 launches × 10 µs = 3 ms of CPU for 0.9 ms of GPU work: the GPU is busy 30 %.
    assert profiling.launch_bound_gpu_utilization(300, 1e-5, 9e-4) == pytest.approx(0.3)


# -- fused kernels (problem 15) -----------------------------------------------------------------


def test_rmsnorm_fusion():
    n, h = 4096, 8192
    unfused = (7 * n * h + 6 * n + h) * 2  # six eager kernels
    fused = (2 * n * h + h) * 2
    assert fused_kernels.rmsnorm_unfused_bytes(n, h) == unfused == 469_827_584
    assert fused_kernels.rmsnorm_fused_bytes(n, h) == fused == 134_234_112
    assert fused_kernels.memory_bound_time(unfused, H100) == unfused / 3.35e12
    speedup = (unfused / 3.35e12 + 6 * 5e-6) / (fused / 3.35e12 + 5e-6)
    result = fused_kernels.fusion_speedup(unfused, fused, H100, 6, 1, 5e-6)
    assert result == pytest.approx(speedup)
    assert fused_kernels.elementwise_chain_unfused_bytes(1e6, 3) == 6 * 1e6 * 2
    assert fused_kernels.elementwise_chain_fused_bytes(1e6, 3) == 2 * 1e6 * 2
    assert fused_kernels.elementwise_chain_unfused_bytes(1e6, 3, 1) == 7 * 1e6 * 2


# -- metrics (problems 16, 18) ------------------------------------------------------------------


def test_littles_law_cost_and_goodput():
    assert metrics.littles_law_concurrency(20, 5) == 100
    assert metrics.littles_law_arrival_rate(100, 5) == 20
    assert metrics.littles_law_time_in_system(100, 20) == 5
    # 8 GPUs at $3/h are $0.00667/s; at 10 requests/s that is $0.000667 per request.
    assert metrics.cost_per_request(3.0 / 3600, 8, 10) == pytest.approx(6.667e-4, rel=1e-4)
    # $3, $0.30 and $15 per million tokens are 3e-6, 0.3e-6 and 15e-6 USD/token.
    api = (1000 * 3 + 2000 * 0.3 + 500 * 15) / 1e6  # 0.0111 USD
    assert metrics.api_cost_per_request(3000, 500, 3e-6, 15e-6, 2000, 0.3e-6) == pytest.approx(api)
    assert metrics.goodput(100, 0.9) == 90
    # Φ(ln 2 / 0.5) = Φ(1.386) = 0.9172
    assert metrics.slo_attainment_lognormal(1, 0.5, 2) == pytest.approx(
        0.5 * math.erfc(-math.log(2) / 0.5 / math.sqrt(2)), rel=2e-7
    )


# -- queueing (problem 17) ----------------------------------------------------------------------


def test_mm1_percentiles():
    # λ = 8/s, μ = 10/s: time in system ~ Exp(2/s)
    assert queueing.mm1_mean_response_time(8, 10) == 0.5
    p99 = queueing.mm1_response_time_percentile(8, 10, 0.99)
    p50 = queueing.mm1_response_time_percentile(8, 10, 0.5)
    assert p99 == pytest.approx(math.log(100) / 2)
    assert p99 / p50 == pytest.approx(math.log(100) / math.log(2))  # 6.64 at any load
    assert queueing.mm1_wait_percentile(8, 10, 0.99) == pytest.approx(math.log(0.8 / 0.01) / 2)
    assert queueing.mm1_wait_percentile(8, 10, 0.1) == 0  # 20 % never wait
    assert queueing.mm1_slo_attainment(8, 10, 1) == pytest.approx(1 - math.exp(-2))


def test_erlang_c_textbook_case():
    # a = 2 erlangs on 3 servers: Σ_{k<3} a^k/k! = 5, a³/3! · 3/(3 − 2) = 4, C = 4/9
    assert queueing.erlang_c(2, 1, 3) == pytest.approx(4 / 9)
    assert queueing.mmc_mean_wait(2, 1, 3) == pytest.approx(4 / 9)
    assert queueing.mmc_wait_percentile(2, 1, 3, 0.9) == pytest.approx(math.log((4 / 9) / 0.1))


def test_erlang_c_against_the_factorial_formula():
    def direct(a, c):
        top = a**c / math.factorial(c) * c / (c - a)
        return top / (sum(a**k / math.factorial(k) for k in range(c)) + top)

    for a, c in [(15.0, 20), (0.5, 1), (7.3, 8), (90.0, 100)]:
        assert queueing.erlang_c(a, 1.0, c) == pytest.approx(direct(a, c), rel=1e-10)
    loads, servers = np.array([15.0, 7.3]), np.array([20, 8])
    np.testing.assert_allclose(
        queueing.erlang_c(loads, 1.0, servers), [direct(15.0, 20), direct(7.3, 8)], rtol=1e-10
    )


def test_heavy_tail_percentiles():
    assert queueing.lognormal_percentile(1, 1, 0.99) == pytest.approx(math.exp(2.3263478740))
    ratio = queueing.pareto_percentile(100, 1.5, 0.99) / queueing.pareto_percentile(100, 1.5, 0.5)
    assert ratio == pytest.approx(50 ** (1 / 1.5))  # 13.6


# -- rollout (problem 19) -----------------------------------------------------------------------


def test_canary_sample_sizes():
    z_alpha, z_beta = 1.959963984540054, 0.8416212335729143
    pooled = 0.015
    n = (z_alpha * math.sqrt(2 * pooled * (1 - pooled)) + z_beta * math.sqrt(0.0099 + 0.0196)) ** 2
    n /= 0.01**2
    assert rollout.canary_sample_size_proportions(0.01, 0.02) == math.ceil(n) == 2319
    means = 2 * (z_alpha + z_beta) ** 2 * (0.2 / 0.02) ** 2  # 1,569.8
    assert rollout.canary_sample_size_means(0.2, 0.02) == math.ceil(means) == 1570
    one_sided = rollout.canary_sample_size_proportions(0.01, 0.02, 0.05, 0.8, 1)
    assert one_sided < 2319
    assert rollout.canary_collection_time(2319, 100, 0.05) == pytest.approx(2319 / 5)


# -- autoscaling (problem 20) -------------------------------------------------------------------


def test_cold_start_and_headroom():
    weights = 70_553_706_496 * 2
    assert autoscaling.cold_start_time(L70, BF16, 2e9, 30) == pytest.approx(weights / 2e9 + 30)
    assert autoscaling.headroom_replicas(0.5, 120, 4) == 15  # 60 requests/s more by then


# -- parallelism (problem 23) -------------------------------------------------------------------


def test_pipeline_bubble_conventions():
    assert parallelism.pipeline_bubble_fraction(4, 8) == 3 / 11
    assert parallelism.pipeline_bubble_over_ideal(4, 8) == 3 / 8
    assert parallelism.ring_allreduce_bytes(1e9, 8) == 1.75e9


def test_expert_parallel_memory_and_all_to_all():
    expert = 3 * 7168 * 2048
    routed = 58 * 256 * expert
    replicated = 671_026_419_200 - routed
    expected = replicated + 4 / 256 * routed  # 64 GPUs hold 4 experts per layer each
    result = parallelism.expert_parallel_weight_bytes_per_gpu(DEEPSEEK, FP8, 64)
    assert result == expected == 27_334_972_928
    per_token = 58 * 2 * 8 * 7168 * 2 * 63 / 64
    assert parallelism.all_to_all_bytes_per_token(DEEPSEEK, 64) == per_token


def test_distinct_experts():
    assert moe.expected_distinct_experts(8, 2, 1) == pytest.approx(2)
    assert moe.expected_distinct_experts(8, 2, 2) == pytest.approx(8 * (1 - 0.75**2))
    assert moe.model_distinct_experts(MIXTRAL, 2) == pytest.approx(3.5)
    assert moe.expected_distinct_experts(256, 8, 64) == pytest.approx(256 * (1 - (248 / 256) ** 64))


# -- cost and capacity (problems 24, 25) --------------------------------------------------------


def test_capstone_one_million_daily_users():
    peak = 1_000_000 * 10 / 86_400 * 3  # 347 requests/s at 3× the average
    assert capacity.peak_requests_per_second(1_000_000, 10, 3) == pytest.approx(peak)
    tokens = peak * 500  # 173,611 tokens/s
    gpus = math.ceil(tokens / (2000 * 0.7))  # 125
    assert capacity.replicas_needed(tokens, 2000, 0.7) == gpus == 125
    # 125 GPUs at $3/h spend $9,000 a day: a rate of 9000 / 86,400 USD/s.
    assert capacity.cost_per_day(gpus, 3.0 / 3600) * 86_400 == pytest.approx(9000)
    # $3/h at 1,000 tokens/s: $0.833 per million tokens, 8.33e-7 USD/token.
    assert capacity.cost_per_million_tokens(3.0 / 3600, 1000) * 1e6 == pytest.approx(0.8333, 1e-4)


def test_cost_levers_compound():
    assert capacity.combined_cost_reduction(0.4, 0.5) == pytest.approx(0.7)
    assert capacity.combined_cost_reduction(0.4, 0.5, 0.5) == pytest.approx(0.85)


# -- the edge device (problem 1's robot) --------------------------------------------------------


def test_jetson_orin_decodes_alone_and_refuses_tensor_parallelism():
    orin = GPUS["jetson-agx-orin-64gb"]
    moved = L8_MATMUL * 4.125 / 8 + L8_KV_PER_TOKEN * 500  # INT4 weights, 16-bit KV
    step = latency.decode_step_time(L8, orin, INT4, BF16, 1, 500)
    assert step == pytest.approx(moved / 204.8e9)  # about 19 ms per token
    # At 2 m/s the robot covers 2 × (TTFT + 10 tokens) before a 10-token command is out.
    first = latency.prefill_time(L8, orin, INT4, BF16, 200)
    assert first == pytest.approx((2 * L8_MATMUL * 200 + L8_PAIR_FLOPS * 200 * 201 / 2) / 42.5e12)
    travelled = latency.distance_during_latency(2.0, first + 10 * step)
    assert travelled == pytest.approx(2.0 * (first + 10 * step))
    assert parallelism.tensor_parallel_allreduce_time(L8, orin, 1, 1) == 0
    with pytest.raises(ValueError, match="tensor_parallel"):
        latency.decode_step_time(L8, orin, INT4, BF16, 1, 500, 2)


def test_formats_without_tensor_cores_are_refused_as_compute_formats():
    with pytest.raises(ValueError, match="compute_format"):
        roofline.peak_flops(A100, FP8)
    with pytest.raises(ValueError, match="compute_format"):
        roofline.peak_flops(H100, INT4)
    assert roofline.peak_flops(GPUS["b200"], FORMATS["nvfp4"]) == 9000e12
