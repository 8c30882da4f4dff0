"""Page 02: the KV cache of many users, which GPUs hold it, and what paging saves.

Per token :func:`memory.kv_bytes_per_token`, in total :func:`memory.kv_cache_bytes`, GPUs from
:func:`memory.gpus_needed` (for the cache alone, and with one copy of the weights). The paging
view compares a contiguous reservation of the whole context per request
(:func:`paged_kv.contiguous_waste_fraction`, :func:`paged_kv.contiguous_sequences`) with blocks
handed out as a request grows (:func:`paged_kv.expected_paged_waste_tokens`,
:func:`paged_kv.paged_sequences`).
"""

from collections.abc import Mapping
from typing import Any

from django import forms

from problems.estimator import GPUS
from problems.estimator.catalogue import GPU
from problems.estimator.memory import (
    gpus_needed,
    kv_bytes_per_token,
    kv_bytes_per_token_mha,
    kv_cache_bytes,
    max_kv_tokens,
    weight_bytes,
)
from problems.estimator.paged_kv import (
    contiguous_sequences,
    contiguous_waste_fraction,
    expected_paged_waste_tokens,
    paged_concurrency_gain,
    paged_sequences,
)
from trainer import charts

from ._common import (
    KV_FORMATS,
    USABLE_FRACTION,
    DemoForm,
    format_field,
    gpu_field,
    integer_field,
    model_field,
)
from ._display import bytes_text, show

BLOCK_SIZES = (1, 8, 16, 32, 64, 128, 256)


class Form(DemoForm):
    model = model_field()
    kv_format = format_field("KV cache stored in", KV_FORMATS)
    weight_format = format_field("Weights stored in")
    context_tokens = integer_field("Context per user [tokens]", 1, 10_000_000)
    users = integer_field("Users at once", 1, 1_000_000)
    gpu = gpu_field()
    block_size = integer_field("PagedAttention block size [tokens]", 1, 1024)
    used_tokens = integer_field(
        "Tokens a request actually uses, on average",
        1,
        10_000_000,
        "The contiguous allocator reserves the whole context; most requests stop well short.",
    )

    sections = (
        ("The cache", ("model", "kv_format", "context_tokens", "users")),
        ("Where it lives", ("gpu", "weight_format")),
        ("PagedAttention", ("block_size", "used_tokens")),
    )
    defaults = {
        "model": "llama-3-70b",
        "kv_format": "bf16",
        "weight_format": "bf16",
        "context_tokens": 32768,
        "users": 100,
        "gpu": "h100-sxm",
        "block_size": 16,
        "used_tokens": 8192,
    }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        context, used = data.get("context_tokens"), data.get("used_tokens")
        if context and used and used > context:
            raise forms.ValidationError(
                "A request cannot use more tokens than its context: lower the tokens used or "
                "raise the context."
            )
        return data


def _gpu_row(gpu: GPU, kv_total: float, weights: float, chosen: GPU) -> dict[str, Any]:
    cache_only = int(gpus_needed(kv_total, gpu, USABLE_FRACTION))
    with_weights = int(gpus_needed(kv_total + weights, gpu, USABLE_FRACTION))
    return {
        "gpu": gpu,
        "chosen": gpu is chosen,
        "memory": bytes_text(gpu.memory_bytes),
        "cache_only": show(f"gpus_cache_{gpu.key}", cache_only, "count"),
        "with_weights": show(f"gpus_total_{gpu.key}", with_weights, "count"),
        "no_link": with_weights > 1 and not gpu.interconnect_bandwidth,
    }


def compute(data: Mapping[str, Any]) -> dict[str, Any]:
    model, kv_format, weights_format = data["model"], data["kv_format"], data["weight_format"]
    context, users, gpu = data["context_tokens"], data["users"], data["gpu"]
    block, used = data["block_size"], data["used_tokens"]
    per_token = kv_bytes_per_token(model, kv_format)
    kv_total = kv_cache_bytes(model, kv_format, context, users)
    weights = weight_bytes(model, weights_format)
    rows = [_gpu_row(each, kv_total, weights, gpu) for each in GPUS.values()]
    chosen = next(row for row in rows if row["chosen"])
    gpus = int(chosen["with_weights"].value)

    # Paging, on the GPUs that hold this load with the weights.
    budget_tokens = float(max_kv_tokens(model, gpu, weights_format, kv_format, gpus=gpus))
    paged_waste = expected_paged_waste_tokens(block)
    contiguous_waste = contiguous_waste_fraction(context, used)
    paging = {
        "contiguous_waste": show("contiguous_waste", contiguous_waste, "percent"),
        "paged_waste_tokens": show("paged_waste_tokens", paged_waste, "number", " tokens"),
        "paged_waste_bytes": show("paged_waste_bytes", paged_waste * per_token, "bytes"),
        "gain": show("paging_gain", paged_concurrency_gain(context, used, block), "number", "×"),
        "budget": show("kv_budget_tokens", budget_tokens, "count", " tokens"),
        "gpus": gpus,
    }
    if budget_tokens >= 1:
        paging["contiguous_sequences"] = show(
            "contiguous_sequences", contiguous_sequences(budget_tokens, context), "count"
        )
        paging["paged_sequences"] = show(
            "paged_sequences", paged_sequences(budget_tokens, used, block), "count"
        )
        paging["by_block"] = [
            {
                "block": size,
                "chosen": size == block,
                "waste": show(f"waste_{size}", expected_paged_waste_tokens(size), "number"),
                "waste_bytes": bytes_text(expected_paged_waste_tokens(size) * per_token),
                "sequences": show(
                    f"sequences_{size}", paged_sequences(budget_tokens, used, size), "count"
                ),
            }
            for size in sorted(set(BLOCK_SIZES) | {block})
        ]
    colours = charts.PALETTE
    used_gb = kv_cache_bytes(model, kv_format, used) / 1e9
    reserved_gb = kv_cache_bytes(model, kv_format, context) / 1e9
    per_request_gb = [
        (
            "Contiguous",
            [
                ("Used", used_gb, colours[0]),
                ("Reserved, never used", reserved_gb - used_gb, colours[4]),
            ],
        ),
        (
            f"Paged, block {block}",
            [
                ("Used", used_gb, colours[0]),
                ("Reserved, never used", paged_waste * per_token / 1e9, colours[4]),
            ],
        ),
    ]
    notes = []
    if context > model.max_context_tokens:
        notes.append(
            f"{model.name} reads {model.max_context_tokens:,} tokens natively; {context:,} "
            "assumes a long-context version with the same attention shape (the course's 70B at "
            "32K is Llama-3.1-70B, whose cache per token is the same)."
        )
    return {
        "per_token": show("kv_per_token", per_token, "bytes", "/token"),
        "per_token_mha": show(
            "kv_per_token_mha", kv_bytes_per_token_mha(model, kv_format), "bytes"
        ),
        "gqa": model.kv_heads < model.attention_heads and not model.kv_lora_rank,
        "mla": bool(model.kv_lora_rank),
        "kv_total": show("kv_total", kv_total, "bytes"),
        "weights": show("weights", weights, "bytes"),
        "rows": rows,
        "chosen": chosen,
        "paging": paging,
        "chart": charts.stacked_bars(
            per_request_gb,
            title=f"KV memory per request: {used:,} tokens used of {context:,} reserved",
            unit=" GB",
        ),
        "notes": notes,
    }
