"""Memory: weights per format, KV cache per token and in total, and what fits after the weights.

Units: bytes, decimal (GB = 1e9 B). The KV cache stores, per layer and per token, a key and a
value vector for each KV head (grouped-query and multi-head attention), or one compressed latent
plus a shared rotary key (multi-head latent attention, DeepSeek-V2/V3). Sliding-window layers keep
at most ``sliding_window`` tokens.

References
----------
Ainslie et al., "GQA", arXiv 2305.13245; DeepSeek-AI, "DeepSeek-V2", arXiv 2405.04434 section
2.1.2 (MLA caches (d_c + d_h^R) elements per token per layer); Beltagy et al., "Longformer",
arXiv 2004.05150 (sliding-window attention); vLLM's ``gpu_memory_utilization`` (default 0.9).
"""

import numpy as np

from . import _validate as check
from .architecture import uses_mla
from .catalogue import GPU, Model, NumberFormat


def _model(value):
    return check.entry("model", value, Model, "MODELS")


def _format(name, value):
    return check.entry(name, value, NumberFormat, "FORMATS")


def _gpu(value):
    return check.entry("gpu", value, GPU, "GPUS")


def _kv_elements_per_token_per_layer(model):
    if uses_mla(model):
        return model.kv_lora_rank + model.qk_rope_head_dim
    return 2 * model.kv_heads * model.head_dim


def weight_bytes(model, weight_format):
    """Bytes to store every parameter of a model in one number format.

    Parameters
    ----------
    model : Model
    weight_format : NumberFormat
        Format of every weight, block scales included (``bits_per_element``).

    Returns
    -------
    Weight memory [bytes] = total parameters × bits per element / 8.

    Notes
    -----
    Real checkpoints often keep embeddings, norms and routers in 16-bit while quantising the
    linear layers; :func:`weight_bytes_mixed` covers the MoE case where only experts are
    quantised (gpt-oss ships its experts in MXFP4).
    """
    _model(model)
    _format("weight_format", weight_format)
    return model.total_params * weight_format.bytes_per_element


def weight_bytes_mixed(model, expert_format, other_format):
    """Bytes of an MoE model whose routed experts use one format and everything else another.

    Parameters
    ----------
    model : Model
    expert_format : NumberFormat
        Format of the routed experts' weights (e.g. MXFP4 in gpt-oss).
    other_format : NumberFormat
        Format of everything else: attention, shared experts, routers, embeddings, norms.

    Returns
    -------
    Weight memory [bytes]. For a dense model every weight is in ``other_format``.
    """
    _model(model)
    _format("expert_format", expert_format)
    _format("other_format", other_format)
    experts = model.routed_expert_params
    return (
        experts * expert_format.bytes_per_element
        + (model.total_params - experts) * other_format.bytes_per_element
    )


def kv_bytes_per_token(model, kv_format):
    """KV cache bytes one token occupies when every layer keeps it (context within any window).

    Parameters
    ----------
    model : Model
    kv_format : NumberFormat
        Format of the cached keys and values.

    Returns
    -------
    Bytes per token [bytes/token]: 2 (K and V) × layers × KV heads × head dim × bytes per element
    for MHA/GQA; layers × (kv_lora_rank + rope dim) × bytes for MLA.

    Notes
    -----
    For sliding-window layers this is the cost while the context is within the window; beyond it
    those layers stop growing, so long contexts need :func:`kv_cache_bytes`. Llama-3-70B in
    16-bit: 2 × 80 × 8 × 128 × 2 = 327,680 B/token.
    """
    _model(model)
    _format("kv_format", kv_format)
    return _kv_elements_per_token_per_layer(model) * model.layers * kv_format.bytes_per_element


def kv_bytes_per_token_mha(model, kv_format):
    """KV bytes per token if every query head cached its own key and value (plain MHA).

    The baseline that grouped-query and latent attention are compared against.

    Parameters
    ----------
    model : Model
    kv_format : NumberFormat

    Returns
    -------
    Bytes per token [bytes/token] = layers × attention heads × (key dim + value dim) × bytes per
    element (for MLA models the decompressed key is nope + rope wide).
    """
    _model(model)
    _format("kv_format", kv_format)
    per_layer = model.attention_heads * (model.qk_head_dim + model.v_head_dim)
    return per_layer * model.layers * kv_format.bytes_per_element


def kv_cache_bytes(model, kv_format, context_tokens, sequences=1):
    """KV cache of concurrent sequences, sliding-window layers capped at their window.

    Parameters
    ----------
    model : Model
    kv_format : NumberFormat
    context_tokens : number or array
        Tokens of context per sequence (prompt plus generated so far) [tokens].
    sequences : number or array, default 1
        Concurrent sequences, each with that context [sequences].

    Returns
    -------
    Cache size [bytes] = per-layer bytes per token × (full layers × context + sliding layers ×
    min(context, window)) × sequences.

    Notes
    -----
    Llama-3-70B, 16-bit, 32,768 tokens × 100 users: 327,680 × 32,768 × 100 ≈ 1.07e12 B. Paging
    overhead is not included (see :mod:`paged_kv`).
    """
    _model(model)
    _format("kv_format", kv_format)
    check.positive("context_tokens", context_tokens, check.MAX_TOKENS)
    check.positive("sequences", sequences, check.MAX_COUNT)
    per_layer_token = _kv_elements_per_token_per_layer(model) * kv_format.bytes_per_element
    cached = model.full_attention_layers * context_tokens
    if model.sliding_window_layers:
        cached = cached + model.sliding_window_layers * np.minimum(
            context_tokens, model.sliding_window
        )
    return per_layer_token * cached * sequences


def kv_cache_bytes_per_gpu(model, kv_format, context_tokens, sequences, tensor_parallel):
    """KV cache held by each GPU when attention is split over tensor-parallel ranks.

    Parameters
    ----------
    model : Model
    kv_format : NumberFormat
    context_tokens : number or array
        Context per sequence [tokens].
    sequences : number or array
        Concurrent sequences [sequences].
    tensor_parallel : int or array
        Tensor-parallel degree (GPUs sharing each layer).

    Returns
    -------
    Cache per GPU [bytes].

    Notes
    -----
    KV heads are split across ranks; each rank keeps ceil(KV heads / TP) of them, so past TP = KV
    heads the heads are replicated and the per-GPU cache stops shrinking (Megatron/vLLM
    behaviour). An MLA latent has no heads to split: every rank keeps the whole latent cache.
    """
    _model(model)
    check.positive_integer("tensor_parallel", tensor_parallel, check.MAX_DEVICES)
    total = kv_cache_bytes(model, kv_format, context_tokens, sequences)
    if uses_mla(model):
        return total + 0 * tensor_parallel  # broadcast to the shape of tensor_parallel
    heads_per_gpu = np.ceil(model.kv_heads / tensor_parallel)
    return total * heads_per_gpu / model.kv_heads


def usable_memory_bytes(gpu, gpus=1, usable_fraction=0.9):
    """Device memory a serving engine may use across GPUs.

    Parameters
    ----------
    gpu : GPU
    gpus : int or array, default 1
        GPUs serving one model replica.
    usable_fraction : number or array, default 0.9
        Share of each GPU's memory the engine takes (vLLM ``gpu_memory_utilization`` default 0.9;
        the rest goes to the CUDA context, activations and fragmentation).

    Returns
    -------
    Usable memory [bytes] = GPUs × memory per GPU × usable fraction.
    """
    _gpu(gpu)
    check.positive_integer("gpus", gpus, check.MAX_DEVICES)
    check.positive_fraction("usable_fraction", usable_fraction)
    return gpus * gpu.memory_bytes * usable_fraction


def gpus_needed(total_bytes, gpu, usable_fraction=0.9):
    """GPUs needed to hold a number of bytes (weights plus KV cache, say).

    Parameters
    ----------
    total_bytes : number or array
        Bytes to hold [bytes].
    gpu : GPU
    usable_fraction : number or array, default 0.9
        Usable share of each GPU's memory.

    Returns
    -------
    GPUs [GPUs] = ceil(bytes / (memory per GPU × usable fraction)).

    Notes
    -----
    Counts memory only; a tensor-parallel deployment also needs the GPU count to divide the
    attention heads, so real deployments round up to 2, 4 or 8.
    """
    check.positive("total_bytes", total_bytes, check.MAX_BYTES)
    _gpu(gpu)
    check.positive_fraction("usable_fraction", usable_fraction)
    return np.ceil(total_bytes / (gpu.memory_bytes * usable_fraction))


def kv_budget_bytes(model, gpu, weight_format, gpus=1, usable_fraction=0.9):
    """Memory left for the KV cache once the weights are loaded (negative if they do not fit).

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format : NumberFormat
    gpus : int or array, default 1
        GPUs holding one copy of the model.
    usable_fraction : number or array, default 0.9
        Usable share of each GPU's memory.

    Returns
    -------
    KV budget [bytes] = GPUs × memory × usable fraction − weight bytes.
    """
    usable = usable_memory_bytes(gpu, gpus, usable_fraction)
    return usable - weight_bytes(model, weight_format)


def max_concurrent_sequences(
    model, gpu, weight_format, kv_format, context_tokens, gpus=1, usable_fraction=0.9
):
    """How many sequences of a given context fit in the memory left after the weights.

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format, kv_format : NumberFormat
    context_tokens : number or array
        Context each sequence reserves [tokens].
    gpus : int or array, default 1
    usable_fraction : number or array, default 0.9

    Returns
    -------
    Sequences [sequences] = floor(max(KV budget, 0) / KV cache of one sequence); 0 when the
    weights alone do not fit.
    """
    budget = kv_budget_bytes(model, gpu, weight_format, gpus, usable_fraction)
    per_sequence = kv_cache_bytes(model, kv_format, context_tokens)
    return np.floor(np.maximum(budget, 0) / per_sequence)


def max_kv_tokens(model, gpu, weight_format, kv_format, gpus=1, usable_fraction=0.9):
    """Tokens of KV cache that fit after the weights (shared among all running sequences).

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format, kv_format : NumberFormat
    gpus : int or array, default 1
    usable_fraction : number or array, default 0.9

    Returns
    -------
    Tokens [tokens] = floor(max(KV budget, 0) / KV bytes per token). For sliding-window models
    this counts every layer as caching every token, a lower bound on long contexts.
    """
    budget = kv_budget_bytes(model, gpu, weight_format, gpus, usable_fraction)
    return np.floor(np.maximum(budget, 0) / kv_bytes_per_token(model, kv_format))
