"""Page 04: prefix-cache hit rate under random and cache-aware routing, and the prefill it saves.

With P equally popular prefixes and room for C of them per replica, a random router makes every
replica cache the same mix (:func:`prefix_cache.random_routing_capacity_hit_rate`, C/P) while a
cache-aware router partitions the prefixes so the caches add up
(:func:`prefix_cache.cache_aware_routing_capacity_hit_rate`, N·C/P). The prefill skipped follows
from :func:`prefix_cache.cache_adjusted_prompt_tokens` and
:func:`prefix_cache.prefix_cache_time_saved`.
"""

from collections.abc import Mapping
from typing import Any

import numpy as np
from django import forms

from problems.estimator import FORMATS
from problems.estimator.catalogue import GPU, Model
from problems.estimator.memory import kv_cache_bytes
from problems.estimator.prefix_cache import (
    cache_adjusted_prompt_tokens,
    cache_aware_routing_capacity_hit_rate,
    prefix_cache_time_saved,
    random_routing_capacity_hit_rate,
)
from trainer import charts

from ._common import DemoForm, gpu_field, integer_field, model_field
from ._display import show

KV_FORMAT = FORMATS["bf16"]


class Form(DemoForm):
    model = model_field()
    gpu = gpu_field()
    replicas = integer_field("Replicas", 1, 1024)
    prefixes = integer_field("Distinct shared prefixes in the traffic", 1, 100_000_000)
    capacity = integer_field("Prefixes one replica's cache holds", 1, 100_000_000)
    prefix_tokens = integer_field("Shared prefix length [tokens]", 1, 1_000_000)
    prompt_tokens = integer_field("Whole prompt length [tokens]", 1, 1_000_000)

    sections = (
        ("Routing", ("replicas", "prefixes", "capacity")),
        ("The prompt", ("model", "gpu", "prefix_tokens", "prompt_tokens")),
    )
    defaults = {
        "model": "llama-3-70b",
        "gpu": "h100-sxm",
        "replicas": 8,
        "prefixes": 1000,
        "capacity": 100,
        "prefix_tokens": 2000,
        "prompt_tokens": 2500,
    }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        prefix, prompt = data.get("prefix_tokens"), data.get("prompt_tokens")
        if prefix and prompt and prefix > prompt:
            raise forms.ValidationError(
                "The shared prefix is part of the prompt, so it cannot be longer than the prompt."
            )
        return data


def _routing(
    name: str, model: Model, gpu: GPU, hit_rate: float, prefix: int, prompt: int
) -> dict[str, Any]:
    return {
        "name": name,
        "hit_rate": show(f"{name}_hit_rate", hit_rate, "percent"),
        "prefill_tokens": show(
            f"{name}_prefill_tokens",
            cache_adjusted_prompt_tokens(prompt, prefix, hit_rate),
            "number",
            " tokens",
        ),
        "saved": show(
            f"{name}_time_saved",
            prefix_cache_time_saved(model, gpu, prefix, hit_rate),
            "seconds",
        ),
    }


def compute(data: Mapping[str, Any]) -> dict[str, Any]:
    model, gpu = data["model"], data["gpu"]
    replicas, prefixes, capacity = data["replicas"], data["prefixes"], data["capacity"]
    prefix, prompt = data["prefix_tokens"], data["prompt_tokens"]
    random_rate = float(random_routing_capacity_hit_rate(prefixes, capacity))
    aware_rate = float(cache_aware_routing_capacity_hit_rate(prefixes, capacity, replicas))
    random = _routing("random", model, gpu, random_rate, prefix, prompt)
    aware = _routing("aware", model, gpu, aware_rate, prefix, prompt)
    ttft_gain = aware["saved"].value - random["saved"].value
    # Up to twice the chosen replicas (at least 16), at most 64 points: the curves are
    # piecewise linear, so that draws them exactly.
    replicas_axis = np.unique(np.rint(np.linspace(1, max(16, 2 * replicas), 64)))
    aware_line = cache_aware_routing_capacity_hit_rate(prefixes, capacity, replicas_axis)
    random_line = np.broadcast_to(random_rate, replicas_axis.shape)
    chart = charts.line_chart(
        [
            (
                "cache-aware",
                charts.PALETTE[0],
                list(zip(replicas_axis, aware_line * 100, strict=True)),
            ),
            (
                "random",
                charts.PALETTE[1],
                list(zip(replicas_axis, random_line * 100, strict=True)),
            ),
        ],
        title="Prefix-cache hit rate against the number of replicas",
        x_label="replicas",
        y_label="hit rate [%]",
        marker=(replicas, aware_rate * 100, f"{replicas} replicas, cache-aware"),
    )
    return {
        "routings": [random, aware],
        "ttft_gain": show("ttft_gain", ttft_gain, "seconds"),
        "prefix_bytes": show("prefix_kv_bytes", kv_cache_bytes(model, KV_FORMAT, prefix), "bytes"),
        "cache_bytes": show(
            "cache_bytes_per_replica", kv_cache_bytes(model, KV_FORMAT, prefix, capacity), "bytes"
        ),
        "chart": chart,
    }
