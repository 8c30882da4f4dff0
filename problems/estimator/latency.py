"""Latency: time to first token, prefill time, decode step time (TPOT), tokens per second.

A request waits in a queue, is prefilled (compute-bound: every prompt token through every
weight), and its first token crosses the network: TTFT = queue + prefill + network. Each later
token costs one decode step, which reads every weight it uses plus the whole KV cache of the batch
and does 2 FLOP per weight per sequence, so

    step time = max(bytes / bandwidth, FLOPs / peak) + tensor-parallel all-reduce time,

memory-bound at small batch and compute-bound once the batch passes roughly the ridge point.
With tensor parallelism each GPU reads 1/p of the weights and its share of the KV heads. The
weights may be in two formats: routed experts in ``weight_format``, the rest in ``other_format``.

All times are lower bounds at 100 % of peak bandwidth and FLOP/s; real kernels reach 60-90 % of
bandwidth in decode and 40-70 % of peak in prefill, so scale by an efficiency in a formula when
a problem says so.

References
----------
Pope et al., "Efficiently Scaling Transformer Inference", arXiv 2211.05102 (memory- vs
compute-bound decode, tensor-parallel communication); Agrawal et al., "Sarathi-Serve",
arXiv 2403.02310 (prefill/decode characteristics).
"""

import numpy as np

from . import _validate as check
from .catalogue import FORMATS, GPU, Model, NumberFormat
from .memory import kv_cache_bytes_per_gpu
from .parallelism import tensor_parallel_allreduce_time
from .roofline import (
    decode_flops,
    decode_weight_bytes,
    peak_flops,
    prefill_bytes,
    prefill_flops,
)

BF16 = FORMATS["bf16"]


def _common(model, gpu, weight_format=None, kv_format=None):
    check.entry("model", model, Model, "MODELS")
    check.entry("gpu", gpu, GPU, "GPUS")
    if weight_format is not None:
        check.entry("weight_format", weight_format, NumberFormat, "FORMATS")
    if kv_format is not None:
        check.entry("kv_format", kv_format, NumberFormat, "FORMATS")


def time_to_first_token(queue_time, prefill_time, network_time):
    """Time to first token: queueing plus prefill plus the network hop to the client.

    Parameters
    ----------
    queue_time : number or array
        Wait before the request is scheduled [s].
    prefill_time : number or array
        Prefill of the prompt [s].
    network_time : number or array
        Delivery of the first token to the client (one-way network latency) [s].

    Returns
    -------
    TTFT [s] = queue + prefill + network.
    """
    check.non_negative("queue_time", queue_time, check.MAX_SECONDS)
    check.non_negative("prefill_time", prefill_time, check.MAX_SECONDS)
    check.non_negative("network_time", network_time, check.MAX_SECONDS)
    return queue_time + prefill_time + network_time


def distance_during_latency(speed, latency):
    """How far a robot (or vehicle) moves while its model is still thinking.

    Parameters
    ----------
    speed : number or array
        Speed [m/s].
    latency : number or array
        Time until the command takes effect [s].

    Returns
    -------
    Distance [m] = speed × latency, assuming constant speed until the command lands.
    """
    check.non_negative("speed", speed, 1e4)
    check.non_negative("latency", latency, check.MAX_SECONDS)
    return speed * latency


def prefill_time(
    model,
    gpu,
    weight_format,
    kv_format,
    prompt_tokens,
    batch_size=1,
    tensor_parallel=1,
    compute_format=BF16,
    allreduce_latency=0.0,
    other_format=None,
):
    """Lower bound on the time to prefill prompts, tensor-parallel communication included.

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format, kv_format : NumberFormat
        Formats of the weights read and the KV cache written.
    prompt_tokens : number or array
        Tokens per prompt [tokens].
    batch_size : number or array, default 1
        Prompts prefilled together [sequences].
    tensor_parallel : int or array, default 1
        GPUs sharing each layer.
    compute_format : NumberFormat, default bf16
        Format of the matrix multiplies (its dense peak is used).
    allreduce_latency : number or array, default 0
        Fixed cost per all-reduce [s].
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts (attention, shared experts, routers,
        embeddings) when only the experts are in ``weight_format``, as in gpt-oss's MXFP4
        checkpoint; default: ``weight_format``.

    Returns
    -------
    Time [s] = max(prefill FLOPs / (peak × p), prefill bytes / (bandwidth × p)) + all-reduce
    time for batch × prompt tokens.
    """
    _common(model, gpu, weight_format, kv_format)
    check.positive("prompt_tokens", prompt_tokens, check.MAX_TOKENS)
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    check.positive_integer("tensor_parallel", tensor_parallel, check.MAX_DEVICES)
    check.non_negative("allreduce_latency", allreduce_latency, 1.0)
    peak = peak_flops(gpu, compute_format)
    flops = prefill_flops(model, prompt_tokens, batch_size)
    moved = prefill_bytes(model, weight_format, kv_format, prompt_tokens, batch_size, other_format)
    bound = np.maximum(flops / peak, moved / gpu.hbm_bandwidth) / tensor_parallel
    communication = tensor_parallel_allreduce_time(
        model, gpu, batch_size * prompt_tokens, tensor_parallel, BF16, allreduce_latency
    )
    return bound + communication


def decode_compute_time(
    model, gpu, batch_size, context_tokens, tensor_parallel=1, compute_format=BF16
):
    """Compute part of a decode step: its FLOPs at the GPUs' dense peak.

    Parameters
    ----------
    model : Model
    gpu : GPU
    batch_size : number or array
        Sequences decoding together [sequences].
    context_tokens : number or array
        Tokens cached per sequence [tokens].
    tensor_parallel : int or array, default 1
    compute_format : NumberFormat, default bf16

    Returns
    -------
    Time [s] = decode FLOPs / (peak × p).
    """
    _common(model, gpu)
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    check.positive("context_tokens", context_tokens, check.MAX_TOKENS)
    check.positive_integer("tensor_parallel", tensor_parallel, check.MAX_DEVICES)
    peak = peak_flops(gpu, compute_format)
    return decode_flops(model, batch_size, context_tokens) / (peak * tensor_parallel)


def decode_memory_time(
    model,
    gpu,
    weight_format,
    kv_format,
    batch_size,
    context_tokens,
    tensor_parallel=1,
    other_format=None,
):
    """Memory part of a decode step: weights and KV cache read by each GPU at its bandwidth.

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format, kv_format : NumberFormat
    batch_size : number or array
        Sequences decoding together [sequences].
    context_tokens : number or array
        Tokens cached per sequence [tokens].
    tensor_parallel : int or array, default 1
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts (attention, shared experts, routers,
        embeddings) when only the experts are in ``weight_format``, as in gpt-oss's MXFP4
        checkpoint; default: ``weight_format``.

    Returns
    -------
    Time [s] = (decode weight bytes / p + KV cache per GPU) / bandwidth. KV heads beyond the
    tensor-parallel degree are replicated (and an MLA latent is on every GPU), see
    :func:`memory.kv_cache_bytes_per_gpu`.
    """
    _common(model, gpu, weight_format, kv_format)
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    check.positive("context_tokens", context_tokens, check.MAX_TOKENS)
    check.positive_integer("tensor_parallel", tensor_parallel, check.MAX_DEVICES)
    weights = decode_weight_bytes(model, weight_format, batch_size, other_format)
    weights = weights / tensor_parallel
    kv = kv_cache_bytes_per_gpu(model, kv_format, context_tokens, batch_size, tensor_parallel)
    return (weights + kv) / gpu.hbm_bandwidth


def decode_step_time(
    model,
    gpu,
    weight_format,
    kv_format,
    batch_size,
    context_tokens,
    tensor_parallel=1,
    compute_format=BF16,
    allreduce_latency=0.0,
    other_format=None,
):
    """Time per output token (TPOT): one decode step, memory- or compute-bound, plus all-reduces.

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format, kv_format : NumberFormat
    batch_size : number or array
        Sequences decoding together [sequences].
    context_tokens : number or array
        Tokens cached per sequence [tokens].
    tensor_parallel : int or array, default 1
        GPUs sharing each layer.
    compute_format : NumberFormat, default bf16
        Format of the matrix multiplies (weight-only quantisation still multiplies in 16-bit).
    allreduce_latency : number or array, default 0
        Fixed cost per all-reduce [s].
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts (attention, shared experts, routers,
        embeddings) when only the experts are in ``weight_format``, as in gpt-oss's MXFP4
        checkpoint; default: ``weight_format``.

    Returns
    -------
    Step time [s] = max(memory time, compute time) + all-reduce time for batch tokens.

    Notes
    -----
    Llama-3-70B in BF16 on one H100 SXM at batch 1: about 139 GB of weights / 3.35 TB/s ≈ 41 ms.
    An MoE model reads only the experts the batch touches (:mod:`moe`).
    """
    memory = decode_memory_time(
        model,
        gpu,
        weight_format,
        kv_format,
        batch_size,
        context_tokens,
        tensor_parallel,
        other_format,
    )
    check.non_negative("allreduce_latency", allreduce_latency, 1.0)
    compute = decode_compute_time(
        model, gpu, batch_size, context_tokens, tensor_parallel, compute_format
    )
    communication = tensor_parallel_allreduce_time(
        model, gpu, batch_size, tensor_parallel, BF16, allreduce_latency
    )
    return np.maximum(memory, compute) + communication


def decode_tokens_per_second(
    model,
    gpu,
    weight_format,
    kv_format,
    batch_size,
    context_tokens,
    tensor_parallel=1,
    compute_format=BF16,
    allreduce_latency=0.0,
    other_format=None,
):
    """Generated tokens per second of one replica, summed over the batch.

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format, kv_format : NumberFormat
    batch_size : number or array
        Sequences decoding together [sequences].
    context_tokens : number or array
        Tokens cached per sequence [tokens].
    tensor_parallel : int or array, default 1
    compute_format : NumberFormat, default bf16
    allreduce_latency : number or array, default 0
        Fixed cost per all-reduce [s].
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts (attention, shared experts, routers,
        embeddings) when only the experts are in ``weight_format``, as in gpt-oss's MXFP4
        checkpoint; default: ``weight_format``.

    Returns
    -------
    Throughput [tokens/s] = batch size / step time (per replica of ``tensor_parallel`` GPUs).
    """
    step = decode_step_time(
        model,
        gpu,
        weight_format,
        kv_format,
        batch_size,
        context_tokens,
        tensor_parallel,
        compute_format,
        allreduce_latency,
        other_format,
    )
    return batch_size / step


def end_to_end_latency(first_token_time, time_per_output_token, output_tokens):
    """Latency of a whole streamed response: the first token, then one step per further token.

    Parameters
    ----------
    first_token_time : number or array
        TTFT [s].
    time_per_output_token : number or array
        TPOT [s].
    output_tokens : number or array
        Tokens generated, the first included [tokens].

    Returns
    -------
    Latency [s] = TTFT + (output tokens − 1) × TPOT.
    """
    check.non_negative("first_token_time", first_token_time, check.MAX_SECONDS)
    check.non_negative("time_per_output_token", time_per_output_token, check.MAX_SECONDS)
    check.at_least("output_tokens", output_tokens, 1, check.MAX_TOKENS)
    return first_token_time + (output_tokens - 1) * time_per_output_token
