"""The whole flow on the real estimator: its catalogues and its registered functions."""

import copy
import inspect
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from problems.engine import (
    FormulaError,
    check_problem,
    check_scenario,
    compile_formula,
    default_catalogue,
    draw_variant,
    grade_answers,
    load_problem,
    load_problem_yaml,
    load_scenario,
)
from problems.engine.catalogue import NUMBER
from problems.estimator import catalogue as estimator_catalogue
from problems.estimator.registry import FUNCTIONS

from .fixtures import HERE, PROBLEM_3

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def problem():
    return load_problem_yaml(PROBLEM_3)


def course_variant():
    """Problem 3 exactly as the course states it: Llama-3-70B, 16-bit, 32K x 100 users, H100."""
    data = yaml.safe_load(PROBLEM_3)
    scenario = data["scenarios"][0]
    scenario["params"].update(
        model={"model": ["llama-3-70b"]},
        kv_format={"format": ["bf16"]},
        weight_format={"format": ["bf16"]},
        gpu={"gpu": ["h100-sxm"]},
        context=32768,
        users=100,
    )
    return draw_variant(load_problem(data).scenario(), seed=0)


def test_the_real_catalogue_and_registry_are_the_ones_used(problem):
    catalogue = default_catalogue()
    assert catalogue.functions is FUNCTIONS
    assert catalogue.entries["model"] is estimator_catalogue.MODELS
    variant = draw_variant(problem.scenario(), 4)
    assert type(variant.env["model"]) is estimator_catalogue.Model


def test_the_course_numbers_come_out_and_grade():
    variant = course_variant()
    # Llama-3-70B: 2 x 80 layers x 8 KV heads x 128 x 2 B = 327,680 B per token; x 32,768 x 100
    # users = 1.07 TB.
    assert variant.answer("kv_per_token") * 1024 == 327_680
    assert variant.answer("kv_total") == pytest.approx(1.073741824, rel=1e-12)
    # 1.0737e12 B over 90% of 80 GB = 14.9 -> 15 H100s; with 141 GB of weights: 16.9 -> 17.
    assert variant.answer("gpus_for_cache") == 15
    assert variant.answer("gpus_total") == 17
    assert "2 × 80 layers × 8 KV heads × 128 × 2 B = 327,680 B = 320 KiB" in variant.steps[0]
    assert variant.steps[1].endswith("= 1.07 TB")
    for typed in (
        "1.07",
        "1.07 TB",
        "996 GiB",
        "1.07e12 B",
        "1,070 GB",
        "1.07 × 10^12 B",
        "8.59 Tb",
    ):
        assert grade_answers(variant, {"kv_total": typed})["kv_total"].status == "correct", typed
    bits = grade_answers(variant, {"kv_total": "8.59"})["kv_total"]
    assert (bits.status, bits.misconception) == ("incorrect", "bits-vs-bytes")
    results = grade_answers(
        variant,
        {
            "kv_per_token": "320 KiB",
            "kv_total": "1.07 TB",
            "gpus_for_cache": "15",
            "gpus_total": "15",
        },
    )
    assert [r.status for r in results.values()] == ["correct", "correct", "correct", "incorrect"]
    assert results["gpus_total"].misconception == "forgot-the-weights"
    assert "The weights (141 GB) need memory too." in results["gpus_total"].message


def test_the_example_passes_its_check_on_the_real_estimator(problem):
    report = check_problem(problem, seeds=1000)  # bench/engine.py records how long this takes
    assert report["ok"], report["scenarios"][0]["errors"]


SUBPROCESS = """
import json, pathlib, sys
from problems.engine import draw_variant, load_problem_yaml
problem = load_problem_yaml(pathlib.Path(sys.argv[1]).read_text())
print(json.dumps([draw_variant(problem.scenario(), s).to_json() for s in range(100)]))
"""


def test_real_variants_are_identical_in_another_process(problem):
    env = {**os.environ, "PYTHONHASHSEED": "777", "PYTHONPATH": str(ROOT)}
    output = subprocess.run(
        [sys.executable, "-c", SUBPROCESS, str(HERE / "problem3.yaml")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    here = [draw_variant(problem.scenario(), s).to_json() for s in range(100)]
    assert json.loads(output) == json.loads(json.dumps(here))


def _arguments(function, number: str, wrong: bool) -> str:
    """Arguments for every positional parameter: entries where entries go and `number`
    elsewhere, or (`wrong`) an entry of the wrong class for every parameter."""
    arguments = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind not in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            continue
        name = parameter.name
        entry = (
            "gpu"
            if "gpu" in name
            else "model"
            if "model" in name
            else "dtype"
            if "format" in name
            else None
        )
        if wrong:
            arguments.append("model" if entry in (None, "gpu") else "gpu")
        else:
            arguments.append(entry or number)
    return ", ".join(arguments)


NAMES = {
    "model": estimator_catalogue.Model,
    "gpu": estimator_catalogue.GPU,
    "dtype": estimator_catalogue.NumberFormat,
    "huge": NUMBER,
    "negative": NUMBER,
}
ENV = {
    "model": estimator_catalogue.MODELS["llama-3-70b"],
    "gpu": estimator_catalogue.GPUS["h100-sxm"],
    "dtype": estimator_catalogue.FORMATS["bf16"],
    "huge": 1e300,
    "negative": -3,
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_wrong_argument_types_into_every_registered_function_are_refused(name):
    # Part of the attack corpus (issue 4: "wrong argument types into registered functions"),
    # so each refusal keeps the corpus's bound of well under 100 ms.
    catalogue = default_catalogue()
    function = FUNCTIONS[name]
    wrong = _arguments(function, "", wrong=True)
    if wrong:
        formula = compile_formula(f"{name}({wrong})", NAMES, catalogue)
        start = time.perf_counter()
        with pytest.raises(FormulaError):
            formula.evaluate(ENV)
        assert time.perf_counter() - start < 0.1
    for junk in ("huge", "negative"):
        formula = compile_formula(f"{name}({_arguments(function, junk, False)})", NAMES, catalogue)
        start = time.perf_counter()
        try:
            result = formula.evaluate(ENV)
        except FormulaError:
            pass
        else:
            assert math.isfinite(result)
        assert time.perf_counter() - start < 0.1


def test_a_wrong_argument_type_says_which_argument():
    formula = compile_formula("kv_bytes_per_token(gpu, dtype)", NAMES, default_catalogue())
    with pytest.raises(FormulaError) as caught:
        formula.evaluate(ENV)
    assert caught.value.message.startswith("kv_bytes_per_token(): model must be a Model")


def test_every_real_catalogue_field_a_formula_may_read_is_typed():
    catalogue = default_catalogue()
    for cls, fields in catalogue.fields.items():
        for field in fields:
            kind = catalogue.field_kind(cls, field)
            expected = "text" if field in ("key", "name", "memory_type", "interconnect") else NUMBER
            assert kind == expected, (cls.__name__, field, kind)


def test_the_scenario_definition_round_trips_through_json(problem):
    data = json.loads(json.dumps(copy.deepcopy(problem.data)))
    again = load_problem(data)
    assert (
        draw_variant(again.scenario(), 9).to_json() == draw_variant(problem.scenario(), 9).to_json()
    )


def test_the_example_in_format_md_loads_and_passes_its_check():
    text = (ROOT / "problems" / "engine" / "FORMAT.md").read_text()
    block = text.split("## A scenario", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    scenario = load_scenario(yaml.safe_load(block))
    report = check_scenario(scenario, seeds=300)
    assert report["ok"], report["errors"]
    variant = draw_variant(scenario, 0)
    assert variant.text.startswith(f"You serve {variant.env['model'].name} to ")


def test_gamma_gives_the_factor_of_the_pareto_expected_maximum():
    # Problem 6 used to recover Γ(1 − 1/α) from the estimator's expected maximum over a million
    # draws; the builtin gives it directly, and the two agree for α in [1.5, 3].
    names = {"shape": NUMBER}
    catalogue = default_catalogue()
    builtin = compile_formula("gamma(1 - 1 / shape)", names, catalogue)
    recovered = compile_formula(
        "expected_max_pareto(1, shape, 1e6) / 1e6 ** (1 / shape)", names, catalogue
    )
    for tenths in range(15, 31):
        env = {"shape": tenths / 10}
        assert builtin.evaluate(env) == pytest.approx(recovered.evaluate(env), rel=1e-6)
    assert builtin.evaluate({"shape": 2}) == pytest.approx(math.sqrt(math.pi))  # Γ(1/2)
