"""Page 07: the roofline of a GPU and where a model's decode step or prefill sits on it.

The roof is :func:`roofline.attainable_flops` (min(peak, intensity × bandwidth)) with its ridge
at :func:`roofline.ridge_point`; the operating point is the step's arithmetic intensity
(:func:`roofline.decode_arithmetic_intensity` or :func:`roofline.prefill_arithmetic_intensity`),
its FLOPs and bytes, and its time :func:`roofline.roofline_time`. Splitting a model over p GPUs
divides its FLOPs and bytes alike, so each GPU sits at the same point.
"""

from collections.abc import Mapping
from typing import Any

import numpy as np
from django import forms

from problems.estimator import FORMATS
from problems.estimator.roofline import (
    attainable_flops,
    decode_arithmetic_intensity,
    decode_bytes,
    decode_flops,
    peak_flops,
    prefill_arithmetic_intensity,
    prefill_bytes,
    prefill_flops,
    ridge_point,
    roofline_time,
)
from trainer import charts

from ._common import (
    DemoForm,
    compute_format_for,
    format_field,
    gpu_field,
    integer_field,
    model_field,
)
from ._display import flops_text, number_text, show

KV_FORMAT = FORMATS["bf16"]
PHASES = [("decode", "Decode (one new token per sequence)"), ("prefill", "Prefill (whole prompts)")]
TERA = 1e12


class Form(DemoForm):
    model = model_field()
    gpu = gpu_field()
    weight_format = format_field("Weights stored in")
    phase = forms.ChoiceField(label="Phase", choices=PHASES)
    batch_size = integer_field("Batch size [sequences]", 1, 65536)
    tokens = integer_field(
        "Tokens per sequence [tokens]",
        1,
        1_000_000,
        "Decode: the context already cached. Prefill: the prompt length.",
    )

    sections = (
        ("The operating point", ("model", "gpu", "weight_format", "phase", "batch_size", "tokens")),
    )
    defaults = {
        "model": "llama-3-70b",
        "gpu": "h100-sxm",
        "weight_format": "bf16",
        "phase": "decode",
        "batch_size": 1,
        "tokens": 2048,
    }


def compute(data: Mapping[str, Any]) -> dict[str, Any]:
    model, gpu, weights = data["model"], data["gpu"], data["weight_format"]
    batch, tokens = data["batch_size"], data["tokens"]
    compute_format = compute_format_for(gpu, weights)
    if data["phase"] == "decode":
        intensity = decode_arithmetic_intensity(model, weights, KV_FORMAT, batch, tokens)
        flops = decode_flops(model, batch, tokens)
        moved = decode_bytes(model, weights, KV_FORMAT, batch, tokens)
    else:
        intensity = prefill_arithmetic_intensity(model, weights, KV_FORMAT, tokens, batch)
        flops = prefill_flops(model, tokens, batch)
        moved = prefill_bytes(model, weights, KV_FORMAT, tokens, batch)
    intensity = float(intensity)
    ridge = float(ridge_point(gpu, compute_format))
    peak = peak_flops(gpu, compute_format)
    reached = float(attainable_flops(intensity, gpu, compute_format))
    low = min(0.1, intensity / 3)
    high = max(1e5, intensity * 3)
    axis = np.geomspace(low, high, 60)
    roof = attainable_flops(axis, gpu, compute_format) / TERA
    chart = charts.line_chart(
        [
            (
                f"{gpu.name}, {compute_format.name}",
                charts.PALETTE[0],
                list(zip(axis, roof, strict=True)),
            )
        ],
        title=f"Roofline of the {gpu.name} multiplying in {compute_format.name}",
        x_label="arithmetic intensity [FLOP/byte]",
        y_label="attainable [TFLOP/s]",
        log_x=True,
        log_y=True,
        legend="left",
        decade_ticks=True,
        guides=[("ridge", [(ridge, float(roof[0])), (ridge, peak / TERA)])],
        marker=(intensity, reached / TERA, f"{data['phase']} at {number_text(intensity)} FLOP/B"),
    )
    return {
        "intensity": show("intensity", intensity, "number", " FLOP/B"),
        "ridge": show("ridge", ridge, "number", " FLOP/B"),
        "peak": flops_text(peak),
        "attainable": show("attainable", reached, "flops"),
        "share": show("share_of_peak", reached / peak, "percent"),
        "flops": show("step_flops", flops, "flop"),
        "bytes": show("step_bytes", moved, "bytes"),
        "time": show("step_time", roofline_time(flops, moved, gpu, compute_format), "seconds"),
        "memory_bound": intensity < ridge,
        "compute_format": compute_format,
        "chart": chart,
    }
