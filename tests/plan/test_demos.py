"""The ten demos: they render, refuse bad input in words, say why a configuration cannot work,
and show exactly the estimator's numbers.

Expected numbers come from published figures (docs/reference.md, the estimator's documented
examples) or from the estimator called directly with the same inputs, never from the view.
"""

import math
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from problems.estimator import (
    FORMATS,
    GPUS,
    MODELS,
    latency,
    memory,
    metrics,
    moe,
    parallelism,
    roofline,
    speculative,
)
from problems.estimator.batching import (
    continuous_batching_throughput,
    static_batching_throughput,
)
from problems.estimator.capacity import cost_per_day, replicas_needed
from problems.estimator.gpu_choice import decode_cost_per_million_tokens
from problems.estimator.prefix_cache import prefix_cache_time_saved
from trainer.curriculum import load_curriculum
from trainer.plan import demos

PAGES = {page.demo: page.number for page in load_curriculum().pages}
BF16, FP8 = FORMATS["bf16"], FORMATS["fp8"]
HTMX = {"HX-Request": "true"}


def numbers(html):
    """The exact value of every number shown, by its name."""
    return {
        name: float(value)
        for value, name in re.findall(r'<data value="([^"]+)" data-name="([^"]+)">', html)
    }


def partial(client, demo, query=None):
    response = client.get(f"/plan/pages/{PAGES[demo]}/demo/", query or {}, headers=HTMX)
    assert response.status_code == 200
    return response.content.decode()


def close(shown, expected):
    return shown == pytest.approx(float(expected), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("demo", list(demos.MODULES))
def test_it_renders_each_demo_with_its_defaults(learner_client, db, demo):
    html = partial(learner_client, demo)
    assert html.lstrip().startswith('<div id="demo"')
    assert "<html" not in html and " style=" not in html
    assert "cannot work" not in html and "Check these inputs" not in html
    assert len(numbers(html)) >= 4


def test_it_sends_a_request_without_htmx_to_the_whole_page(learner_client, db):
    response = learner_client.get("/plan/pages/2/demo/", {"users": "200"})
    assert response.status_code == 302
    assert response["Location"] == "/plan/pages/2/?users=200"


def test_it_shows_a_query_in_the_form_and_the_results(learner_client, db):
    html = learner_client.get("/plan/pages/2/", {"users": "200"}).content.decode()
    assert 'name="users" value="200"' in html
    model = MODELS["llama-3-70b"]
    assert close(numbers(html)["kv_total"], memory.kv_cache_bytes(model, BF16, 32768, 200))


def test_it_needs_no_query_beyond_the_user(learner_client, db):
    for demo in demos.MODULES:
        with CaptureQueriesContext(connection) as queries:
            partial(learner_client, demo)
        tables = [re.findall(r'FROM "(\w+)"', query["sql"]) for query in queries.captured_queries]
        assert tables == [["django_session"], ["auth_user"]], demo


# Numbers against the estimator and published figures.


def test_ttft_robot_adds_up_the_wait_and_the_distance(learner_client, db):
    shown = numbers(partial(learner_client, "ttft_robot"))
    model, gpu = MODELS["llama-3-8b"], GPUS["h100-sxm"]
    prefill = latency.prefill_time(model, gpu, BF16, BF16, 2000)
    assert close(shown["prefill_time"], prefill)
    assert close(shown["ttft"], 0.050 + prefill + 0.030)
    assert close(shown["distance"], 2 * (0.050 + prefill + 0.030))
    assert close(shown["queue_distance"], 0.1)  # 2 m/s for 50 ms
    # Compute-bound prefill: about 2 FLOP per weight per token over the BF16 peak (989 TFLOP/s).
    assert shown["prefill_time"] == pytest.approx(2 * 7.5e9 * 2000 / 989e12, rel=0.05)


def test_ttft_robot_multiplies_in_fp8_where_the_gpu_can(learner_client, db):
    query = {
        "model": "llama-3-70b",
        "gpu": "h200",
        "weight_format": "fp8",
        "tensor_parallel": "2",
        "prompt_tokens": "8000",
        "speed": "14",
    }
    shown = numbers(partial(learner_client, "ttft_robot", query))
    model, gpu = MODELS["llama-3-70b"], GPUS["h200"]
    prefill = latency.prefill_time(
        model, gpu, FP8, BF16, 8000, tensor_parallel=2, compute_format=FP8
    )
    assert close(shown["prefill_time"], prefill)
    assert close(shown["distance"], 14 * (0.05 + prefill + 0.03))


def test_ttft_robot_multiplies_weight_only_int4_in_bf16(learner_client, db):
    html = partial(learner_client, "ttft_robot", {"weight_format": "int4"})
    prefill = latency.prefill_time(
        MODELS["llama-3-8b"], GPUS["h100-sxm"], FORMATS["int4"], BF16, 2000, compute_format=BF16
    )
    assert close(numbers(html)["prefill_time"], prefill)


def test_kv_cache_matches_the_course_example(learner_client, db):
    html = partial(learner_client, "kv_cache")
    shown = numbers(html)
    # Llama-3-70B in 16-bit: 2 × 80 layers × 8 KV heads × 128 × 2 B = 327,680 B/token.
    assert shown["kv_per_token"] == 327_680
    assert shown["kv_total"] == 327_680 * 32_768 * 100
    assert "1.07 TB" in html
    # The course's model answer: 15 H100s hold the cache at 90% usable memory.
    assert shown["gpus_cache_h100-sxm"] == 15
    assert shown["gpus_total_h100-sxm"] == math.ceil((327_680 * 32_768 * 100 + 141.1e9) / 72e9)
    # Without GQA each of the 64 query heads would keep its own K and V: 8 times as much.
    assert shown["kv_per_token_mha"] == 8 * 327_680
    # Paging: the contiguous reservation wastes 1 − 8,192/32,768; blocks of 16 waste 7.5 tokens.
    assert shown["contiguous_waste"] == 0.75
    assert shown["paged_waste_tokens"] == 7.5
    assert close(shown["paging_gain"], 32768 / (8192 + 7.5))
    budget = memory.max_kv_tokens(MODELS["llama-3-70b"], GPUS["h100-sxm"], BF16, BF16, gpus=17)
    assert close(shown["kv_budget_tokens"], budget)
    assert shown["contiguous_sequences"] == budget // 32768
    assert shown["paged_sequences"] == budget // (8192 + 7.5)


def shown_text(html, name):
    """The text a learner reads for the number named ``name``."""
    return re.search(rf'data-name="{re.escape(name)}">([^<]+)</data>', html).group(1)


def test_demos_round_half_up_as_the_worked_solutions_do(learner_client, db):
    # DeepSeek-V3 caches 70,272 B per token in BF16; × 15,625 tokens × 25 users = 27.45 GB
    # exactly, which binary floating point rounds down to 27.4 GB.
    query = {"model": "deepseek-v3", "context_tokens": "15625", "users": "25"}
    html = partial(learner_client, "kv_cache", query)
    assert numbers(html)["kv_total"] == 27_450_000_000
    assert shown_text(html, "kv_total") == "27.5 GB"
    # A typed 1.065 m/s and a 1.065 ms queue read 1.07, not 1.06.
    html = partial(learner_client, "ttft_robot", {"speed": "1.065", "queue_ms": "1.065"})
    assert "moving at 1.07 m/s" in html
    assert shown_text(html, "queue_time") == "1.07 ms"


def test_kv_cache_of_latent_and_sliding_window_models(learner_client, db):
    for key in ("deepseek-v3", "gpt-oss-120b"):
        query = {"model": key, "context_tokens": "100000", "used_tokens": "5000", "users": "10"}
        shown = numbers(partial(learner_client, "kv_cache", query))
        model = MODELS[key]
        assert close(shown["kv_per_token"], memory.kv_bytes_per_token(model, BF16))
        assert close(shown["kv_total"], memory.kv_cache_bytes(model, BF16, 100_000, 10))
    # DeepSeek-V3's MLA: (512 + 64) elements × 61 layers × 2 bytes per token.
    shown = numbers(partial(learner_client, "kv_cache", {"model": "deepseek-v3"}))
    assert shown["kv_per_token"] == (512 + 64) * 61 * 2


def test_batching_matches_the_order_statistics(learner_client, db):
    shown = numbers(partial(learner_client, "batching"))
    harmonic_32 = sum(1 / k for k in range(1, 33))
    assert shown["mean_output"] == pytest.approx(256, rel=1e-12)
    assert shown["expected_longest"] == pytest.approx(256 * harmonic_32, rel=1e-9)
    assert shown["static_utilization"] == pytest.approx(1 / harmonic_32, rel=1e-9)
    assert shown["continuous_utilization"] == 1
    model, gpu = MODELS["llama-3-8b"], GPUS["h100-sxm"]
    step = latency.decode_step_time(model, gpu, BF16, BF16, 32, 512 + 128)
    prefill = latency.prefill_time(model, gpu, BF16, BF16, 512)
    assert close(shown["step_time"], step)
    assert close(
        shown["static_throughput"],
        static_batching_throughput(
            32, step, shown["mean_output"], shown["expected_longest"], prefill
        ),
    )
    assert close(
        shown["continuous_throughput"],
        continuous_batching_throughput(32, step, shown["mean_output"], prefill),
    )


def test_batching_with_uniform_and_pareto_lengths(learner_client, db):
    uniform = numbers(
        partial(learner_client, "batching", {"distribution": "uniform", "batch_size": "9"})
    )
    # Uniform on [32, 1024]: mean 528; the longest of 9 is 32 + 992 × 9/10.
    assert uniform["mean_output"] == pytest.approx(528)
    assert uniform["expected_longest"] == pytest.approx(32 + 992 * 0.9)
    pareto = numbers(
        partial(learner_client, "batching", {"distribution": "pareto", "batch_size": "1"})
    )
    # Pareto(64, 1.5) has mean 1.5 × 64 / 0.5 = 192; a batch of one waits for no one.
    assert pareto["mean_output"] == pytest.approx(192)
    assert pareto["static_utilization"] == pytest.approx(1)


def test_prefix_cache_compares_random_and_cache_aware_routing(learner_client, db):
    shown = numbers(partial(learner_client, "prefix_cache"))
    assert shown["random_hit_rate"] == 0.1  # 100 of 1,000 prefixes, the same on every replica
    assert shown["aware_hit_rate"] == 0.8  # 8 replicas × 100 of 1,000
    assert shown["random_prefill_tokens"] == pytest.approx(2500 - 0.1 * 2000)
    assert shown["aware_prefill_tokens"] == pytest.approx(2500 - 0.8 * 2000)
    model, gpu = MODELS["llama-3-70b"], GPUS["h100-sxm"]
    saved = prefix_cache_time_saved(model, gpu, 2000, 0.8)
    assert close(shown["aware_time_saved"], saved)
    assert close(shown["ttft_gain"], saved - prefix_cache_time_saved(model, gpu, 2000, 0.1))


def test_speculative_matches_leviathan(learner_client, db):
    shown = numbers(partial(learner_client, "speculative"))
    # Leviathan et al. 2023 (arXiv 2211.17192): α = 0.8, γ = 4 → E = 3.3616, 2.80× at c = 0.05.
    assert shown["expected_tokens"] == pytest.approx(3.3616, abs=1e-12)
    assert shown["speedup"] == pytest.approx(3.3616 / 1.2, rel=1e-12)
    alpha = shown["break_even_acceptance"]
    assert (1 - alpha**5) / (1 - alpha) == pytest.approx(1.2, rel=1e-9)
    expected = speculative.speculative_speedup_at_batch(
        MODELS["llama-3-70b"],
        MODELS["llama-3-8b"],
        GPUS["h200"],
        FP8,
        BF16,
        1,
        2048,
        0.8,
        4,
        compute_format=FP8,
    )
    assert close(shown["roofline_speedup"], expected)


def test_speculative_slows_down_a_large_batch(learner_client, db):
    query = {"batch_size": "256", "context_tokens": "256", "acceptance_rate": "0.6"}
    html = partial(learner_client, "speculative", query)
    assert numbers(html)["roofline_speedup"] < 1
    assert "a slowdown" in html


def test_gpu_formats_fills_the_table_from_the_estimator(learner_client, db):
    html = partial(learner_client, "gpu_formats")
    shown = numbers(html)
    model = MODELS["llama-3-70b"]
    for key in ("bf16", "fp8", "int4", "nvfp4"):
        assert close(shown[f"weights_{key}"], memory.weight_bytes(model, FORMATS[key]))
    # 141 GB of weights and 21.5 GB of cache need 3 H100s at 72 GB usable: tensor parallel 4.
    h100 = GPUS["h100-sxm"]
    args = (model, h100, BF16, BF16, 16, 4096)
    assert close(
        shown["rate_h100-sxm_bf16"], latency.decode_tokens_per_second(*args, tensor_parallel=4)
    )
    # The estimator prices in USD/s and costs in USD/token; the table shows $ per million.
    per_token = decode_cost_per_million_tokens(*args, 3.0 / 3600, tensor_parallel=4)
    assert close(shown["cost_h100-sxm_bf16"], per_token * 1e6)
    assert shown["cost_h100-sxm_bf16"] == pytest.approx(
        4 * 3.0 / 3600 / shown["rate_h100-sxm_bf16"] * 1e6
    )
    # FP8 on an A100 (no FP8 tensor cores) is stored in 8 bits and multiplied in BF16.
    a100 = GPUS["a100-80gb"]
    rate = latency.decode_tokens_per_second(
        model, a100, FP8, BF16, 16, 4096, tensor_parallel=2, compute_format=BF16
    )
    assert close(shown["rate_a100-80gb_fp8"], rate)
    assert "multiplied in BF16" in html
    assert "no GPU link" in html  # the Jetson cannot hold a 70B model in 16 bits


def test_roofline_places_decode_and_prefill(learner_client, db):
    html = partial(learner_client, "roofline")
    shown = numbers(html)
    model = MODELS["llama-3-70b"]
    assert shown["ridge"] == pytest.approx(989e12 / 3.35e12)  # about 295 FLOP/B
    assert close(
        shown["intensity"], roofline.decode_arithmetic_intensity(model, BF16, BF16, 1, 2048)
    )
    assert shown["step_time"] == pytest.approx(0.0417, rel=0.01)  # ~140 GB / 3.35 TB/s
    assert "memory-bound" in html
    html = partial(learner_client, "roofline", {"phase": "prefill", "tokens": "8192"})
    shown = numbers(html)
    assert close(
        shown["intensity"], roofline.prefill_arithmetic_intensity(model, BF16, BF16, 8192, 1)
    )
    assert "compute-bound" in html


def test_cost_metrics_by_hand(learner_client, db):
    shown = numbers(partial(learner_client, "cost_metrics"))
    assert shown["end_to_end"] == pytest.approx(0.4 + 299 * 0.03)
    assert shown["concurrency"] == pytest.approx(20 * (0.4 + 299 * 0.03))
    assert shown["cost_per_request"] == pytest.approx(3.0 * 8 / 3600 / 20)
    assert shown["cost_per_million"] == pytest.approx(3.0 * 8 / 3600 / 6000 * 1e6)
    assert shown["prefill_tokens"] == pytest.approx(2000 - 0.6 * 1500)
    assert shown["api_cost"] == pytest.approx((2000 * 3 + 300 * 15) / 1e6)
    assert shown["api_cost_cached"] == pytest.approx((1100 * 3 + 900 * 0.3 + 300 * 15) / 1e6)
    assert close(shown["concurrency"], metrics.littles_law_concurrency(20, shown["end_to_end"]))


def test_canary_and_autoscaling(learner_client, db):
    shown = numbers(partial(learner_client, "canary_autoscale"))
    # Fleiss et al. (4.14) without continuity correction: 1% vs 2%, α 0.05 two-sided, power 0.8.
    assert shown["samples_per_group"] == 2319
    assert shown["canary_duration"] == pytest.approx(2319 / (50 * 0.05))
    weights = memory.weight_bytes(MODELS["llama-3-70b"], BF16)
    assert shown["cold_start"] == pytest.approx(weights / 12.5e9 + 60)
    assert shown["headroom_replicas"] == math.ceil(0.2 * (30 + weights / 12.5e9 + 60) / 5)


def test_moe_and_capacity_planners(learner_client, db):
    shown = numbers(partial(learner_client, "moe_capacity"))
    model = MODELS["deepseek-v3"]
    assert close(
        shown["moe_weights_per_gpu"],
        parallelism.expert_parallel_weight_bytes_per_gpu(model, FP8, 8),
    )
    # Balls in bins: E (1 − (1 − k/E)^B) with E 256, k 8, B 64.
    assert shown["distinct_experts"] == pytest.approx(256 * (1 - (1 - 8 / 256) ** 64))
    assert close(shown["distinct_experts"], moe.model_distinct_experts(model, 64))
    # 58 MoE layers × (dispatch + combine) × top-8 × 7,168 × 2 bytes × 7/8 on other GPUs.
    assert shown["all_to_all_per_token"] == pytest.approx(58 * 2 * 8 * 7168 * 2 * 7 / 8)
    # Capacity: 1M users × 10 requests / 86,400 s × 3 at the peak.
    assert shown["peak_rps"] == pytest.approx(1e6 * 10 / 86400 * 3)
    plan_model, gpu = MODELS["llama-3-70b"], GPUS["h200"]
    step = latency.decode_step_time(plan_model, gpu, FP8, BF16, 32, 1200, compute_format=FP8)
    prefill = latency.prefill_time(plan_model, gpu, FP8, BF16, 1000, compute_format=FP8)
    rate = continuous_batching_throughput(32, step, 400, prefill)
    replicas = replicas_needed(shown["peak_rps"] * 400, rate, 0.7)
    assert close(shown["replica_output_rate"], rate)
    assert shown["replicas"] == replicas == shown["total_gpus"]
    assert close(shown["cost_per_day"], cost_per_day(replicas, 3.5 / 3600) * 86400)
    assert shown["cost_per_day"] == pytest.approx(replicas * 3.5 * 24)


# Refusals: in words, with status 200, never a server error.

IMPOSSIBLE = [
    (
        "ttft_robot",
        {"model": "llama-3.1-405b", "gpu": "l40s", "tensor_parallel": "4"},
        "Llama-3.1-405B in BF16 needs 812 GB for its weights; 4 × L40S hold 192 GB",
    ),
    (
        "ttft_robot",
        {"gpu": "jetson-agx-orin-64gb", "tensor_parallel": "2"},
        "has no link to other GPUs",
    ),
    ("batching", {"batch_size": "4096"}, "needs"),
    ("speculative", {"batch_size": "4096"}, "not 4,096"),
    ("speculative", {"tensor_parallel": "1", "gpu": "h100-sxm", "weight_format": "bf16"}, "needs"),
    ("moe_capacity", {"expert_parallel": "300"}, "at most 256 expert-parallel groups"),
    ("moe_capacity", {"expert_parallel": "1"}, "of weights on each GPU"),
    (
        "moe_capacity",
        {"plan_model": "llama-3.1-405b", "plan_gpu": "l40s"},
        "Llama-3.1-405B in FP8 (E4M3) needs 406 GB for its weights; 1 × L40S hold 48 GB",
    ),
]


@pytest.mark.parametrize(("demo", "query", "reason"), IMPOSSIBLE)
def test_it_says_why_a_configuration_cannot_work(learner_client, db, demo, query, reason):
    html = partial(learner_client, demo, query)
    assert "This cannot work:" in html
    assert reason in html.replace("&#x27;", "'")


def test_one_impossible_planner_leaves_the_other_answering(learner_client, db):
    html = partial(learner_client, "moe_capacity", {"expert_parallel": "300"})
    assert "peak_rps" in numbers(html)


BAD_INPUT = [
    ("ttft_robot", {"prompt_tokens": "lots"}, "Prompt length [tokens]: Enter a whole number."),
    ("ttft_robot", {"model": "gpt-5"}, "Model: Select a valid choice."),
    ("ttft_robot", {"speed": "-1"}, "Robot speed [m/s]: Ensure this value is greater than"),
    ("kv_cache", {"users": "0"}, "Users at once: Ensure this value is greater than"),
    ("kv_cache", {"used_tokens": "40000"}, "A request cannot use more tokens than its context"),
    ("batching", {"distribution": "uniform", "shortest": "900", "longest": "100"}, "longer"),
    ("batching", {"shape": "1"}, "tail index"),
    ("prefix_cache", {"prefix_tokens": "3000"}, "cannot be longer than the prompt"),
    ("speculative", {"acceptance_rate": "1.5"}, "Acceptance rate α: Ensure this value"),
    ("speculative", {"draft_model": "llama-3-70b"}, "The draft must be smaller than the target"),
    ("gpu_formats", {"price": "free"}, "GPU price per hour: Select a valid choice."),
    ("roofline", {"batch_size": "1e9"}, "Batch size [sequences]"),
    ("cost_metrics", {"hit_rate": "nan"}, "Prefix-cache hit rate [%]"),
    ("cost_metrics", {"price_cached": "5"}, "A cached prompt token costs at most"),
    ("cost_metrics", {"price_per_hour": "1e-313"}, "Price per GPU-hour [$]: Ensure"),
    ("canary_autoscale", {"canary_percent": "1"}, "must differ from today"),
    ("canary_autoscale", {"tails": "3"}, "Test: Select a valid choice."),
    ("moe_capacity", {"moe_model": "llama-3-70b"}, "MoE model: Select a valid choice."),
]


@pytest.mark.parametrize(("demo", "query", "message"), BAD_INPUT)
def test_it_refuses_bad_input_with_a_message(learner_client, db, demo, query, message):
    html = partial(learner_client, demo, query).replace("&#x27;", "'")
    assert "Check these inputs:" in html
    assert message in html
    assert "<data value=" not in html
    page = learner_client.get(f"/plan/pages/{PAGES[demo]}/", query)
    assert page.status_code == 200
    assert message in page.content.decode().replace("&#x27;", "'")


EDGES = {
    "ttft_robot": [
        {"prompt_tokens": "1", "queue_ms": "0", "network_ms": "0", "speed": "0"},
        {
            "model": "llama-3.1-405b",
            "gpu": "b200",
            "tensor_parallel": "8",
            "prompt_tokens": "1000000",
        },
        {"gpu": "jetson-agx-orin-64gb", "weight_format": "nvfp4"},
    ],
    "kv_cache": [
        {"users": "1000000", "context_tokens": "10000000", "used_tokens": "10000000"},
        {"users": "1", "context_tokens": "1", "used_tokens": "1", "block_size": "1024"},
        {"model": "llama-3.1-405b", "gpu": "jetson-agx-orin-64gb"},
    ],
    "batching": [
        {"batch_size": "1", "prompt_tokens": "1", "mean": "1"},
        {"distribution": "uniform", "shortest": "0", "longest": "1"},
        {"distribution": "pareto", "shape": "1.01", "minimum": "1000000"},
        {"model": "mixtral-8x7b", "gpu": "b200", "weight_format": "nvfp4", "tensor_parallel": "8"},
    ],
    "prefix_cache": [
        {"replicas": "1024", "capacity": "100000000", "prefixes": "1"},
        {"prefix_tokens": "2500", "prompt_tokens": "2500"},
        {"prefix_tokens": "1", "prompt_tokens": "1000000", "model": "deepseek-v3"},
    ],
    "speculative": [
        {"acceptance_rate": "0", "cost_ratio": "0.99"},
        {"acceptance_rate": "1", "draft_tokens": "16", "cost_ratio": "0"},
        {"context_tokens": "1", "gpu": "b200", "weight_format": "nvfp4", "tensor_parallel": "8"},
    ],
    "gpu_formats": [
        {"model": "deepseek-v3", "batch_size": "4096", "context_tokens": "1000000"},
        {"model": "llama-3-8b", "batch_size": "1", "context_tokens": "1", "price": "high"},
    ],
    "roofline": [
        {"batch_size": "65536", "tokens": "1000000", "phase": "prefill"},
        {"gpu": "jetson-agx-orin-64gb", "weight_format": "fp8", "tokens": "1"},
        {"model": "gpt-oss-120b", "weight_format": "mxfp4", "gpu": "b200", "batch_size": "512"},
    ],
    "cost_metrics": [
        {
            "prefix_tokens": "0",
            "hit_rate": "100",
            "price_input": "0",
            "price_cached": "0",
            "price_output": "0",
        },
        {"arrival_rate": "0.001", "output_tokens": "1", "tpot_ms": "0", "ttft_ms": "0"},
    ],
    "canary_autoscale": [
        {"baseline_percent": "99.999", "canary_percent": "0.001", "canary_share_percent": "99.99"},
        {"ramp": "0", "init_s": "0", "detect_s": "0", "load_gbps": "1000", "tails": "1"},
    ],
    "moe_capacity": [
        {"expert_parallel": "256", "moe_tensor_parallel": "8", "batch_tokens": "1000000"},
        {"moe_model": "mixtral-8x7b", "expert_parallel": "8", "moe_gpu": "jetson-agx-orin-64gb"},
        {"daily_users": "10000000000", "requests_per_user": "10000", "peak_factor": "100"},
        {"daily_users": "1", "requests_per_user": "0.01", "utilization": "1"},
    ],
}


@pytest.mark.parametrize(
    ("demo", "query"), [(demo, query) for demo, queries in EDGES.items() for query in queries]
)
def test_it_answers_edge_inputs(learner_client, db, demo, query):
    html = partial(learner_client, demo, query)
    assert "<data value=" in html or "This cannot work:" in html
    assert "Check these inputs" not in html
