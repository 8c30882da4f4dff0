"""Batching: static against continuous batching, and chunked prefill.

Static batching starts B requests together and frees no slot until the longest finishes, so a
batch runs for E[max of B output lengths] steps while producing only B × mean tokens. Continuous
(iteration-level) batching refills a slot as soon as its sequence ends, so slots stay busy while
the queue is non-empty. Slot utilisation is mean / E[max] for static batching and close to 1 for
continuous batching.

Prefill is counted per request: ``prefill_time`` is the time to prefill one request's prompt
(compute-bound, so B prompts take about B times as long). Without chunking, a long prompt's
prefill holds every decoding user for its whole duration; chunked prefill splits it into chunks
of ``chunk_tokens`` that share iterations with decode steps, so each decode step is delayed by one
chunk at most.

Expected maxima of B independent draws (order statistics):

- uniform on [a, b]: a + (b − a) · B / (B + 1);
- exponential with mean μ: μ · H_B (harmonic number);
- Pareto with scale x_m and shape α > 1: x_m · Γ(B + 1) Γ(1 − 1/α) / Γ(B + 1 − 1/α), which grows
  like B^(1/α): heavy tails make static batching much worse.

References
----------
G.-I. Yu et al., "Orca: A Distributed Serving System for Transformer-Based Generative Models",
OSDI 2022 (iteration-level scheduling); A. Agrawal et al., "Taming Throughput-Latency Tradeoff in
LLM Inference with Sarathi-Serve", OSDI 2024 (chunked prefill, stall-free batching); H. A. David
and H. N. Nagaraja, "Order Statistics", 3rd ed., Wiley 2003.
"""

import numpy as np

from . import _special
from . import _validate as check
from .catalogue import FORMATS, GPU, Model, NumberFormat
from .memory import kv_cache_bytes_per_gpu
from .roofline import (
    attention_flops,
    forward_flops_per_token,
    matmul_weight_bytes,
    non_expert_format,
    peak_flops,
)

BF16 = FORMATS["bf16"]


def expected_max_uniform(low, high, count):
    """Expected largest of ``count`` independent draws from a uniform distribution on [low, high].

    Parameters
    ----------
    low, high : number or array
        Range of the output length [tokens], low < high.
    count : number or array
        Draws, e.g. the static batch size.

    Returns
    -------
    Expected maximum [tokens] = low + (high − low) × count / (count + 1).
    """
    check.non_negative("low", low, check.MAX_TOKENS)
    check.positive("high", high, check.MAX_TOKENS)
    check.positive("count", count, check.MAX_COUNT)
    if check.any_true(low >= high):
        check.refuse("high", "must be above low", high)
    return low + (high - low) * count / (count + 1)


def expected_max_exponential(mean, count):
    """Expected largest of ``count`` independent exponential draws.

    Parameters
    ----------
    mean : number or array
        Mean of each draw (e.g. mean output length) [tokens].
    count : number or array
        Draws, e.g. the static batch size.

    Returns
    -------
    Expected maximum [same unit as mean] = mean × H(count) (H(1) = 1, H(8) ≈ 2.718).
    """
    check.positive("mean", mean, check.MAX_TOKENS)
    check.positive("count", count, check.MAX_COUNT)
    return mean * _special.harmonic_number(count)


def expected_max_pareto(scale, shape, count):
    """Expected largest of ``count`` independent Pareto draws (a heavy-tailed length model).

    Parameters
    ----------
    scale : number or array
        Minimum value x_m [tokens].
    shape : number or array
        Tail index α, above 1 (the mean is α x_m / (α − 1)).
    count : number or array
        Draws.

    Returns
    -------
    Expected maximum [tokens] = x_m Γ(count + 1) Γ(1 − 1/α) / Γ(count + 1 − 1/α).
    """
    check.positive("scale", scale, check.MAX_TOKENS)
    check.positive("shape", shape, 1e3)
    check.positive("count", count, check.MAX_COUNT)
    if check.any_true(shape <= 1):
        check.refuse("shape", "must be above 1 for the expected maximum to be finite", shape)
    inverse = 1 / shape
    log_ratio = (
        _special.log_gamma(count + 1.0)
        + _special.log_gamma(1 - inverse)
        - _special.log_gamma(count + 1.0 - inverse)
    )
    return scale * np.exp(log_ratio)


def static_batching_utilization(mean_output_tokens, expected_max_output_tokens):
    """Share of slot-steps doing useful work when a static batch waits for its longest sequence.

    Parameters
    ----------
    mean_output_tokens : number or array
        Mean output length [tokens].
    expected_max_output_tokens : number or array
        Expected longest output in the batch (see the expected_max_* functions) [tokens].

    Returns
    -------
    Utilisation [1] = mean / expected maximum.
    """
    check.positive("mean_output_tokens", mean_output_tokens, check.MAX_TOKENS)
    check.positive("expected_max_output_tokens", expected_max_output_tokens, check.MAX_TOKENS)
    if check.any_true(expected_max_output_tokens < mean_output_tokens):
        check.refuse(
            "expected_max_output_tokens", "must be at least the mean", expected_max_output_tokens
        )
    return mean_output_tokens / expected_max_output_tokens


def continuous_batching_utilization(mean_output_tokens, refill_steps=0):
    """Share of slot-steps doing useful work when freed slots are refilled at the next iteration.

    Parameters
    ----------
    mean_output_tokens : number or array
        Mean output length [tokens].
    refill_steps : number or array, default 0
        Steps a freed slot stays empty before a waiting request joins (0 with a non-empty queue
        and iteration-level scheduling) [steps].

    Returns
    -------
    Utilisation [1] = mean / (mean + refill steps).
    """
    check.positive("mean_output_tokens", mean_output_tokens, check.MAX_TOKENS)
    check.non_negative("refill_steps", refill_steps, check.MAX_TOKENS)
    return mean_output_tokens / (mean_output_tokens + refill_steps)


def static_batching_throughput(
    batch_size, step_time, mean_output_tokens, expected_max_output_tokens, prefill_time=0.0
):
    """Generated tokens per second of static batching.

    Parameters
    ----------
    batch_size : number or array
        Requests per batch, B [sequences].
    step_time : number or array
        Decode step time at that batch [s].
    mean_output_tokens : number or array
        Mean output length [tokens].
    expected_max_output_tokens : number or array
        Expected longest output of a batch [tokens].
    prefill_time : number or array, default 0
        Prefill time of one request's prompt [s].

    Returns
    -------
    Throughput [tokens/s] = B × mean / (B × prefill + expected max × step time).
    """
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    check.positive("step_time", step_time, check.MAX_SECONDS)
    static_batching_utilization(mean_output_tokens, expected_max_output_tokens)
    check.non_negative("prefill_time", prefill_time, check.MAX_SECONDS)
    busy = batch_size * prefill_time + expected_max_output_tokens * step_time
    return batch_size * mean_output_tokens / busy


def continuous_batching_throughput(batch_size, step_time, mean_output_tokens, prefill_time=0.0):
    """Generated tokens per second of continuous batching with a non-empty queue.

    Parameters
    ----------
    batch_size : number or array
        Slots, B [sequences].
    step_time : number or array
        Decode step time at that batch [s].
    mean_output_tokens : number or array
        Mean output length [tokens].
    prefill_time : number or array, default 0
        Prefill time of one request's prompt, which pauses the batch when it joins [s].

    Returns
    -------
    Throughput [tokens/s] = B × mean / (B × prefill + mean × step time): per B requests
    completed, B prefills and mean × B slot-steps (B per step).
    """
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    check.positive("step_time", step_time, check.MAX_SECONDS)
    check.positive("mean_output_tokens", mean_output_tokens, check.MAX_TOKENS)
    check.non_negative("prefill_time", prefill_time, check.MAX_SECONDS)
    busy = batch_size * prefill_time + mean_output_tokens * step_time
    return batch_size * mean_output_tokens / busy


def prefill_chunks(prompt_tokens, chunk_tokens):
    """Chunks a prompt is split into by chunked prefill.

    Parameters
    ----------
    prompt_tokens : number or array
        Prompt length [tokens].
    chunk_tokens : number or array
        Tokens per chunk (the per-iteration token budget) [tokens].

    Returns
    -------
    Chunks [chunks] = ceil(prompt / chunk).
    """
    check.positive("prompt_tokens", prompt_tokens, check.MAX_TOKENS)
    check.positive_integer("chunk_tokens", chunk_tokens, check.MAX_TOKENS)
    return np.ceil(prompt_tokens / chunk_tokens)


def _chunk_time(model, gpu, weight_format, kv_format, chunk, cached, peak, tensor_parallel, other):
    flops = forward_flops_per_token(model) * chunk + attention_flops(model, chunk, cached)
    weights = matmul_weight_bytes(model, weight_format, other) / tensor_parallel
    # Earlier chunks' KV is read and this chunk's written, each GPU holding its share of heads.
    kv = kv_cache_bytes_per_gpu(model, kv_format, cached + chunk, 1, tensor_parallel)
    return np.maximum(flops / (peak * tensor_parallel), (weights + kv) / gpu.hbm_bandwidth)


def _chunk_arguments(
    model, gpu, weight_format, kv_format, compute_format, tensor_parallel, efficiency, other_format
):
    """Check the arguments the chunk times share; return the attained FLOP/s of one GPU and the
    format of the weights outside the routed experts."""
    check.entry("model", model, Model, "MODELS")
    check.entry("gpu", gpu, GPU, "GPUS")
    check.entry("weight_format", weight_format, NumberFormat, "FORMATS")
    check.entry("kv_format", kv_format, NumberFormat, "FORMATS")
    check.positive_integer("tensor_parallel", tensor_parallel, check.MAX_DEVICES)
    check.positive_fraction("efficiency", efficiency)
    other = non_expert_format(weight_format, other_format)
    return peak_flops(gpu, compute_format) * efficiency, other


def prefill_chunk_time(
    model,
    gpu,
    weight_format,
    kv_format,
    chunk_tokens,
    cached_tokens,
    compute_format=BF16,
    tensor_parallel=1,
    efficiency=1.0,
    other_format=None,
):
    """Roofline time of one prefill chunk that attends to the chunks before it.

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format, kv_format : NumberFormat
    chunk_tokens : number or array
        Tokens in this chunk [tokens].
    cached_tokens : number or array
        Prompt tokens already prefilled in earlier chunks [tokens].
    compute_format : NumberFormat, default bf16
        Format of the matrix multiplies (its dense peak is used).
    tensor_parallel : int or array, default 1
        GPUs sharing each layer: each does 1/p of the FLOPs and reads 1/p of the weights and its
        share of the KV heads.
    efficiency : number or array, default 1.0
        Share of the dense peak the prefill attains (MFU), above 0 and at most 1 [1]; memory
        traffic is counted at full bandwidth.
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts (gpt-oss: bf16 around MXFP4 experts);
        default: ``weight_format``.

    Returns
    -------
    Time [s] = max(chunk FLOPs / (peak × efficiency × p), (weights / p + KV per GPU read and
    written) / bandwidth). Later chunks cost more because their attention covers more cached
    tokens; every chunk rereads the weights. Tensor-parallel all-reduces are not included (add
    :func:`parallelism.tensor_parallel_allreduce_time` of the chunk's tokens where they are not
    overlapped).
    """
    peak, other = _chunk_arguments(
        model,
        gpu,
        weight_format,
        kv_format,
        compute_format,
        tensor_parallel,
        efficiency,
        other_format,
    )
    check.positive("chunk_tokens", chunk_tokens, check.MAX_TOKENS)
    check.non_negative("cached_tokens", cached_tokens, check.MAX_TOKENS)
    return _chunk_time(
        model,
        gpu,
        weight_format,
        kv_format,
        chunk_tokens,
        cached_tokens,
        peak,
        tensor_parallel,
        other,
    )


def chunked_prefill_max_stall(
    model,
    gpu,
    weight_format,
    kv_format,
    prompt_tokens,
    chunk_tokens,
    compute_format=BF16,
    tensor_parallel=1,
    efficiency=1.0,
    other_format=None,
):
    """Longest delay one chunk of a long prompt adds to the decode steps it shares.

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format, kv_format : NumberFormat
    prompt_tokens : number or array
        Prompt length [tokens].
    chunk_tokens : number or array
        Tokens per chunk [tokens].
    compute_format : NumberFormat, default bf16
        Format of the matrix multiplies (its dense peak is used).
    tensor_parallel : int or array, default 1
        GPUs sharing each layer.
    efficiency : number or array, default 1.0
        Share of the dense peak the prefill attains (MFU), above 0 and at most 1 [1].
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts; default: ``weight_format``.

    Returns
    -------
    Stall [s]: the larger of the last full chunk's and the final (possibly partial) chunk's
    time (:func:`prefill_chunk_time`), which attend to the most cached tokens. Without chunking
    the stall is the whole prefill (:func:`latency.prefill_time`). Llama-3.1-405B with FP8
    weights, KV and multiplies on 8 H100 SXM at 50 % MFU, chunks of 2,048 tokens of a
    100,000-token prompt: about 0.42 s (3.3 s on one GPU at the full BF16 peak).
    """
    peak, other = _chunk_arguments(
        model,
        gpu,
        weight_format,
        kv_format,
        compute_format,
        tensor_parallel,
        efficiency,
        other_format,
    )
    chunks = prefill_chunks(prompt_tokens, chunk_tokens)
    if check.is_scalar(prompt_tokens, chunk_tokens):
        chunks = float(chunks)  # plain floats keep the checks below on their fast path
    last_cached = (chunks - 1) * chunk_tokens
    last = _chunk_time(
        model,
        gpu,
        weight_format,
        kv_format,
        prompt_tokens - last_cached,
        last_cached,
        peak,
        tensor_parallel,
        other,
    )
    previous_cached = np.maximum(chunks - 2, 0) * chunk_tokens
    previous_size = np.where(chunks > 1, chunk_tokens, prompt_tokens)
    previous = _chunk_time(
        model,
        gpu,
        weight_format,
        kv_format,
        previous_size,
        previous_cached,
        peak,
        tensor_parallel,
        other,
    )
    return np.maximum(last, previous)
