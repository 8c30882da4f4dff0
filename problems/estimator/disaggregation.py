"""Disaggregated serving: moving a prompt's KV cache from a prefill GPU to a decode GPU.

Splitting prefill and decode onto different GPUs stops long prefills from stalling decode steps,
at the price of shipping each prompt's KV cache across a link. The transfer is worth it when it
is short next to the prefill that produced it (it can also be overlapped layer by layer).

Link bandwidths are one direction, in bytes per second: NVLink 4 (H100) 450e9 per GPU;
InfiniBand NDR 400 Gb/s = 50e9 per NIC; 100 Gb Ethernet = 12.5e9; PCIe 5 x16 about 64e9.
Bits per second divide by 8.

References
----------
Y. Zhong et al., "DistServe: Disaggregating Prefill and Decoding for Goodput-optimized Large
Language Model Serving", OSDI 2024; P. Patel et al., "Splitwise", ISCA 2024 (KV transfer cost).
"""

from . import _validate as check
from .catalogue import FORMATS
from .latency import prefill_time
from .memory import kv_cache_bytes

BF16 = FORMATS["bf16"]


def kv_transfer_bytes(model, kv_format, prompt_tokens):
    """Bytes of KV cache to move for one prompt after its prefill.

    Parameters
    ----------
    model : Model
    kv_format : NumberFormat
    prompt_tokens : number or array
        Prompt length [tokens].

    Returns
    -------
    Bytes [bytes] = KV cache of one sequence of that length (sliding windows capped).
    """
    check.positive("prompt_tokens", prompt_tokens, check.MAX_TOKENS)
    return kv_cache_bytes(model, kv_format, prompt_tokens)


def kv_transfer_time(model, kv_format, prompt_tokens, link_bandwidth, link_latency=0.0):
    """Time to move one prompt's KV cache over a link.

    Parameters
    ----------
    model : Model
    kv_format : NumberFormat
    prompt_tokens : number or array
        Prompt length [tokens].
    link_bandwidth : number or array
        One-direction bandwidth of the link [B/s].
    link_latency : number or array, default 0
        Fixed setup cost of the transfer [s].

    Returns
    -------
    Time [s] = KV bytes / bandwidth + latency, assuming the link is not shared.
    """
    check.positive("link_bandwidth", link_bandwidth, check.MAX_BANDWIDTH)
    check.non_negative("link_latency", link_latency, check.MAX_SECONDS)
    return kv_transfer_bytes(model, kv_format, prompt_tokens) / link_bandwidth + link_latency


def kv_transfer_break_even_bandwidth(
    model,
    gpu,
    weight_format,
    kv_format,
    prompt_tokens,
    tensor_parallel=1,
    compute_format=BF16,
    other_format=None,
):
    """Link bandwidth at which moving a prompt's KV cache takes as long as prefilling it.

    Parameters
    ----------
    model : Model
    gpu : GPU
        The prefill GPU.
    weight_format, kv_format : NumberFormat
    prompt_tokens : number or array
        Prompt length [tokens].
    tensor_parallel : int or array, default 1
        GPUs prefilling together.
    compute_format : NumberFormat, default bf16
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts (gpt-oss: bf16 around MXFP4 experts);
        default: ``weight_format``.

    Returns
    -------
    Bandwidth [B/s] = KV bytes / prefill time. A faster link moves the cache in less time than
    the prefill took; a slower one makes the transfer the bottleneck of disaggregation.
    """
    moved = kv_transfer_bytes(model, kv_format, prompt_tokens)
    compute = prefill_time(
        model,
        gpu,
        weight_format,
        kv_format,
        prompt_tokens,
        1,
        tensor_parallel,
        compute_format,
        other_format=other_format,
    )
    return moved / compute
