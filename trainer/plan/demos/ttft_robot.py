"""Page 01: time to first token, part by part, and how far a moving robot travels meanwhile.

TTFT = queue + prefill + network (:func:`latency.time_to_first_token`); the prefill is the
estimator's roofline lower bound for the chosen model, GPU and prompt
(:func:`latency.prefill_time`), and each part of the wait becomes a distance at the robot's speed
(:func:`latency.distance_during_latency`).
"""

from collections.abc import Mapping
from typing import Any

from problems.estimator import FORMATS
from problems.estimator.latency import (
    distance_during_latency,
    prefill_time,
    time_to_first_token,
)
from trainer import charts

from ._common import (
    DemoForm,
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


class Form(DemoForm):
    model = model_field()
    gpu = gpu_field()
    weight_format = format_field("Weights stored in")
    tensor_parallel = tensor_parallel_field()
    prompt_tokens = integer_field("Prompt length [tokens]", 1, 1_000_000)
    queue_ms = number_field("Time waiting in the queue [ms]", 0, 600_000)
    network_ms = number_field("Network to the client [ms]", 0, 60_000)
    speed = number_field(
        "Robot speed [m/s]", 0, 100, "A walking person: 1.4 m/s; a car in town: 14 m/s."
    )

    sections = (
        ("The server", ("model", "gpu", "weight_format", "tensor_parallel")),
        ("The request", ("prompt_tokens", "queue_ms", "network_ms")),
        ("The robot", ("speed",)),
    )
    defaults = {
        "model": "llama-3-8b",
        "gpu": "h100-sxm",
        "weight_format": "bf16",
        "tensor_parallel": 1,
        "prompt_tokens": 2000,
        "queue_ms": 50,
        "network_ms": 30,
        "speed": 2,
    }


def compute(data: Mapping[str, Any]) -> dict[str, Any]:
    model, gpu, weights = data["model"], data["gpu"], data["weight_format"]
    gpus = data["tensor_parallel"]
    require_weights_fit(model, gpu, weights, gpus)
    compute_format = compute_format_for(gpu, weights)
    queue = data["queue_ms"] / 1e3
    network = data["network_ms"] / 1e3
    prefill = prefill_time(
        model,
        gpu,
        weights,
        KV_FORMAT,
        data["prompt_tokens"],
        tensor_parallel=gpus,
        compute_format=compute_format,
    )
    ttft = time_to_first_token(queue, prefill, network)
    speed = data["speed"]
    parts = [("Queue", queue), ("Prefill", prefill), ("Network", network)]
    rows = [
        {
            "name": name,
            "time": show(f"{name.lower()}_time", seconds, "seconds"),
            "distance": show(
                f"{name.lower()}_distance", distance_during_latency(speed, seconds), "number", " m"
            ),
        }
        for name, seconds in parts
    ]
    colours = charts.PALETTE
    chart = charts.stacked_bars(
        [
            (
                "Until first token",
                [(name, seconds * 1e3, colours[i]) for i, (name, seconds) in enumerate(parts)],
            )
        ],
        title="Time to first token: queue, prefill and network",
        unit=" ms",
    )
    notes = [
        f"Prefill is the estimator's lower bound at 100% of the {gpu.name}'s peak, multiplying in "
        f"{compute_format.name}; real kernels reach roughly 40–70% of it, so expect longer."
    ]
    if data["prompt_tokens"] > model.max_context_tokens:
        notes.append(
            f"{model.name} reads at most {model.max_context_tokens:,} tokens natively; a longer "
            "prompt needs a long-context version of it."
        )
    return {
        "rows": rows,
        "ttft": show("ttft", ttft, "seconds"),
        "distance": show("distance", distance_during_latency(speed, ttft), "number", " m"),
        "speed": number_text(speed),
        "compute_format": compute_format,
        "chart": chart,
        "notes": notes,
    }
