"""Fused kernels: bytes moved by an unfused against a fused RMSNorm or elementwise chain.

Elementwise and reduction kernels do a few FLOPs per byte, so they run at memory bandwidth and
their time is the bytes they move. Run one operation per kernel (PyTorch eager) and every
intermediate is written to device memory and read back; fuse the chain into one kernel (Triton,
torch.compile) and only the input is read and the output written.

RMSNorm, y = x / sqrt(mean(x²) + ε) ⊙ w, on N rows of width h, as eager kernels in one format:
pow (read Nh, write Nh), mean over the row (read Nh, write N), add ε (read N, write N), rsqrt (read
N, write N), multiply by the row scale (read Nh + N, write Nh), multiply by w (read Nh + h, write
Nh): 7Nh + 6N + h elements and 6 launches. Fused: read x and w, write y: 2Nh + h elements, one
launch, about 3.5 times fewer bytes. (Hugging Face's Llama RMSNorm also casts to FP32 and back,
which makes eager mode worse still.)

References
----------
B. Zhang, R. Sennrich, "Root Mean Square Layer Normalization", NeurIPS 2019; P. Tillet, H. T.
Kung, D. Cox, "Triton", MAPL 2019 (the fused RMSNorm/LayerNorm tutorial kernels).
"""

from . import _validate as check
from .catalogue import FORMATS, GPU, NumberFormat

BF16 = FORMATS["bf16"]


def _format(value):
    return check.entry("element_format", value, NumberFormat, "FORMATS")


def rmsnorm_unfused_bytes(tokens, hidden_size, element_format=BF16):
    """Device-memory bytes of RMSNorm run as six separate eager kernels.

    Parameters
    ----------
    tokens : number or array
        Rows normalised, N [tokens].
    hidden_size : number or array
        Row width, h.
    element_format : NumberFormat, default bf16
        Format of inputs, intermediates and outputs.

    Returns
    -------
    Bytes [bytes] = (7Nh + 6N + h) × bytes per element.
    """
    check.positive("tokens", tokens, check.MAX_TOKENS)
    check.positive_integer("hidden_size", hidden_size, 1e7)
    _format(element_format)
    elements = 7 * tokens * hidden_size + 6 * tokens + hidden_size
    return elements * element_format.bytes_per_element


def rmsnorm_fused_bytes(tokens, hidden_size, element_format=BF16):
    """Device-memory bytes of RMSNorm as one fused kernel.

    Parameters
    ----------
    tokens : number or array
        Rows normalised, N [tokens].
    hidden_size : number or array
        Row width, h.
    element_format : NumberFormat, default bf16

    Returns
    -------
    Bytes [bytes] = (2Nh + h) × bytes per element: read x and the weight, write y.
    """
    check.positive("tokens", tokens, check.MAX_TOKENS)
    check.positive_integer("hidden_size", hidden_size, 1e7)
    _format(element_format)
    return (2 * tokens * hidden_size + hidden_size) * element_format.bytes_per_element


def _chain_inputs(elements, operations, extra_inputs, element_format):
    check.positive("elements", elements, check.MAX_BYTES)
    check.positive_integer("operations", operations, 1e4)
    check.non_negative_integer("extra_inputs", extra_inputs, 1e4)
    _format(element_format)


def elementwise_chain_unfused_bytes(elements, operations, extra_inputs=0, element_format=BF16):
    """Device-memory bytes of a chain of elementwise operations run one kernel per operation.

    Parameters
    ----------
    elements : number or array
        Elements in the tensor [elements].
    operations : int or array
        Elementwise operations in the chain (e.g. 3 for bias + GELU + dropout).
    extra_inputs : int or array, default 0
        Further tensors of the same size the chain reads once (a residual, a gate).
    element_format : NumberFormat, default bf16

    Returns
    -------
    Bytes [bytes] = (2 × operations + extra inputs) × elements × bytes per element: each kernel
    reads its input and writes its output.
    """
    _chain_inputs(elements, operations, extra_inputs, element_format)
    passes = 2 * operations + extra_inputs
    return passes * elements * element_format.bytes_per_element


def elementwise_chain_fused_bytes(elements, operations, extra_inputs=0, element_format=BF16):
    """Device-memory bytes of a chain of elementwise operations fused into one kernel.

    Parameters
    ----------
    elements : number or array
        Elements in the tensor [elements].
    operations : int or array
        Elementwise operations in the chain (they no longer change the traffic).
    extra_inputs : int or array, default 0
        Further tensors of the same size read once.
    element_format : NumberFormat, default bf16

    Returns
    -------
    Bytes [bytes] = (2 + extra inputs) × elements × bytes per element: read the input once, write
    the output once.
    """
    _chain_inputs(elements, operations, extra_inputs, element_format)
    passes = 2 + extra_inputs + 0 * operations  # broadcast like the unfused count
    return passes * elements * element_format.bytes_per_element


def memory_bound_time(bytes_moved, gpu):
    """Time to move bytes at the GPU's memory bandwidth (the time of a memory-bound kernel).

    Parameters
    ----------
    bytes_moved : number or array
        Device-memory traffic [bytes].
    gpu : GPU

    Returns
    -------
    Time [s] = bytes / bandwidth.
    """
    check.positive("bytes_moved", bytes_moved, check.MAX_BYTES)
    check.entry("gpu", gpu, GPU, "GPUS")
    return bytes_moved / gpu.hbm_bandwidth


def fusion_speedup(
    unfused_bytes, fused_bytes, gpu, unfused_kernels=1, fused_kernels=1, launch_overhead=0.0
):
    """Speedup of a fused kernel over its unfused chain, bandwidth and launch costs included.

    Parameters
    ----------
    unfused_bytes, fused_bytes : number or array
        Device-memory traffic of each version [bytes].
    gpu : GPU
    unfused_kernels, fused_kernels : number or array, default 1
        Kernel launches of each version (6 and 1 for RMSNorm).
    launch_overhead : number or array, default 0
        Time per launch that does not overlap [s].

    Returns
    -------
    Speedup [1] = (unfused bytes / bandwidth + unfused kernels × overhead) / (fused bytes /
    bandwidth + fused kernels × overhead).
    """
    check.positive("unfused_bytes", unfused_bytes, check.MAX_BYTES)
    check.positive("fused_bytes", fused_bytes, check.MAX_BYTES)
    check.entry("gpu", gpu, GPU, "GPUS")
    check.positive("unfused_kernels", unfused_kernels, check.MAX_COUNT)
    check.positive("fused_kernels", fused_kernels, check.MAX_COUNT)
    check.non_negative("launch_overhead", launch_overhead, 1.0)
    bandwidth = gpu.hbm_bandwidth
    unfused = unfused_bytes / bandwidth + unfused_kernels * launch_overhead
    fused = fused_bytes / bandwidth + fused_kernels * launch_overhead
    return unfused / fused
