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

With Algorithm 1's count the traffic is about Tc × 3Nd ≈ 12N²d²/M elements, so it moves about
M/(3d²) times less than standard attention (1.7× for d = 128 and M = 160 KiB of BF16; with
M = 96 KiB it moves more), and its arithmetic intensity is about M/(6d) FLOP per byte in 16-bit
(M in elements), whatever N: about 107 for d = 128 and M = 160 KiB, under the ridge point of an
H100 (295), H200 (206) or B200 (281). Algorithm 1 is therefore usually memory-bound; it turns
compute-bound only when M/(6d) passes the ridge (d = 64 on an A100, ridge 153).

FlashAttention-2 and -3 keep the same tiling but swap the loops (queries outer) and rely on the
L2 cache to serve the K and V re-reads of neighbouring thread blocks, so device memory sees only
the compulsory traffic: read Q, K and V and write O once, 4Nd elements per head
(:func:`fused_attention_hbm_bytes`). Their intensity is N/2 FLOP per byte in 16-bit, so they are
compute-bound from N of about 2 × the ridge point (600 tokens on an H100), which is what
practitioners measure.

References
----------
T. Dao, D. Y. Fu, S. Ermon, A. Rudra, C. Ré, "FlashAttention: Fast and Memory-Efficient Exact
Attention with IO-Awareness", NeurIPS 2022 (arXiv 2205.14135), Algorithms 0 and 1, Theorem 2;
T. Dao, "FlashAttention-2: Faster Attention with Better Parallelism and Work Partitioning",
arXiv 2307.08691; J. Shah et al., "FlashAttention-3", arXiv 2407.08608.
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
    Time [s] = max(FlashAttention bytes / bandwidth, 4N²d·heads·batch / peak).

    Notes
    -----
    With Algorithm 1's count the arithmetic intensity is about M/(6d) FLOP/B in 16-bit (M in
    elements), independent of N and usually under the ridge point, so this bound is usually the
    memory term: N = 8,192, d = 128, 32 heads, BF16, M = 160 KiB on an H100 SXM gives 3.2 ms of
    memory against 1.1 ms of compute. For the traffic modern kernels see (FlashAttention-2/3,
    compute-bound at long sequences) use :func:`fused_attention_time`.
    """
    moved = flash_attention_hbm_bytes(
        sequence_length, head_dim, sram_bytes, heads, batch_size, element_format
    )
    peak = peak_flops(gpu, element_format)
    flops = attention_core_flops(sequence_length, head_dim, heads, batch_size)
    return np.maximum(moved / gpu.hbm_bandwidth, flops / peak)


def fused_attention_hbm_bytes(
    sequence_length, head_dim, heads=1, batch_size=1, element_format=BF16
):
    """Compulsory device-memory bytes of a fused attention kernel: read Q, K, V and write O once.

    Parameters
    ----------
    sequence_length : number or array
        Tokens, N [tokens].
    head_dim : int or array
        Head dimension, d.
    heads : int or array, default 1
    batch_size : number or array, default 1
    element_format : NumberFormat, default bf16
        Format of Q, K, V and O.

    Returns
    -------
    Bytes [bytes] = 4Nd × bytes per element × heads × batch.

    Notes
    -----
    The floor on any exact attention kernel's traffic, and what FlashAttention-2/3 reach when the
    K and V tiles re-read by neighbouring thread blocks are served by the L2 cache (Dao 2023;
    Shah et al. 2024). Grouped-query attention shares K and V between query heads, so counting
    every head is an upper bound on this floor for GQA models.
    """
    _shape(sequence_length, head_dim, heads, batch_size, element_format)
    elements = 4 * sequence_length * head_dim
    return elements * element_format.bytes_per_element * heads * batch_size


def fused_attention_time(
    sequence_length, head_dim, gpu, heads=1, batch_size=1, element_format=BF16
):
    """Roofline lower bound on the time of a fused attention kernel (FlashAttention-2/3).

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
    Time [s] = max(4Nd·bytes·heads·batch / bandwidth, 4N²d·heads·batch / peak). The intensity is
    N/2 FLOP/B in 16-bit, so the compute term wins once N is past about twice the ridge point
    (590 tokens for BF16 on an H100 SXM).
    """
    moved = fused_attention_hbm_bytes(sequence_length, head_dim, heads, batch_size, element_format)
    peak = peak_flops(gpu, element_format)
    flops = attention_core_flops(sequence_length, head_dim, heads, batch_size)
    return np.maximum(moved / gpu.hbm_bandwidth, flops / peak)
