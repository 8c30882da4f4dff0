"""Attention IO: device-memory traffic of naive attention against FlashAttention, and time bounds.

Standard attention materialises the N × N score matrix S = QKᵀ and the probabilities P =
softmax(S) in device memory (HBM). Dao et al.'s Algorithm 0 reads Q and K, writes S, reads S,
writes P, reads P and V and writes O: 4Nd + 4N² elements, Θ(Nd + N²).

FlashAttention (Algorithm 1) tiles the computation so S and P never leave on-chip SRAM of M
elements: blocks of Bc = ⌈M/4d⌉ keys and values (outer loop, Tc = ⌈N/Bc⌉ blocks) and Br =
min(⌈M/4d⌉, d) queries (inner loop). Its traffic is: initialise O, ℓ, m (Nd + 2N writes); read K
and V once (2Nd); for each of the Tc outer blocks read Q, O, ℓ, m and write O, ℓ, m (3Nd + 4N).
Total Nd + 2N + 2Nd + Tc(3Nd + 4N) elements, Θ(N²d²/M).

Counts are per head and per sequence, non-causal, without dropout or masking, as in the paper.
The FLOPs are the same for both, 4N²d per head (QKᵀ and PV, 2 FLOP per multiply-add); the gain
is entirely in the bytes, which is why the same maths runs faster.

Reference
---------
T. Dao, D. Y. Fu, S. Ermon, A. Rudra, C. Ré, "FlashAttention: Fast and Memory-Efficient Exact
Attention with IO-Awareness", NeurIPS 2022 (arXiv 2205.14135), Algorithms 0 and 1, Theorem 2.
"""

import numpy as np

from . import _validate as check
from .catalogue import FORMATS, NumberFormat
from .roofline import peak_flops

BF16 = FORMATS["bf16"]


def _shape(sequence_length, head_dim, heads, batch_size, element_format):
    check.positive("sequence_length", sequence_length, check.MAX_TOKENS)
    check.positive_integer("head_dim", head_dim, 1e5)
    check.positive_integer("heads", heads, 1e5)
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    check.entry("element_format", element_format, NumberFormat, "FORMATS")


def attention_core_flops(sequence_length, head_dim, heads=1, batch_size=1):
    """FLOPs of the attention core, QKᵀ and PV, for full (non-causal) attention.

    Parameters
    ----------
    sequence_length : number or array
        Tokens, N [tokens].
    head_dim : int or array
        Head dimension, d.
    heads : int or array, default 1
    batch_size : number or array, default 1

    Returns
    -------
    FLOPs [FLOP] = 4 N² d × heads × batch (softmax FLOPs neglected).
    """
    _shape(sequence_length, head_dim, heads, batch_size, BF16)
    return 4.0 * sequence_length**2 * head_dim * heads * batch_size


def naive_attention_hbm_bytes(
    sequence_length, head_dim, heads=1, batch_size=1, element_format=BF16
):
    """Device-memory bytes of standard attention, which writes and rereads S and P.

    Parameters
    ----------
    sequence_length : number or array
        Tokens, N [tokens].
    head_dim : int or array
        Head dimension, d.
    heads : int or array, default 1
    batch_size : number or array, default 1
    element_format : NumberFormat, default bf16
        Format of Q, K, V, S, P and O.

    Returns
    -------
    Bytes [bytes] = (4Nd + 4N²) × bytes per element × heads × batch.
    """
    _shape(sequence_length, head_dim, heads, batch_size, element_format)
    n, d = sequence_length, head_dim
    elements = 4 * n * d + 4 * n * n
    return elements * element_format.bytes_per_element * heads * batch_size


def flash_attention_hbm_bytes(
    sequence_length, head_dim, sram_bytes, heads=1, batch_size=1, element_format=BF16
):
    """Device-memory bytes of FlashAttention (Algorithm 1) with a given on-chip memory.

    Parameters
    ----------
    sequence_length : number or array
        Tokens, N [tokens].
    head_dim : int or array
        Head dimension, d.
    sram_bytes : number or array
        On-chip memory one thread block can use, M in bytes (the paper assumes about 100 KB; an
        H100 SM has up to 228 KiB of shared memory) [bytes].
    heads : int or array, default 1
    batch_size : number or array, default 1
    element_format : NumberFormat, default bf16

    Returns
    -------
    Bytes [bytes] = (3Nd + 2N + Tc (3Nd + 4N)) × bytes per element × heads × batch, with Tc =
    ⌈N / ⌈M / 4d⌉⌉ and M counted in elements.
    """
    _shape(sequence_length, head_dim, heads, batch_size, element_format)
    check.positive("sram_bytes", sram_bytes, 1e12)
    n, d = sequence_length, head_dim
    sram_elements = sram_bytes / element_format.bytes_per_element
    key_block = np.ceil(sram_elements / (4 * d))
    outer_blocks = np.ceil(n / key_block)
    elements = 3 * n * d + 2 * n + outer_blocks * (3 * n * d + 4 * n)
    return elements * element_format.bytes_per_element * heads * batch_size


def naive_attention_time(
    sequence_length, head_dim, gpu, heads=1, batch_size=1, element_format=BF16
):
    """Roofline lower bound on the time of standard attention on a GPU.

    Parameters
    ----------
    sequence_length : number or array
        Tokens, N [tokens].
    head_dim : int or array
        Head dimension, d.
    gpu : GPU
    heads : int or array, default 1
    batch_size : number or array, default 1
    element_format : NumberFormat, default bf16
        Also the compute format whose peak is used.

    Returns
    -------
    Time [s] = max(naive bytes / bandwidth, 4N²d·heads·batch / peak).
    """
    moved = naive_attention_hbm_bytes(sequence_length, head_dim, heads, batch_size, element_format)
    peak = peak_flops(gpu, element_format)
    flops = attention_core_flops(sequence_length, head_dim, heads, batch_size)
    return np.maximum(moved / gpu.hbm_bandwidth, flops / peak)


def flash_attention_time(
    sequence_length, head_dim, sram_bytes, gpu, heads=1, batch_size=1, element_format=BF16
):
    """Roofline lower bound on the time of FlashAttention on a GPU.

    Parameters
    ----------
    sequence_length : number or array
        Tokens, N [tokens].
    head_dim : int or array
        Head dimension, d.
    sram_bytes : number or array
        On-chip memory per thread block, M [bytes].
    gpu : GPU
    heads : int or array, default 1
    batch_size : number or array, default 1
    element_format : NumberFormat, default bf16

    Returns
    -------
    Time [s] = max(FlashAttention bytes / bandwidth, 4N²d·heads·batch / peak); at long sequences
    the compute term wins, which is the point.
    """
    moved = flash_attention_hbm_bytes(
        sequence_length, head_dim, sram_bytes, heads, batch_size, element_format
    )
    peak = peak_flops(gpu, element_format)
    flops = attention_core_flops(sequence_length, head_dim, heads, batch_size)
    return np.maximum(moved / gpu.hbm_bandwidth, flops / peak)
