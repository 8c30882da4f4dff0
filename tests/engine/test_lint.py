"""The linter's checks, each against a small scenario broken on purpose, and the same scenario
mended. Every finding names its check, carries a one-line explanation and a seed."""

import re

import pytest

from problems.engine import ScenarioError, check_scenario, default_catalogue, load_scenario
from problems.engine.lint import EXPLANATIONS

from .fixtures import CATALOGUE


def scenario(parts, params=None, steps=None, catalogue=CATALOGUE, **extra):
    data = {
        "key": "broken",
        "title": "Broken on purpose",
        "params": params or {"x": {"int": [20, 80]}},
        "text": extra.pop("text", "x = {x}."),
        "parts": parts,
        "steps": steps or [f"{{{part['key']}}}" for part in parts],
        **extra,
    }
    return load_scenario(data, catalogue=catalogue)


def findings(report, check):
    return [error for error in report["errors"] if error["check"] == check]


def only(report, check):
    found = findings(report, check)
    assert found, report["errors"]
    for error in found:
        assert error["explanation"] == EXPLANATIONS[check]
        assert error["message"]
    return found


def test_a_learner_carrying_three_figures_must_be_marked_correct():
    parts = [
        {"key": "share", "prompt": "x / 7?", "answer": "x / 7"},
        {
            "key": "scaled",
            "prompt": "That times 300?",
            "answer": "share * 300",
            "tolerance": {"relative": 0.0001},
        },
    ]
    report = check_scenario(scenario(parts), seeds=200)
    (error, *_) = only(report, "rounded-learner")
    assert error["part"] == "scaled" and isinstance(error["seed"], int)
    assert "a learner who carries 3 significant figures types" in error["message"]
    parts[1]["tolerance"] = {"relative": 0.01}
    assert check_scenario(scenario(parts), seeds=200)["ok"]


def test_a_step_whose_shown_operands_do_not_give_its_result_is_found():
    parts = [
        {"key": "share", "prompt": "x / 7?", "answer": "x / 7"},
        {"key": "scaled", "prompt": "That times 300?", "answer": "share * 300"},
    ]
    steps = ["x / 7 = {share}", "{share:1s} × 300 = {scaled}"]
    report = check_scenario(scenario(parts, steps=steps), seeds=100)
    (error,) = only(report, "step-arithmetic")
    assert error["part"] == "scaled"
    assert (
        "steps[1] shows {scaled}" in error["message"]
        and "redone on the numbers" in (error["message"])
    )
    steps[1] = "{share:4s} × 300 = {scaled}"
    assert check_scenario(scenario(parts, steps=steps), seeds=100)["ok"]


def test_a_named_mistake_inside_the_tolerance_fails_the_part():
    parts = [
        {
            "key": "total",
            "prompt": "x plus one?",
            "answer": "x + 1",
            "tolerance": {"relative": 0.02},
            "misconceptions": [
                {"tag": "forgot-the-one", "formula": "x", "feedback": "Add one."},
            ],
        }
    ]
    params = {"x": {"int": [60, 90]}}  # 1 in 61 to 91 is under 2%
    report = check_scenario(scenario(parts, params=params), seeds=200)
    (error,) = only(report, "mistakes")
    assert (
        "'forgot-the-one' falls within the tolerance of the key on 100.0% of 200 seeds"
        in (error["message"])
    )
    rate = {m["tag"]: m["distinct"] for m in report["mistakes"]}["forgot-the-one"]
    assert rate == 0
    parts[0]["tolerance"] = {"absolute": 0.4}
    assert check_scenario(scenario(parts, params=params), seeds=200)["ok"]


def test_the_opposite_rounding_of_a_count_must_stay_a_mistake():
    parts = [
        {
            "key": "boxes",
            "prompt": "Boxes of 3 for 10x items?",
            "unit": "boxes",
            "answer": "ceil(10 * x / 3)",
            "tolerance": {"relative": 0.02, "absolute": 0.4},
        }
    ]
    report = check_scenario(scenario(parts), seeds=200)
    (error,) = only(report, "mistakes")
    assert (
        "the 'opposite-rounding of ceil(10 * x / 3)' falls within the tolerance"
        in (error["message"])
    )
    (rounding,) = [m for m in report["mistakes"] if m["origin"] == "rounding"]
    assert rounding["seeds"] < 200  # whole ratios (x a multiple of 3) have no opposite rounding
    parts[0]["tolerance"] = {"absolute": 0.4}
    assert check_scenario(scenario(parts), seeds=200)["ok"]


def test_a_share_near_half_or_near_all_accepts_its_complement_or_100_percent():
    near_half = [{"key": "share", "prompt": "?", "unit": "%", "answer": "0.5 + x / 10000"}]
    report = check_scenario(scenario(near_half), seeds=100)
    assert "the share's 'complement' falls within" in only(report, "mistakes")[0]["message"]
    near_all = [{"key": "share", "prompt": "?", "unit": "%", "answer": "1 - x / 10000"}]
    report = check_scenario(scenario(near_all), seeds=100)
    assert "the share's 'all-of-it' falls within" in only(report, "mistakes")[0]["message"]
    apart = [{"key": "share", "prompt": "?", "unit": "%", "answer": "x / 200"}]
    assert check_scenario(scenario(apart), seeds=100)["ok"]


KV_PARTS = [
    {
        "key": "kv",
        "prompt": "KV per token?",
        "unit": "KiB",
        "answer": "kv_bytes_per_token(model, kv_format)",
    }
]
KV_PARAMS = {"model": {"model": ["llama-3-8b", "llama-3-70b"]}, "kv_format": {"format": ["bf16"]}}


def test_a_catalogue_figure_the_question_does_not_show_must_be_declared():
    broken = scenario(KV_PARTS, params=KV_PARAMS, text="{model}, cache in {kv_format}.")
    report = check_scenario(broken, seeds=50)
    found = {e["message"].split(" (")[0] for e in only(report, "stated-inputs")}
    assert found == {
        "the key depends on model.head_dim",
        "the key depends on model.kv_heads",
        "the key depends on model.layers",
    }
    shown = "{model}: {model.layers} × {model.kv_heads} × {model.head_dim}, in {kv_format}."
    assert check_scenario(scenario(KV_PARTS, params=KV_PARAMS, text=shown), seeds=50)["ok"]
    declared = scenario(
        KV_PARTS,
        params=KV_PARAMS,
        text="{model}, cache in {kv_format}.",
        assumed=["model.layers", "model.kv_heads", "model.head_dim"],
    )
    assert check_scenario(declared, seeds=50)["ok"]
    assert declared.assumed == (("model", "layers"), ("model", "kv_heads"), ("model", "head_dim"))


def test_a_parameter_the_question_never_shows_fails():
    parts = [{"key": "twice", "prompt": "?", "answer": "2 * hidden"}]
    params = {"x": {"int": [1, 5]}, "hidden": {"int": [10, 20]}}
    (error,) = only(check_scenario(scenario(parts, params=params), seeds=20), "stated-inputs")
    assert error["message"].startswith("the key depends on the parameter 'hidden'")


def test_assumed_knowledge_names_catalogue_figures_only():
    with pytest.raises(ScenarioError) as caught:
        scenario(
            KV_PARTS,
            params=KV_PARAMS,
            text="{model}",
            assumed=["model.layerz", "x", "gpu.memory_bytes"],
        )
    messages = [str(error) for error in caught.value.errors]
    assert messages == [
        "assumed[0]: a model has no figure 'layerz' (did you mean 'layers'?)",
        "assumed[1]: 'x' is not a catalogue parameter (gpu, model or format) of this scenario",
        "assumed[2]: 'gpu' is not a catalogue parameter (gpu, model or format) of this scenario",
    ]


def test_an_efficiency_above_100_percent_is_an_impossible_premise():
    parts = [{"key": "time", "prompt": "?", "unit": "s", "answer": "100 / (1000 * mfu)"}]
    params = {"mfu": {"float": [0.5, 1.2], "step": 0.1, "unit": ""}}
    report = check_scenario(scenario(parts, params=params, text="MFU {mfu}."), seeds=100)
    (error,) = only(report, "physical-bounds")
    assert re.match(
        r"'mfu' is 1\.[12] \(1[12]0\.0%\): a utilisation, efficiency or hit rate lies between 0 "
        r"and 100% \(on \d+ of 100 seeds\)",
        error["message"],
    ), error["message"]


def test_a_collective_over_links_that_do_not_pool_is_an_impossible_premise():
    parts = [
        {
            "key": "transfer",
            "prompt": "?",
            "unit": "ms",
            "answer": "1e9 / gpu.interconnect_bandwidth_per_direction",
        }
    ]
    params = {"gpu": {"gpu": ["mi300x"]}}
    text = "Two {gpu} GPUs, rated {gpu.interconnect_bandwidth:GB/s}, exchange 1 GB."
    broken = scenario(parts, params=params, text=text, catalogue=default_catalogue())
    (error,) = only(check_scenario(broken, seeds=20), "physical-bounds")
    assert (
        "computes with gpu.interconnect_bandwidth_per_direction of the MI300X" in (error["message"])
    )
    parts[0]["answer"] = "1e9 / collective_bandwidth_per_direction(gpu, 2)"
    mended = scenario(
        parts,
        params=params,
        text=text,
        catalogue=default_catalogue(),
        assumed=["gpu.interconnect_links"],
    )
    assert check_scenario(mended, seeds=20)["ok"]


def test_prose_that_reads_badly_is_found():
    params = {"n": {"int": [1, 3], "unit": "tokens"}, "gpus": {"values": [1]}}
    parts = [{"key": "p", "prompt": "?", "answer": "n"}]
    text = "It holds {n} tokens on {gpus} GPU(s), that is {gpus} replicas."
    report = check_scenario(scenario(parts, params=params, text=text), seeds=40)
    problems = {
        e["message"].split("reads badly: ", 1)[1].split(" (")[0] for e in only(report, "prose")
    }
    assert problems == {
        "the word 'tokens' twice in a row",
        "'(s)' where the count is known: write the form it needs",
        "'1 replicas': one takes the singular",
        "'1 token … tokens' names the unit twice",
    }
    mended = "It holds {n} on {gpus:GPUs}, that is {gpus:replicas}."
    assert check_scenario(scenario(parts, params=params, text=mended), seeds=40)["ok"]


def test_a_listed_value_the_constraints_never_let_through_fails_and_pairs_are_audited():
    params = {"x": {"values": [10, 20, 30]}, "y": {"values": [1, 2]}}
    parts = [{"key": "p", "prompt": "?", "answer": "x + y"}]
    constraints = [
        {"formula": "x < 30", "message": "x stays small"},
        {"formula": "x != 20 or y == 1", "message": "20 goes with 2"},
    ]
    text = "x = {x}, y = {y}."
    report = check_scenario(
        scenario(parts, params=params, text=text, constraints=constraints), seeds=300
    )
    (error,) = only(report, "constraints")
    assert error["message"] == (
        "parameter 'x' lists 30, but the constraints never let it through (constraint 0, "
        "'x stays small', rejects it): remove it from the list or relax the constraint"
    )
    first, second = report["constraints"]
    assert 0.25 < first["rejects"] < 0.42 and second["never"] == ["x=20 with y=2"]
    params["x"] = {"values": [10, 20]}
    assert check_scenario(
        scenario(parts, params=params, text=text, constraints=constraints), seeds=300
    )["ok"]


def test_a_share_computed_by_the_estimator_above_100_percent_is_an_impossible_premise():
    # A dashboard figure no H100 can reach: at 150,000 tok/s Llama-3-8B needs more than the peak.
    parts = [
        {
            "key": "dashboard",
            "prompt": "MFU?",
            "unit": "%",
            "answer": "model_flops_utilization(model, gpu, rate)",
        }
    ]
    params = {
        "model": {"model": ["llama-3-8b"]},
        "gpu": {"gpu": ["h100-sxm"]},
        "rate": {"values": [10000, 30000, 150000], "unit": "tok/s"},
    }
    text = "{model} on one {gpu} ({gpu.bf16_flops:TFLOPS}) makes {rate}."
    broken = scenario(
        parts, params=params, text=text, catalogue=default_catalogue(), assumed=["model"]
    )
    (error,) = only(check_scenario(broken, seeds=60), "physical-bounds")
    # Found by the function that computes it, not by the part's name.
    assert error["part"] == "dashboard" and error["message"].startswith("'dashboard' is 2.277 (")
