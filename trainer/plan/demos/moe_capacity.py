"""Page 10: an MoE sharding planner and the 1M-user capacity planner.

MoE layout: the model is split into EP expert-parallel groups, each holding the attention,
shared and dense weights and 1/EP of the routed experts
(:func:`parallelism.expert_parallel_weight_bytes_per_gpu`), and each group is tensor-parallel
over TP GPUs, which share its weights evenly: TP × EP GPUs in all. Tokens travel to their
experts' groups and back (:func:`parallelism.all_to_all_bytes_per_token`); a batch touches
:func:`moe.model_distinct_experts` experts per layer.

Capacity: peak requests per second (:func:`capacity.peak_requests_per_second`), the output
tokens per second one replica sustains under continuous batching with its prefills
(:func:`batching.continuous_batching_throughput` over :func:`latency.decode_step_time` and
:func:`latency.prefill_time`), the replicas for the peak at a target utilisation
(:func:`capacity.replicas_needed`) and the cost per day (:func:`capacity.cost_per_day`).
"""

from collections.abc import Mapping
from typing import Any

from problems.estimator import FORMATS
from problems.estimator.batching import continuous_batching_throughput
from problems.estimator.capacity import (
    SECONDS_PER_DAY,
    cost_per_day,
    peak_requests_per_second,
    replicas_needed,
)
from problems.estimator.latency import decode_step_time, prefill_time
from problems.estimator.memory import kv_cache_bytes, max_concurrent_sequences
from problems.estimator.moe import model_distinct_experts
from problems.estimator.parallelism import (
    all_to_all_bytes_per_token,
    expert_parallel_weight_bytes_per_gpu,
    tensor_parallel_allreduce_bytes,
)

from ._common import (
    MOE_MODELS,
    USABLE_FRACTION,
    DemoForm,
    Impossible,
    compute_format_for,
    format_field,
    gpu_field,
    integer_field,
    model_field,
    number_field,
    require_link,
    require_weights_fit,
    tensor_parallel_field,
)
from ._display import bytes_text, percent_text, show

KV_FORMAT = FORMATS["bf16"]


class Form(DemoForm):
    moe_model = model_field("MoE model", MOE_MODELS)
    moe_gpu = gpu_field()
    moe_format = format_field("Weights stored in")
    moe_tensor_parallel = tensor_parallel_field("Tensor parallel inside each group (TP)")
    expert_parallel = integer_field("Expert-parallel groups (EP)", 1, 1024)
    batch_tokens = integer_field("Tokens in a decode step (the batch)", 1, 1_000_000)

    daily_users = integer_field("Daily users", 1, 10_000_000_000)
    requests_per_user = number_field("Requests per user per day", 0.01, 10_000)
    prompt_tokens = integer_field("Prompt tokens per request", 1, 1_000_000)
    output_tokens = integer_field("Output tokens per request", 1, 1_000_000)
    peak_factor = number_field("Peak hour ÷ average hour", 1, 100)
    plan_model = model_field("Model served")
    plan_gpu = gpu_field()
    plan_format = format_field("Weights stored in")
    plan_tensor_parallel = tensor_parallel_field("GPUs per replica (tensor parallel)")
    batch_size = integer_field("Batch per replica [requests]", 1, 4096)
    utilization = number_field("Target utilisation at the peak [%]", 1, 100)

    sections = (
        (
            "MoE sharding",
            (
                "moe_model",
                "moe_gpu",
                "moe_format",
                "moe_tensor_parallel",
                "expert_parallel",
                "batch_tokens",
            ),
        ),
        (
            "1M-user capacity",
            (
                "daily_users",
                "requests_per_user",
                "prompt_tokens",
                "output_tokens",
                "peak_factor",
                "plan_model",
                "plan_gpu",
                "plan_format",
                "plan_tensor_parallel",
                "batch_size",
                "utilization",
            ),
        ),
    )
    defaults = {
        "moe_model": "deepseek-v3",
        "moe_gpu": "h200",
        "moe_format": "fp8",
        "moe_tensor_parallel": 1,
        "expert_parallel": 8,
        "batch_tokens": 64,
        "daily_users": 1_000_000,
        "requests_per_user": 10,
        "prompt_tokens": 1000,
        "output_tokens": 400,
        "peak_factor": 3,
        "plan_model": "llama-3-70b",
        "plan_gpu": "h200",
        "plan_format": "fp8",
        "plan_tensor_parallel": 1,
        "batch_size": 32,
        "utilization": 70,
    }


def _moe(data: Mapping[str, Any]) -> dict[str, Any]:
    model, gpu, weights = data["moe_model"], data["moe_gpu"], data["moe_format"]
    tp, ep, tokens = data["moe_tensor_parallel"], data["expert_parallel"], data["batch_tokens"]
    gpus = tp * ep
    if ep > model.experts:
        raise Impossible(
            f"{model.name} has {model.experts} routed experts per layer, so at most "
            f"{model.experts} expert-parallel groups."
        )
    require_link(gpu, gpus)
    per_gpu = expert_parallel_weight_bytes_per_gpu(model, weights, ep) / tp
    usable = gpu.memory_bytes * USABLE_FRACTION
    if per_gpu > usable:
        raise Impossible(
            f"{model.name} in {weights.name} with TP {tp} × EP {ep} puts {bytes_text(per_gpu)} of "
            f"weights on each GPU; a {gpu.name} has {bytes_text(usable)} usable "
            f"({percent_text(USABLE_FRACTION)} of {bytes_text(gpu.memory_bytes)}). Use more "
            "groups, more TP or fewer bits."
        )
    per_token = all_to_all_bytes_per_token(model, ep)
    distinct = model_distinct_experts(model, tokens)
    return {
        "model": model,
        "gpus": gpus,
        "per_gpu": show("moe_weights_per_gpu", per_gpu, "bytes"),
        "left": show("moe_memory_left", usable - per_gpu, "bytes"),
        "experts_per_group": show("experts_per_group", model.experts / ep, "number"),
        "all_to_all_token": show("all_to_all_per_token", per_token, "bytes"),
        "all_to_all_step": show("all_to_all_per_step", per_token * tokens, "bytes"),
        "allreduce_token": show(
            "allreduce_per_token", tensor_parallel_allreduce_bytes(model, 1, tp), "bytes"
        ),
        "distinct": show("distinct_experts", distinct, "number"),
        "distinct_share": show("distinct_share", distinct / model.experts, "percent"),
    }


def _capacity(data: Mapping[str, Any]) -> dict[str, Any]:
    model, gpu, weights = data["plan_model"], data["plan_gpu"], data["plan_format"]
    gpus, batch = data["plan_tensor_parallel"], data["batch_size"]
    prompt, output = data["prompt_tokens"], data["output_tokens"]
    require_weights_fit(model, gpu, weights, gpus)
    fits = int(max_concurrent_sequences(model, gpu, weights, KV_FORMAT, prompt + output, gpus=gpus))
    if fits < batch:
        raise Impossible(
            f"A batch of {batch} requests of {prompt + output:,} tokens needs "
            f"{bytes_text(kv_cache_bytes(model, KV_FORMAT, prompt + output, batch))} of KV cache;"
            f" after the weights, {gpus} × {gpu.name} hold {fits:,} such requests."
        )
    compute_format = compute_format_for(gpu, weights)
    parallel = {"tensor_parallel": gpus, "compute_format": compute_format}
    peak = peak_requests_per_second(
        data["daily_users"], data["requests_per_user"], data["peak_factor"]
    )
    # A request's cache grows from the prompt to prompt + output: about half-way on average.
    step = decode_step_time(model, gpu, weights, KV_FORMAT, batch, prompt + output / 2, **parallel)
    prefill = prefill_time(model, gpu, weights, KV_FORMAT, prompt, **parallel)
    replica_rate = continuous_batching_throughput(batch, step, output, prefill)
    demand = peak * output
    replicas = replicas_needed(demand, replica_rate, data["utilization"] / 100)
    total_gpus = replicas * gpus
    # cost_per_day is a rate in USD/s (price in USD/s per GPU); a day is 86,400 of them.
    daily = cost_per_day(total_gpus, gpu.price_per_second_default) * SECONDS_PER_DAY
    return {
        "peak_rps": show("peak_rps", peak, "number", " requests/s"),
        "demand": show("peak_output_rate", demand, "count", " tokens/s"),
        "replica_rate": show("replica_output_rate", replica_rate, "count", " tokens/s"),
        "replicas": show("replicas", replicas, "count"),
        "gpus": show("total_gpus", total_gpus, "count"),
        "per_day": show("cost_per_day", daily, "dollars"),
        "per_user": show("cost_per_user_day", daily / data["daily_users"], "dollars"),
        "price": gpu.price_per_hour_default,
        "step": show("plan_step_time", step, "seconds"),
        "prefill": show("plan_prefill_time", prefill, "seconds"),
        "compute_format": compute_format,
    }


def compute(data: Mapping[str, Any]) -> dict[str, Any]:
    """Both planners; each one's refusal is shown in its own place, so one impossible layout
    does not hide the other planner's answer."""
    result: dict[str, object] = {}
    for name, planner in (("moe", _moe), ("capacity", _capacity)):
        try:
            result[name] = planner(data)
        except ValueError as error:
            result[f"{name}_error"] = str(error)
    return result
