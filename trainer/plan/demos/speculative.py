"""Page 05: speculative decoding's speedup against the acceptance rate, and at larger batches.

Expected tokens per target pass :func:`speculative.speculative_expected_tokens` and the speedup
E / (γc + 1) :func:`speculative.speculative_speedup` (Leviathan et al. 2023), the acceptance rate
below which it loses :func:`speculative.speculative_break_even_acceptance`, and the roofline
speedup at a batch size from both models' step times
(:func:`speculative.speculative_speedup_at_batch`): large batches are compute-bound, so
verifying rejected drafts costs real time.
"""

from collections.abc import Mapping
from typing import Any

import numpy as np
from django import forms

from problems.estimator import FORMATS
from problems.estimator.memory import max_concurrent_sequences
from problems.estimator.speculative import (
    speculative_break_even_acceptance,
    speculative_expected_tokens,
    speculative_speedup,
    speculative_speedup_at_batch,
)
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
from ._display import number_text, show

KV_FORMAT = FORMATS["bf16"]
CHART_GAMMAS = (1, 2, 4, 8)
CHART_ALPHAS = np.linspace(0.0, 0.99, 45)
CHART_BATCHES = 2.0 ** np.arange(0, 11)  # 1 … 1,024


class Form(DemoForm):
    acceptance_rate = number_field("Acceptance rate α", 0, 1, step="0.01")
    draft_tokens = integer_field("Draft tokens per pass γ", 1, 16)
    cost_ratio = number_field(
        "Draft step time ÷ target step time, c",
        0,
        0.99,
        "About 0.05–0.1 for an 8B draft of a 70B target.",
        step="0.01",
    )
    target_model = model_field("Target model")
    draft_model = model_field("Draft model")
    gpu = gpu_field()
    weight_format = format_field("Weights stored in")
    tensor_parallel = tensor_parallel_field("GPUs for the target (tensor parallel)")
    batch_size = integer_field("Batch size [sequences]", 1, 4096)
    context_tokens = integer_field("Context per sequence [tokens]", 1, 1_000_000)

    sections = (
        ("Speculation", ("acceptance_rate", "draft_tokens", "cost_ratio")),
        (
            "At a batch size (roofline)",
            (
                "target_model",
                "draft_model",
                "gpu",
                "weight_format",
                "tensor_parallel",
                "batch_size",
                "context_tokens",
            ),
        ),
    )
    defaults = {
        "acceptance_rate": 0.8,
        "draft_tokens": 4,
        "cost_ratio": 0.05,
        "target_model": "llama-3-70b",
        "draft_model": "llama-3-8b",
        "gpu": "h200",
        "weight_format": "fp8",
        "tensor_parallel": 1,
        "batch_size": 1,
        "context_tokens": 2048,
    }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        target, draft = data.get("target_model"), data.get("draft_model")
        if target and draft and draft.total_params >= target.total_params:
            raise forms.ValidationError(
                f"The draft must be smaller than the target: {draft.name} is not smaller than "
                f"{target.name}."
            )
        return data


def compute(data: Mapping[str, Any]) -> dict[str, Any]:
    alpha, gamma, cost = data["acceptance_rate"], data["draft_tokens"], data["cost_ratio"]
    target, draft, gpu = data["target_model"], data["draft_model"], data["gpu"]
    weights, gpus = data["weight_format"], data["tensor_parallel"]
    batch, context = data["batch_size"], data["context_tokens"]
    require_weights_fit(target, gpu, weights, gpus)
    require_weights_fit(draft, gpu, weights, 1)
    compute_format = compute_format_for(gpu, weights)
    fits = int(
        max_concurrent_sequences(
            target, gpu, weights, KV_FORMAT, context, gpus=gpus, usable_fraction=USABLE_FRACTION
        )
    )
    if fits < batch:
        raise Impossible(
            f"After {target.name}'s weights, {gpus} × {gpu.name} hold the KV cache of {fits:,} "
            f"sequences of {context:,} tokens, not {batch:,}. Choose a smaller batch, a shorter "
            "context or more GPUs."
        )

    expected = speculative_expected_tokens(alpha, gamma)
    speedup = speculative_speedup(alpha, gamma, cost)
    break_even = speculative_break_even_acceptance(gamma, cost)
    gammas = sorted(set(CHART_GAMMAS) | {gamma})
    alpha_chart = charts.line_chart(
        [
            (
                f"γ = {each}",
                charts.PALETTE[index % len(charts.PALETTE)],
                list(zip(CHART_ALPHAS, speculative_speedup(CHART_ALPHAS, each, cost), strict=True)),
            )
            for index, each in enumerate(gammas)
        ],
        title=f"Speedup against acceptance rate, draft cost c = {number_text(cost)}",
        x_label="acceptance rate α",
        y_label="speedup ×",
        legend="left",
        guides=[("no speedup", [(0.0, 1.0), (1.0, 1.0)])],
        marker=(alpha, float(speedup), f"α = {number_text(alpha)}, γ = {gamma}"),
    )

    def at_batch(batches: int | np.ndarray) -> Any:  # a number, or an array for an array
        return speculative_speedup_at_batch(
            target,
            draft,
            gpu,
            weights,
            KV_FORMAT,
            batches,
            context,
            alpha,
            gamma,
            tensor_parallel=gpus,
            compute_format=compute_format,
        )

    roofline_speedup = float(at_batch(batch))
    batches = CHART_BATCHES[CHART_BATCHES <= fits]
    batch_chart = None
    if len(batches) > 1:
        batch_chart = charts.line_chart(
            [("roofline", charts.PALETTE[0], list(zip(batches, at_batch(batches), strict=True)))],
            title=f"Speedup against batch size, α = {number_text(alpha)}, γ = {gamma}",
            x_label="batch size [sequences]",
            y_label="speedup ×",
            log_x=True,
            decade_ticks=True,
            guides=[("no speedup", [(1.0, 1.0), (float(batches[-1]), 1.0)])],
            marker=(batch, roofline_speedup, f"batch {batch}"),
        )
    return {
        "expected": show("expected_tokens", expected, "number", " tokens"),
        "speedup": show("speedup", speedup, "number", "×"),
        "break_even": show("break_even_acceptance", break_even, "number"),
        "roofline_speedup": show("roofline_speedup", roofline_speedup, "number", "×"),
        "slower": roofline_speedup < 1,
        "alpha_chart": alpha_chart,
        "batch_chart": batch_chart,
        "compute_format": compute_format,
        "fits": fits,
    }
