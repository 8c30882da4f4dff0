"""GPU comparison: decode throughput and cost per million tokens, and which bound applies.

The right GPU for a workload is the one with the lowest cost per token that meets the latency
target and holds the model: memory capacity decides whether it fits, memory bandwidth sets the
speed of small-batch decode, FLOP/s the speed of prefill and large-batch decode, and the rental
price (a parameter in USD/s per GPU, see :class:`catalogue.GPU`) turns speed into dollars.

References
----------
Pope et al., "Efficiently Scaling Transformer Inference", arXiv 2211.05102; the datasheets cited
in the catalogue.
"""

from . import _validate as check
from .capacity import cost_per_million_tokens
from .catalogue import FORMATS, GPU, Model, NumberFormat
from .latency import decode_compute_time, decode_memory_time, decode_tokens_per_second
from .roofline import checked_peak, forward_flops_per_token, matmul_weight_bytes

BF16 = FORMATS["bf16"]


def decode_cost_per_million_tokens(
    model,
    gpu,
    weight_format,
    kv_format,
    batch_size,
    context_tokens,
    price_per_second,
    tensor_parallel=1,
    compute_format=BF16,
    other_format=None,
):
    """Cost of a generated token for a replica decoding at a given batch (shown per million).

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format, kv_format : NumberFormat
    batch_size : number or array
        Sequences decoding together [sequences].
    context_tokens : number or array
        Tokens cached per sequence [tokens].
    price_per_second : number or array
        Rental price of one GPU [USD/s] (a ``$/h`` parameter arrives in USD/s; the catalogue's
        is ``gpu.price_per_second_default``).
    tensor_parallel : int or array, default 1
        GPUs in the replica, all paid for.
    compute_format : NumberFormat, default bf16
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts (gpt-oss: bf16 around MXFP4 experts);
        default: ``weight_format``.

    Returns
    -------
    Cost [USD/token] = price × GPUs / (tokens/s), at the roofline throughput (a lower bound on
    cost); a part in ``$/Mtok`` shows it per million tokens.
    """
    check.positive("price_per_second", price_per_second, check.MAX_PRICE)
    throughput = decode_tokens_per_second(
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
    return cost_per_million_tokens(price_per_second, throughput, tensor_parallel)


def decode_compute_to_memory_ratio(
    model,
    gpu,
    weight_format,
    kv_format,
    batch_size,
    context_tokens,
    tensor_parallel=1,
    compute_format=BF16,
    other_format=None,
):
    """Compute time over memory time of a decode step: below 1 memory-bound, above 1 compute-bound.

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
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts (gpt-oss: bf16 around MXFP4 experts);
        default: ``weight_format``.

    Returns
    -------
    Ratio [1] = decode compute time / decode memory time.
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
    compute = decode_compute_time(
        model, gpu, batch_size, context_tokens, tensor_parallel, compute_format
    )
    return compute / memory


def decode_critical_batch_size(model, gpu, weight_format, compute_format=BF16, other_format=None):
    """Batch size at which reading the weights and multiplying by them take equally long.

    Parameters
    ----------
    model : Model
    gpu : GPU
    weight_format : NumberFormat
        Format of the weights read.
    compute_format : NumberFormat, default bf16
        Format of the multiplies.
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts (gpt-oss: bf16 around MXFP4 experts);
        default: ``weight_format``.

    Returns
    -------
    Batch [sequences] = (matmul weight bytes / bandwidth) / (forward FLOPs per token / peak).
    For a dense model in BF16 this is the ridge point (H100 SXM: about 295); below it decode is
    memory-bound. The KV cache is ignored (it only pushes the crossover out), and every expert
    of an MoE model is counted as read (true once the batch touches them all).
    """
    check.entry("model", model, Model, "MODELS")
    check.entry("gpu", gpu, GPU, "GPUS")
    check.entry("weight_format", weight_format, NumberFormat, "FORMATS")
    peak = checked_peak(gpu, compute_format, "compute_format")
    weights = matmul_weight_bytes(model, weight_format, other_format)
    per_token = forward_flops_per_token(model)
    return (weights / gpu.hbm_bandwidth) / (per_token / peak)
