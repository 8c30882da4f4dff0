"""Quantisation: what a number format does to memory, to decode speed, and to the GPUs needed.

Weight memory scales with bits per element (block scales included: INT4 group-128 is 4.125
bits, MXFP4 4.25, NVFP4 4.5). Memory-bound decode speeds up by about the ratio of bytes read;
compute-bound work speeds up only if the GPU has tensor cores for the format (FP8 on Hopper,
FP4 on Blackwell) and the kernels use them; weight-only INT4 still multiplies in 16-bit.

References
----------
Frantar et al., "GPTQ", arXiv 2210.17323; Lin et al., "AWQ", arXiv 2306.00978; OCP Microscaling
Formats (MX) v1.0; NVIDIA, "Introducing NVFP4 for Efficient and Accurate Low-Precision Inference"
(2025).
"""

from . import _validate as check
from .catalogue import FORMATS, NumberFormat
from .latency import decode_step_time
from .memory import gpus_needed, usable_memory_bytes, weight_bytes
from .roofline import checked_peak

BF16 = FORMATS["bf16"]


def fits_on_gpus(model, gpu, weight_format, gpus=1, usable_fraction=0.9):
    """1 if a model's weights fit in the usable memory of ``gpus`` GPUs, else 0.

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format : NumberFormat
    gpus : int or array, default 1
    usable_fraction : number or array, default 0.9
        Usable share of each GPU's memory.

    Returns
    -------
    1.0 or 0.0 [1]: weight bytes ≤ GPUs × memory × usable fraction. Fitting the weights leaves
    the KV cache to check (:func:`memory.kv_budget_bytes`).
    """
    usable = usable_memory_bytes(gpu, gpus, usable_fraction)
    return (weight_bytes(model, weight_format) <= usable) * 1.0


def min_gpus_for_weights(model, gpu, weight_format, usable_fraction=0.9):
    """Fewest GPUs whose usable memory holds a model's weights.

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format : NumberFormat
    usable_fraction : number or array, default 0.9

    Returns
    -------
    GPUs [GPUs] = ceil(weight bytes / (memory × usable fraction)). Tensor parallelism usually
    needs a power of two that divides the heads: 2^ceil(log2(n)).
    """
    return gpus_needed(weight_bytes(model, weight_format), gpu, usable_fraction)


def decode_speedup_from_quantisation(
    model,
    gpu,
    base_weight_format,
    weight_format,
    kv_format,
    batch_size,
    context_tokens,
    tensor_parallel=1,
    base_compute_format=BF16,
    compute_format=BF16,
    other_format=None,
):
    """How much faster a decode step gets when the weights move to a smaller format.

    Parameters
    ----------
    model : Model
    gpu : GPU
    base_weight_format : NumberFormat
        Format before quantisation (usually bf16).
    weight_format : NumberFormat
        Format after quantisation.
    kv_format : NumberFormat
        KV cache format, unchanged.
    batch_size : number or array
        Sequences decoding together [sequences].
    context_tokens : number or array
        Tokens cached per sequence [tokens].
    tensor_parallel : int or array, default 1
    base_compute_format, compute_format : NumberFormat, default bf16
        Formats of the multiplies before and after (FP8 weights can also multiply in FP8 on
        Hopper; weight-only INT4 multiplies in 16-bit).
    other_format : NumberFormat, optional
        After quantisation, the format of the weights outside the routed experts, when only the
        experts are quantised (gpt-oss: MXFP4 experts, the rest kept in bf16); default:
        ``weight_format`` for every weight. Before, every weight is in ``base_weight_format``.

    Returns
    -------
    Speedup [1] = step time before / step time after: close to the ratio of weight bytes at
    batch 1, shrinking as the KV cache and compute take over.
    """
    check.entry("base_weight_format", base_weight_format, NumberFormat, "FORMATS")
    checked_peak(gpu, base_compute_format, "base_compute_format")
    before = decode_step_time(
        model,
        gpu,
        base_weight_format,
        kv_format,
        batch_size,
        context_tokens,
        tensor_parallel,
        base_compute_format,
    )
    after = decode_step_time(
        model,
        gpu,
        weight_format,
        kv_format,
        batch_size,
        context_tokens,
        tensor_parallel,
        compute_format,
        other_format=other_format,
    )
    return before / after
