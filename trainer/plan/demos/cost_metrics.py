"""Page 08: the serving metrics of one workload, and what a request costs.

End-to-end latency from TTFT and TPOT (:func:`latency.end_to_end_latency`), requests in flight by
Little's law (:func:`metrics.littles_law_concurrency`), dollars per request and per million
tokens on rented GPUs (:func:`metrics.cost_per_request`, :func:`capacity.cost_per_million_tokens`),
and the prefix cache's effect: prompt tokens still prefilled
(:func:`prefix_cache.cache_adjusted_prompt_tokens`) and the bill under per-token prices with a
discount for cached prompt tokens (:func:`metrics.api_cost_per_request`).
"""

from collections.abc import Mapping
from typing import Any

from django import forms

from problems.estimator.capacity import cost_per_million_tokens
from problems.estimator.latency import end_to_end_latency
from problems.estimator.metrics import (
    api_cost_per_request,
    cost_per_request,
    littles_law_concurrency,
)
from problems.estimator.prefix_cache import cache_adjusted_prompt_tokens

from ._common import DemoForm, integer_field, money_field, number_field
from ._display import show

SECONDS_PER_HOUR = 3600
MILLION = 1e6


class Form(DemoForm):
    arrival_rate = number_field("Requests per second", 0.001, 1_000_000)
    prompt_tokens = integer_field("Prompt tokens per request", 1, 1_000_000)
    output_tokens = integer_field("Output tokens per request", 1, 1_000_000)
    ttft_ms = number_field("TTFT [ms]", 0, 600_000)
    tpot_ms = number_field("TPOT, time per output token [ms]", 0, 10_000)
    gpus = integer_field("GPUs serving it", 1, 100_000)
    price_per_hour = money_field("Price per GPU-hour [$]", "0.01")
    prefix_tokens = integer_field("Cacheable prefix per request [tokens]", 0, 1_000_000)
    hit_rate = number_field("Prefix-cache hit rate [%]", 0, 100)
    price_input = money_field("API price of prompt tokens [$ per million]")
    price_cached = money_field("API price of cached prompt tokens [$ per million]")
    price_output = money_field("API price of output tokens [$ per million]")

    sections = (
        (
            "Traffic and latency",
            ("arrival_rate", "prompt_tokens", "output_tokens", "ttft_ms", "tpot_ms"),
        ),
        ("Self-hosted GPUs", ("gpus", "price_per_hour")),
        (
            "Prefix cache and per-token prices",
            ("prefix_tokens", "hit_rate", "price_input", "price_cached", "price_output"),
        ),
    )
    defaults = {
        "arrival_rate": 20,
        "prompt_tokens": 2000,
        "output_tokens": 300,
        "ttft_ms": 400,
        "tpot_ms": 30,
        "gpus": 8,
        "price_per_hour": 3.0,
        "prefix_tokens": 1500,
        "hit_rate": 60,
        "price_input": 3.0,
        "price_cached": 0.3,
        "price_output": 15.0,
    }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        prefix, prompt = data.get("prefix_tokens"), data.get("prompt_tokens")
        if prefix is not None and prompt and prefix > prompt:
            raise forms.ValidationError(
                "The cacheable prefix is part of the prompt, so it cannot be longer than it."
            )
        fresh, cached = data.get("price_input"), data.get("price_cached")
        if fresh is not None and cached is not None and cached > fresh:
            raise forms.ValidationError(
                "A cached prompt token costs at most what a fresh one does: lower its price."
            )
        return data


def compute(data: Mapping[str, Any]) -> dict[str, Any]:
    rate, prompt, output = data["arrival_rate"], data["prompt_tokens"], data["output_tokens"]
    ttft, tpot = data["ttft_ms"] / 1e3, data["tpot_ms"] / 1e3
    gpus = data["gpus"]
    # The estimator takes money in base units: USD/s per GPU, USD per token.
    price = float(data["price_per_hour"]) / SECONDS_PER_HOUR
    prefix, hit_rate = data["prefix_tokens"], data["hit_rate"] / 100
    latency = end_to_end_latency(ttft, tpot, output)
    output_rate = rate * output
    cached = hit_rate * prefix
    prices = (float(data["price_input"]) / MILLION, float(data["price_output"]) / MILLION)
    api_plain = api_cost_per_request(prompt, output, *prices)
    api_cached = api_cost_per_request(
        prompt, output, *prices, cached, float(data["price_cached"]) / MILLION
    )
    return {
        "latency": show("end_to_end", latency, "seconds"),
        "concurrency": show("concurrency", littles_law_concurrency(rate, latency), "number"),
        "output_rate": show("output_rate", output_rate, "count", " tokens/s"),
        "per_request": show("cost_per_request", cost_per_request(price, gpus, rate), "dollars"),
        "per_million": show(
            "cost_per_million",
            cost_per_million_tokens(price, output_rate, gpus) * MILLION,
            "dollars",
            " per million output tokens",
        ),
        "per_gpu_rate": show("output_rate_per_gpu", output_rate / gpus, "count", " tokens/s"),
        "prefill_tokens": show(
            "prefill_tokens", cache_adjusted_prompt_tokens(prompt, prefix, hit_rate), "number"
        ),
        "api_plain": show("api_cost", api_plain, "dollars"),
        "api_cached": show("api_cost_cached", api_cached, "dollars"),
        "api_saving": show(
            "api_saving", (api_plain - api_cached) / api_plain if api_plain else 0.0, "percent"
        ),
    }
