"""Page 06: every GPU against every number format for one model: memory, speed, dollars.

For each pair: weight memory (:func:`memory.weight_bytes`), the GPUs that hold the weights and
the batch's KV cache (:func:`memory.gpus_needed`, rounded up to a power of two for tensor
parallelism), generated tokens per second (:func:`latency.decode_tokens_per_second`) and dollars
per million tokens (:func:`capacity.cost_per_million_tokens` at that rate, as
:func:`gpu_choice.decode_cost_per_million_tokens` computes it). Multiplies run in the
weights' format where the GPU has tensor cores for it, else in BF16.
"""

import math
from collections.abc import Mapping
from typing import Any

from django import forms

from problems.estimator import FORMATS, GPUS
from problems.estimator.capacity import cost_per_million_tokens
from problems.estimator.catalogue import GPU, Model, NumberFormat
from problems.estimator.latency import decode_tokens_per_second
from problems.estimator.memory import gpus_needed, kv_cache_bytes, weight_bytes

from ._common import (
    KV_FORMATS,
    USABLE_FRACTION,
    WEIGHT_FORMATS,
    DemoForm,
    compute_format_for,
    format_field,
    integer_field,
    model_field,
)
from ._display import bytes_text, show, whole

MAX_GPUS = 8  # one server: tensor parallelism beyond a node's NVLink domain is not modelled here
PRICES = [
    ("default", "Typical rental price"),
    ("low", "Low end of the range"),
    ("high", "High end of the range"),
]


class Form(DemoForm):
    model = model_field()
    batch_size = integer_field("Batch size [sequences]", 1, 4096)
    context_tokens = integer_field("Context per sequence [tokens]", 1, 1_000_000)
    kv_format = format_field("KV cache stored in", KV_FORMATS)
    price = forms.ChoiceField(label="GPU price per hour", choices=PRICES)

    sections = (("The workload", ("model", "batch_size", "context_tokens", "kv_format", "price")),)
    defaults = {
        "model": "llama-3-70b",
        "batch_size": 16,
        "context_tokens": 4096,
        "kv_format": "bf16",
        "price": "default",
    }


def _cell(
    model: Model,
    gpu: GPU,
    weight_format: NumberFormat,
    kv_format: NumberFormat,
    batch: int,
    context: int,
    price_choice: str,
) -> dict[str, Any]:
    need = gpus_needed(
        weight_bytes(model, weight_format) + kv_cache_bytes(model, kv_format, context, batch),
        gpu,
        USABLE_FRACTION,
    )
    gpus = 1 << math.ceil(math.log2(need))
    if gpus > 1 and not gpu.interconnect_bandwidth:
        return {"reason": f"needs {whole(need)}; no GPU link", "gpus": None}
    if gpus > MAX_GPUS:
        return {"reason": f"needs {whole(need)} GPUs, more than one server", "gpus": None}
    compute_format = compute_format_for(gpu, weight_format)
    price = getattr(gpu, f"price_per_second_{price_choice}")  # the estimator's unit, USD/s
    name = f"{gpu.key}_{weight_format.key}"
    rate = decode_tokens_per_second(
        model,
        gpu,
        weight_format,
        kv_format,
        batch,
        context,
        tensor_parallel=gpus,
        compute_format=compute_format,
    )
    # What decode_cost_per_million_tokens computes, from the rate already at hand (USD/token).
    cost = cost_per_million_tokens(price, rate, gpus)
    return {
        "gpu": gpu,
        "format": weight_format,
        "gpus": gpus,
        "native": compute_format is weight_format,
        "compute_format": compute_format,
        "rate": show(f"rate_{name}", rate, "count", " tok/s"),
        "cost": show(f"cost_{name}", cost * 1e6, "dollars", "/M"),
        "price": getattr(gpu, f"price_per_hour_{price_choice}"),
    }


def compute(data: Mapping[str, Any]) -> dict[str, Any]:
    model, batch, context = data["model"], data["batch_size"], data["context_tokens"]
    kv_format, price_choice = data["kv_format"], data["price"]
    formats = [FORMATS[key] for key in WEIGHT_FORMATS]
    columns = [
        {"format": each, "weights": show(f"weights_{each.key}", weight_bytes(model, each), "bytes")}
        for each in formats
    ]
    rows = []
    cheapest = None
    for gpu in GPUS.values():
        cells = [
            _cell(model, gpu, each, kv_format, batch, context, price_choice) for each in formats
        ]
        for cell in cells:
            if cell["gpus"] and (cheapest is None or cell["cost"].value < cheapest["cost"].value):
                cheapest = cell
        rows.append({"gpu": gpu, "cells": cells})
    if cheapest is not None:
        cheapest["cheapest"] = True
    return {
        "columns": columns,
        "rows": rows,
        "kv": bytes_text(kv_cache_bytes(model, kv_format, context, batch)),
        "cheapest": cheapest,
    }
