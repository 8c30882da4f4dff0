"""A small stand-in catalogue with the estimator's field and function names, so engine tests
that are not about the estimator run on figures written out here (the datasheet and config.json
figures of docs/reference.md)."""

import math
from dataclasses import dataclass
from pathlib import Path

from problems.engine import Catalogue

HERE = Path(__file__).parent
PROBLEM_3 = (HERE / "problem3.yaml").read_text()


@dataclass(frozen=True)
class Model:
    key: str
    name: str
    layers: int
    attention_heads: int
    kv_heads: int
    head_dim: int
    total_params: int
    active_params: int
    max_context_tokens: int


@dataclass(frozen=True)
class GPU:
    key: str
    name: str
    memory_bytes: float
    hbm_bandwidth: float
    interconnect: str


@dataclass(frozen=True)
class NumberFormat:
    key: str
    name: str
    bits_per_element: float
    bytes_per_element: float


MODELS = {
    m.key: m
    for m in (
        Model("llama-3-8b", "Llama-3-8B", 32, 32, 8, 128, 8_030_261_248, 8_030_261_248, 8192),
        Model("llama-3-70b", "Llama-3-70B", 80, 64, 8, 128, 70_553_706_496, 70_553_706_496, 8192),
        Model(
            "mixtral-8x7b", "Mixtral-8x7B", 32, 32, 8, 128, 46_702_792_704, 12_879_925_248, 32768
        ),
    )
}
GPUS = {
    g.key: g
    for g in (
        GPU("h100-sxm", "H100 SXM", 80e9, 3.35e12, "NVLink 900 GB/s"),
        GPU("h200", "H200", 141e9, 4.8e12, "NVLink 900 GB/s"),
        GPU("l40s", "L40S", 48e9, 864e9, "PCIe 4"),
    )
}
FORMATS = {
    f.key: f
    for f in (
        NumberFormat("bf16", "BF16", 16, 2),
        NumberFormat("fp8", "FP8 (E4M3)", 8, 1),
        NumberFormat("int4", "INT4 (group 128, FP16 scale)", 4.125, 4.125 / 8),
    )
}


def _need(condition, message):
    if not condition:
        raise ValueError(message)


def _positive(name, value):
    _need(
        type(value) in (int, float) and math.isfinite(value) and 0 < value <= 1e21,
        f"{name} must be a positive number, got {value!r}"[:120],
    )


def kv_bytes_per_token(model, kv_format):
    """KV cache bytes per token: 2 × layers × KV heads × head dim × bytes per element."""
    _need(isinstance(model, Model), "model must be a Model")
    _need(isinstance(kv_format, NumberFormat), "kv_format must be a NumberFormat")
    return 2 * model.layers * model.kv_heads * model.head_dim * kv_format.bytes_per_element


def weight_bytes(model, weight_format):
    """Weight bytes: total parameters × bytes per element."""
    _need(isinstance(model, Model), "model must be a Model")
    _need(isinstance(weight_format, NumberFormat), "weight_format must be a NumberFormat")
    return model.total_params * weight_format.bytes_per_element


def gpus_needed(total_bytes, gpu, usable_fraction=0.9):
    """GPUs to hold total_bytes at a usable share of each GPU's memory."""
    _positive("total_bytes", total_bytes)
    _need(isinstance(gpu, GPU), "gpu must be a GPU")
    _need(
        type(usable_fraction) in (int, float) and 0 < usable_fraction <= 1,
        "usable_fraction must be a fraction above 0 and at most 1",
    )
    return math.ceil(total_bytes / (gpu.memory_bytes * usable_fraction))


def broken(x):
    """A function with a bug: it raises something other than ValueError."""
    return {}[x]


def gives_text(x):
    """A function that breaks the contract by returning text."""
    return "x" * 10


def gives_array(x):
    """A function that returns several numbers where one is expected."""
    import numpy as np

    return np.arange(3) * x


CATALOGUE = Catalogue(
    entries={"gpu": GPUS, "model": MODELS, "format": FORMATS},
    classes={"gpu": GPU, "model": Model, "format": NumberFormat},
    fields={
        GPU: frozenset({"key", "name", "memory_bytes", "hbm_bandwidth", "interconnect"}),
        Model: frozenset(
            {
                "key",
                "name",
                "layers",
                "attention_heads",
                "kv_heads",
                "head_dim",
                "total_params",
                "active_params",
                "max_context_tokens",
            }
        ),
        NumberFormat: frozenset({"key", "name", "bits_per_element", "bytes_per_element"}),
    },
    functions={
        "kv_bytes_per_token": kv_bytes_per_token,
        "weight_bytes": weight_bytes,
        "gpus_needed": gpus_needed,
        "broken": broken,
        "gives_text": gives_text,
        "gives_array": gives_array,
    },
)
