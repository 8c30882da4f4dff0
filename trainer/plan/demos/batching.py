"""Page 03: static against continuous batching for a chosen spread of answer lengths.

A static batch runs until its longest answer ends: its slots are busy for the mean length out of
the expected longest (:func:`batching.static_batching_utilization`, with the expected maximum of
the batch from ``expected_max_uniform`` / ``_exponential`` / ``_pareto``); continuous batching
refills a slot at the next step (:func:`batching.continuous_batching_utilization`). Tokens per
second follow from the decode step time at that batch (:func:`latency.decode_step_time`) and the
prefill of each prompt (:func:`latency.prefill_time`).

The mean answer length is the expected maximum of a batch of one, so the same estimator functions
give both.
"""

from collections.abc import Mapping
from typing import Any

import numpy as np
from django import forms

from problems.estimator import FORMATS
from problems.estimator.batching import (
    continuous_batching_throughput,
    continuous_batching_utilization,
    expected_max_exponential,
    expected_max_pareto,
    expected_max_uniform,
    static_batching_throughput,
    static_batching_utilization,
)
from problems.estimator.latency import decode_step_time, prefill_time
from problems.estimator.memory import kv_cache_bytes, max_concurrent_sequences
from trainer import charts

from ._common import (
    USABLE_FRACTION,
    DemoForm,
    Impossible,
    compute_format_for,
    format_field,
    gpu_field,
    integer_field,
    model_field,
    number_field,
    require_weights_fit,
    tensor_parallel_field,
)
from ._display import bytes_text, percent_text, show, whole

KV_FORMAT = FORMATS["bf16"]
DISTRIBUTIONS = [
    ("uniform", "Uniform between a shortest and a longest length"),
    ("exponential", "Exponential (many short answers, a few long ones)"),
    ("pareto", "Pareto (heavy tail: rare, very long answers)"),
]
CHART_BATCHES = 2.0 ** np.arange(0, 13)  # 1 … 4,096


class Form(DemoForm):
    model = model_field()
    gpu = gpu_field()
    weight_format = format_field("Weights stored in")
    tensor_parallel = tensor_parallel_field()
    batch_size = integer_field("Batch size [requests]", 1, 4096)
    prompt_tokens = integer_field("Prompt length [tokens]", 1, 1_000_000)
    distribution = forms.ChoiceField(label="Answer lengths", choices=DISTRIBUTIONS)
    shortest = integer_field("Uniform: shortest answer [tokens]", 0, 1_000_000)
    longest = integer_field("Uniform: longest answer [tokens]", 1, 1_000_000)
    mean = integer_field("Exponential: mean answer [tokens]", 1, 1_000_000)
    minimum = integer_field("Pareto: shortest answer [tokens]", 1, 1_000_000)
    shape = number_field("Pareto: tail index α (above 1; lower is heavier)", 1.01, 100, step="0.01")

    sections = (
        ("The server", ("model", "gpu", "weight_format", "tensor_parallel")),
        ("The batch", ("batch_size", "prompt_tokens", "distribution")),
        ("Answer lengths", ("shortest", "longest", "mean", "minimum", "shape")),
    )
    defaults = {
        "model": "llama-3-8b",
        "gpu": "h100-sxm",
        "weight_format": "bf16",
        "tensor_parallel": 1,
        "batch_size": 32,
        "prompt_tokens": 512,
        "distribution": "exponential",
        "shortest": 32,
        "longest": 1024,
        "mean": 256,
        "minimum": 64,
        "shape": 1.5,
    }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        shortest, longest = data.get("shortest"), data.get("longest")
        if data.get("distribution") == "uniform" and shortest is not None and longest is not None:
            if shortest >= longest:
                raise forms.ValidationError("The longest answer must be longer than the shortest.")
        return data


def _expected_max(data: Mapping[str, Any], count: int | np.ndarray) -> Any:
    """Expected longest answer among ``count`` requests (the mean when ``count`` is 1)."""
    kind = data["distribution"]
    if kind == "uniform":
        return expected_max_uniform(data["shortest"], data["longest"], count)
    if kind == "exponential":
        return expected_max_exponential(data["mean"], count)
    return expected_max_pareto(data["minimum"], data["shape"], count)


def compute(data: Mapping[str, Any]) -> dict[str, Any]:
    model, gpu, weights = data["model"], data["gpu"], data["weight_format"]
    gpus, batch, prompt = data["tensor_parallel"], data["batch_size"], data["prompt_tokens"]
    require_weights_fit(model, gpu, weights, gpus)
    compute_format = compute_format_for(gpu, weights)
    parallel = {"tensor_parallel": gpus, "compute_format": compute_format}
    mean = float(_expected_max(data, 1))
    longest = float(_expected_max(data, batch))
    # Every slot of a static batch keeps its cache until the longest answer ends.
    fits = int(
        max_concurrent_sequences(
            model,
            gpu,
            weights,
            KV_FORMAT,
            prompt + longest,
            gpus=gpus,
            usable_fraction=USABLE_FRACTION,
        )
    )
    if fits < batch:
        need = kv_cache_bytes(model, KV_FORMAT, prompt + longest, batch)
        raise Impossible(
            f"A batch of {batch} requests of {prompt:,} + {whole(longest)} tokens needs "
            f"{bytes_text(need)} of KV cache; after the weights, {gpus} × {gpu.name} hold "
            f"{fits:,} such requests. Choose a smaller batch, shorter texts or more GPUs."
        )
    # A sequence's cache grows from the prompt to prompt + its answer: about half-way on average.
    context = prompt + mean / 2
    step = decode_step_time(model, gpu, weights, KV_FORMAT, batch, context, **parallel)
    prefill = prefill_time(model, gpu, weights, KV_FORMAT, prompt, **parallel)
    static_use = static_batching_utilization(mean, longest)
    continuous_use = continuous_batching_utilization(mean)
    static_rate = static_batching_throughput(batch, step, mean, longest, prefill)
    continuous_rate = continuous_batching_throughput(batch, step, mean, prefill)

    chart_batches = CHART_BATCHES[CHART_BATCHES <= max(fits, 1)]
    chart = None
    if len(chart_batches) > 1:
        steps = decode_step_time(model, gpu, weights, KV_FORMAT, chart_batches, context, **parallel)
        # The array path of the order statistics differs from the scalar one in the last bits;
        # its own batch-of-one mean keeps every expected maximum at or above the mean.
        longest_each = _expected_max(data, chart_batches)
        mean_each = _expected_max(data, np.ones_like(chart_batches))
        static_line = static_batching_throughput(
            chart_batches, steps, mean_each, longest_each, prefill
        )
        continuous_line = continuous_batching_throughput(chart_batches, steps, mean, prefill)
        chart = charts.line_chart(
            [
                (
                    "continuous",
                    charts.PALETTE[0],
                    list(zip(chart_batches, continuous_line, strict=True)),
                ),
                ("static", charts.PALETTE[1], list(zip(chart_batches, static_line, strict=True))),
            ],
            title="Generated tokens per second against batch size",
            x_label="batch size [requests]",
            y_label="tokens/s",
            log_x=True,
            decade_ticks=True,
            legend="left",
            marker=(batch, float(continuous_rate), f"batch {batch}, continuous"),
        )
    return {
        "mean": show("mean_output", mean, "number", " tokens"),
        "longest": show("expected_longest", longest, "number", " tokens"),
        "static_use": show("static_utilization", static_use, "percent"),
        "continuous_use": show("continuous_utilization", continuous_use, "percent"),
        "step": show("step_time", step, "seconds"),
        "prefill": show("prefill_time", prefill, "seconds"),
        "static_rate": show("static_throughput", static_rate, "count", " tokens/s"),
        "continuous_rate": show("continuous_throughput", continuous_rate, "count", " tokens/s"),
        "gain": show("continuous_gain", continuous_rate / static_rate, "number", "×"),
        "fits": fits,
        "fits_text": percent_text(USABLE_FRACTION),
        "chart": chart,
        "compute_format": compute_format,
    }
