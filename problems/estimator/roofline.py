"""Roofline: FLOPs and bytes of prefill and decode, arithmetic intensity, ridge point, MFU, MBU.

A kernel (or a whole forward pass) doing F FLOP while moving B bytes to and from device memory
takes at least max(F / peak FLOP/s, B / bandwidth). Its arithmetic intensity F / B against the
GPU's ridge point (peak / bandwidth) says which bound applies.

FLOP counting: a matrix multiply costs 2 FLOP per weight per token. The input embedding is a
table lookup and costs nothing; an untied LM head is a matrix multiply and counts. Attention adds
2 · heads · (key dim + value dim) FLOP per (query, attended key) pair per layer, counting causal
masking exactly (query i attends to i positions, or to min(i, window) in a sliding-window layer).
The course's rule of thumb "2 × parameters per token" also counts the embedding table; for
Llama-3-8B that overstates the matmul FLOPs by 6.5 %, for Llama-3-70B by 1.5 %.

Byte counting: a decode step reads every weight it multiplies by once (the embedding table
only for B rows, ignored) and the whole KV cache of every sequence in the batch. Weights are in
one format, or, with ``other_format``, the routed experts in ``weight_format`` and everything else
(attention, shared experts, routers, embeddings, norms) in ``other_format``, as
:func:`memory.weight_bytes_mixed` counts them: gpt-oss ships only its experts in MXFP4.

References
----------
S. Williams, A. Waterman, D. Patterson, "Roofline", CACM 52(4), 2009; Kaplan et al., "Scaling
Laws for Neural Language Models", arXiv 2001.08361, section 2.1 (2N FLOP per token plus
attention); Chowdhery et al., "PaLM", arXiv 2204.02311, appendix B (model FLOPs utilisation).
"""

import numpy as np

from . import _validate as check
from .catalogue import FORMATS, GPU, Model, NumberFormat
from .memory import kv_cache_bytes
from .moe import model_distinct_experts

BF16 = FORMATS["bf16"]


def _model(value):
    return check.entry("model", value, Model, "MODELS")


def _gpu(value):
    return check.entry("gpu", value, GPU, "GPUS")


def non_expert_format(weight_format, other_format):
    """The format of the weights outside the routed experts: ``other_format``, or, when it is
    None, ``weight_format`` (every weight in one format)."""
    if other_format is None:
        return weight_format
    return check.entry("other_format", other_format, NumberFormat, "FORMATS")


def matmul_weight_bytes(model, weight_format, other_format=None):
    """Bytes of every weight a forward pass multiplies by (all experts touched), in its format.

    Not registered: the bytes behind :func:`prefill_bytes` and the chunked-prefill times. The
    input embedding table is a lookup and is left out unless it is tied to the LM head.
    """
    other = non_expert_format(weight_format, other_format)
    lookup_only = 0 if model.tie_word_embeddings else model.embedding_params
    if other is weight_format:
        return (model.total_params - lookup_only) * weight_format.bytes_per_element
    experts = model.routed_expert_params
    return (
        experts * weight_format.bytes_per_element
        + (model.total_params - lookup_only - experts) * other.bytes_per_element
    )


def peak_flops(gpu, compute_format=BF16):
    """Dense tensor-core peak of a GPU for the format the matrix multiplies run in.

    Parameters
    ----------
    gpu : GPU
    compute_format : NumberFormat, default bf16
        Format of the multiply: bf16, fp16, fp8, int8 (OP/s), mxfp4 or nvfp4 (FP4 tensor cores).

    Returns
    -------
    Peak [FLOP/s], without 2:4 sparsity.

    Notes
    -----
    INT4 with group scales and FP32 are not tensor-core formats here (INT4 weights are
    dequantised and multiplied in 16-bit), and a GPU without FP8 or FP4 tensor cores (A100, L40S
    for FP4) refuses those formats rather than pretending.
    """
    return checked_peak(gpu, compute_format, "compute_format")


def checked_peak(gpu, compute_format, name):
    """:func:`peak_flops` with the format argument's name given for error messages."""
    _gpu(gpu)
    check.entry(name, compute_format, NumberFormat, "FORMATS")
    if not compute_format.peak_field:
        raise ValueError(
            f"{name} must be a tensor-core format (bf16, fp16, fp8, int8, mxfp4, nvfp4), "
            f"got {compute_format.name}, which is multiplied in 16-bit"
        )
    peak = getattr(gpu, compute_format.peak_field)
    if not peak:
        raise ValueError(
            f"{name} {compute_format.name} has no tensor cores on the {gpu.name}; use bf16"
        )
    return peak


def ridge_point(gpu, compute_format=BF16):
    """Arithmetic intensity at which a GPU turns from memory-bound to compute-bound.

    Parameters
    ----------
    gpu : GPU
    compute_format : NumberFormat, default bf16

    Returns
    -------
    Ridge point [FLOP/B] = peak FLOP/s / memory bandwidth (H100 SXM, BF16: 989e12 / 3.35e12 ≈
    295 FLOP/B).
    """
    return peak_flops(gpu, compute_format) / gpu.hbm_bandwidth


def arithmetic_intensity(flops, bytes_moved):
    """FLOPs done per byte moved to or from device memory.

    Parameters
    ----------
    flops : number or array
        Work [FLOP].
    bytes_moved : number or array
        Device-memory traffic [bytes].

    Returns
    -------
    Intensity [FLOP/B].
    """
    check.positive("flops", flops, check.MAX_FLOPS)
    check.positive("bytes_moved", bytes_moved, check.MAX_BYTES)
    return flops / bytes_moved


def attainable_flops(intensity, gpu, compute_format=BF16):
    """Roofline ceiling: the FLOP/s a kernel of a given arithmetic intensity can reach.

    Parameters
    ----------
    intensity : number or array
        Arithmetic intensity [FLOP/B].
    gpu : GPU
    compute_format : NumberFormat, default bf16

    Returns
    -------
    Attainable throughput [FLOP/s] = min(peak, intensity × bandwidth).
    """
    check.positive("intensity", intensity, check.MAX_FLOPS)
    peak = peak_flops(gpu, compute_format)
    return np.minimum(peak, intensity * gpu.hbm_bandwidth)


def roofline_time(flops, bytes_moved, gpu, compute_format=BF16):
    """Lower bound on the time of a kernel: the slower of its compute and its memory traffic.

    Parameters
    ----------
    flops : number or array
        Work [FLOP].
    bytes_moved : number or array
        Device-memory traffic [bytes].
    gpu : GPU
    compute_format : NumberFormat, default bf16

    Returns
    -------
    Time [s] = max(flops / peak, bytes / bandwidth).
    """
    check.positive("flops", flops, check.MAX_FLOPS)
    check.positive("bytes_moved", bytes_moved, check.MAX_BYTES)
    peak = peak_flops(gpu, compute_format)
    return np.maximum(flops / peak, bytes_moved / gpu.hbm_bandwidth)


def forward_flops_per_token(model):
    """Matrix-multiply FLOPs of one token's forward pass, attention scores excluded.

    Parameters
    ----------
    model : Model

    Returns
    -------
    FLOPs [FLOP/token] = 2 × (active parameters − input embedding table); a tied LM head reuses
    the table as a matmul, so the table then counts once.
    """
    _model(model)
    lookup_only = 0 if model.tie_word_embeddings else model.embedding_params
    return 2.0 * (model.active_params - lookup_only)


def _attended_pairs(model, start, end):
    """(query, key) pairs per layer, summed over layers, for queries at positions start+1..end."""
    full = (end * (end + 1) - start * (start + 1)) / 2
    pairs = model.full_attention_layers * full
    if model.sliding_window_layers:
        window = model.sliding_window

        def capped(n):  # sum over k = 1..n of min(k, window)
            m = np.minimum(n, window)
            return m * (m + 1) / 2 + (n - m) * window

        pairs = pairs + model.sliding_window_layers * (capped(end) - capped(start))
    return pairs


def attention_flops(model, new_tokens, cached_tokens=0):
    """Attention score and value FLOPs of new tokens attending causally to themselves and a cache.

    Parameters
    ----------
    model : Model
    new_tokens : number or array
        Query tokens processed (a prompt, a prefill chunk, or 1 for a decode step) [tokens].
    cached_tokens : number or array, default 0
        Tokens already in the KV cache before them [tokens].

    Returns
    -------
    FLOPs [FLOP] = 2 · heads · (key dim + value dim) · Σ over layers of attended pairs, where the
    token at position n attends to n positions (min(n, window) in a sliding-window layer).

    Notes
    -----
    For a prompt of s tokens on a full-attention model this is 2·L·h·(d_k + d_v)·s(s+1)/2, i.e.
    the non-causal 4·L·s²·h·d (2 FLOP per multiply-add, for QKᵀ and for the weighted sum of V)
    halved for causal masking, up to the diagonal. MLA is counted in its decompressed form (key
    width nope + rope, value width v_head_dim).
    """
    _model(model)
    check.positive("new_tokens", new_tokens, check.MAX_TOKENS)
    check.non_negative("cached_tokens", cached_tokens, check.MAX_TOKENS)
    per_pair = 2 * model.attention_heads * (model.qk_head_dim + model.v_head_dim)
    return per_pair * _attended_pairs(model, cached_tokens, cached_tokens + new_tokens)


def prefill_flops(model, prompt_tokens, batch_size=1):
    """FLOPs to prefill prompts: weight matmuls plus causal attention.

    Parameters
    ----------
    model : Model
    prompt_tokens : number or array
        Tokens per prompt [tokens].
    batch_size : number or array, default 1
        Prompts prefilled together [sequences].

    Returns
    -------
    FLOPs [FLOP] = batch × (forward FLOPs per token × prompt + attention FLOPs of the prompt).
    """
    _model(model)
    check.positive("prompt_tokens", prompt_tokens, check.MAX_TOKENS)
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    linear = forward_flops_per_token(model) * prompt_tokens
    return batch_size * (linear + attention_flops(model, prompt_tokens))


def decode_flops(model, batch_size, context_tokens):
    """FLOPs of one decode step: one new token per sequence attending to its context.

    Parameters
    ----------
    model : Model
    batch_size : number or array
        Sequences decoding together [sequences].
    context_tokens : number or array
        Tokens already cached per sequence [tokens].

    Returns
    -------
    FLOPs [FLOP] = batch × (forward FLOPs per token + attention FLOPs of one token).
    """
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    check.positive("context_tokens", context_tokens, check.MAX_TOKENS)
    per_token = forward_flops_per_token(model) + attention_flops(model, 1, context_tokens)
    return batch_size * per_token


def decode_weight_bytes(model, weight_format, batch_size, other_format=None):
    """Weight bytes one decode step reads: dense weights plus the experts the batch touches.

    Parameters
    ----------
    model : Model
    weight_format : NumberFormat
        Format of the weights, or of the routed experts only when ``other_format`` is given.
    batch_size : number or array
        Tokens in the step (the decode batch) [tokens].
    other_format : NumberFormat, optional
        Format of everything outside the routed experts (attention, shared experts, routers,
        embeddings), e.g. bf16 for gpt-oss's MXFP4 checkpoint; default: ``weight_format``.

    Returns
    -------
    Bytes [bytes] = (weights outside the routed experts − input embedding table) × their bytes
    per element + MoE layers × expected distinct experts × weights per expert × the experts'
    bytes per element.

    Notes
    -----
    The distinct-expert count assumes uniform routing (:mod:`moe`). The embedding table is read
    only for the batch's rows (negligible). Weights are read once per step whatever the batch,
    which is what makes small-batch decode memory-bound.
    """
    _model(model)
    check.entry("weight_format", weight_format, NumberFormat, "FORMATS")
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    other = non_expert_format(weight_format, other_format)
    lookup_only = 0 if model.tie_word_embeddings else model.embedding_params
    dense = model.total_params - lookup_only - model.routed_expert_params
    experts = 0
    if model.experts:
        experts = model.moe_layers * model_distinct_experts(model, batch_size)
        experts = experts * model.params_per_expert
    if other is weight_format:  # one format: the sum first, as weight_bytes counts
        return (dense + experts) * weight_format.bytes_per_element
    return dense * other.bytes_per_element + experts * weight_format.bytes_per_element


def decode_bytes(model, weight_format, kv_format, batch_size, context_tokens, other_format=None):
    """Device-memory bytes one decode step reads: the weights it uses and every sequence's KV.

    Parameters
    ----------
    model : Model
    weight_format, kv_format : NumberFormat
    batch_size : number or array
        Sequences decoding together [sequences].
    context_tokens : number or array
        Tokens cached per sequence [tokens].
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts; default: ``weight_format``.

    Returns
    -------
    Bytes [bytes] = decode weight bytes + batch × KV cache of one sequence.
    """
    check.entry("kv_format", kv_format, NumberFormat, "FORMATS")
    check.positive("context_tokens", context_tokens, check.MAX_TOKENS)
    weights = decode_weight_bytes(model, weight_format, batch_size, other_format)
    return weights + kv_cache_bytes(model, kv_format, context_tokens, batch_size)


def prefill_bytes(model, weight_format, kv_format, prompt_tokens, batch_size=1, other_format=None):
    """Device-memory bytes of a prefill: every weight read once plus the KV cache written.

    Parameters
    ----------
    model : Model
    weight_format, kv_format : NumberFormat
    prompt_tokens : number or array
        Tokens per prompt [tokens].
    batch_size : number or array, default 1
        Prompts prefilled together [sequences].
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts; default: ``weight_format``.

    Returns
    -------
    Bytes [bytes]. Activations are assumed to stay on chip or be negligible; for an MoE model
    every expert is assumed touched (a prompt of more than a few dozen tokens touches them all).
    """
    _model(model)
    check.entry("weight_format", weight_format, NumberFormat, "FORMATS")
    check.entry("kv_format", kv_format, NumberFormat, "FORMATS")
    check.positive("prompt_tokens", prompt_tokens, check.MAX_TOKENS)
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    weights = matmul_weight_bytes(model, weight_format, other_format)
    return weights + kv_cache_bytes(model, kv_format, prompt_tokens, batch_size)


def decode_arithmetic_intensity(
    model, weight_format, kv_format, batch_size, context_tokens, other_format=None
):
    """FLOPs per byte of a decode step; compare with :func:`ridge_point`.

    Parameters
    ----------
    model : Model
    weight_format, kv_format : NumberFormat
    batch_size : number or array
        Sequences decoding together [sequences].
    context_tokens : number or array
        Tokens cached per sequence [tokens].
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts; default: ``weight_format``.

    Returns
    -------
    Intensity [FLOP/B] = decode FLOPs / decode bytes (about the batch size for a dense 16-bit
    model at short context: 2 FLOP per 2-byte weight per token).
    """
    flops = decode_flops(model, batch_size, context_tokens)
    moved = decode_bytes(model, weight_format, kv_format, batch_size, context_tokens, other_format)
    return flops / moved


def prefill_arithmetic_intensity(
    model, weight_format, kv_format, prompt_tokens, batch_size=1, other_format=None
):
    """FLOPs per byte of a prefill; compare with :func:`ridge_point`.

    Parameters
    ----------
    model : Model
    weight_format, kv_format : NumberFormat
    prompt_tokens : number or array
        Tokens per prompt [tokens].
    batch_size : number or array, default 1
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts; default: ``weight_format``.

    Returns
    -------
    Intensity [FLOP/B] = prefill FLOPs / prefill bytes (grows with the prompt length).
    """
    flops = prefill_flops(model, prompt_tokens, batch_size)
    moved = prefill_bytes(model, weight_format, kv_format, prompt_tokens, batch_size, other_format)
    return flops / moved


def model_flops_utilization(model, gpu, tokens_per_second, compute_format=BF16, gpus=1):
    """MFU: the share of the GPUs' peak that an observed token throughput represents.

    Parameters
    ----------
    model : Model
    gpu : GPU
    tokens_per_second : number or array
        Observed throughput, prompt and generated tokens together [tokens/s].
    compute_format : NumberFormat, default bf16
        Format whose peak is the denominator.
    gpus : int or array, default 1
        GPUs producing that throughput.

    Returns
    -------
    MFU [1] = tokens/s × forward FLOPs per token / (peak × GPUs). Attention FLOPs are left out,
    as in PaLM's definition without the attention term.
    """
    check.positive("tokens_per_second", tokens_per_second, check.MAX_RATE)
    check.positive_integer("gpus", gpus, check.MAX_DEVICES)
    peak = peak_flops(gpu, compute_format)
    return tokens_per_second * forward_flops_per_token(model) / (peak * gpus)


def memory_bandwidth_utilization(
    model,
    gpu,
    weight_format,
    kv_format,
    tokens_per_second,
    batch_size,
    context_tokens,
    gpus=1,
    other_format=None,
):
    """MBU: the share of the GPUs' memory bandwidth that an observed decode throughput uses.

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format, kv_format : NumberFormat
    tokens_per_second : number or array
        Observed generated tokens per second, summed over the batch [tokens/s].
    batch_size : number or array
        Sequences decoding together [sequences].
    context_tokens : number or array
        Mean tokens cached per sequence [tokens].
    gpus : int or array, default 1
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts; default: ``weight_format``.

    Returns
    -------
    MBU [1] = decode bytes per step × steps per second / (bandwidth × GPUs), with steps per second
    = tokens/s / batch size (Databricks/MosaicML's definition).
    """
    _gpu(gpu)
    check.positive("tokens_per_second", tokens_per_second, check.MAX_RATE)
    check.positive_integer("gpus", gpus, check.MAX_DEVICES)
    step_bytes = decode_bytes(
        model, weight_format, kv_format, batch_size, context_tokens, other_format
    )
    return step_bytes * (tokens_per_second / batch_size) / (gpu.hbm_bandwidth * gpus)
