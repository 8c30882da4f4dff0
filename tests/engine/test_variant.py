"""Variants: reproducible draws, display precision, constraints, rounding as shown."""

import hashlib
import json
import math
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from problems.engine import (
    FormulaError,
    SamplingError,
    draw_variant,
    load_problem_yaml,
    load_scenario,
)

from .fixtures import CATALOGUE, PROBLEM_3

ROOT = Path(__file__).resolve().parents[2]
PROBLEM = load_problem_yaml(PROBLEM_3, catalogue=CATALOGUE)
SCENARIO = PROBLEM.scenario("dense-gqa")


def scenario(params, parts=None, **extra):
    data = {
        "key": "space",
        "title": "Spaces",
        "params": params,
        "text": "x",
        "parts": parts or [{"key": "p", "prompt": "?", "answer": "1"}],
        **extra,
    }
    return load_scenario(data, catalogue=CATALOGUE)


def test_a_seed_always_gives_the_same_variant():
    assert draw_variant(SCENARIO, 11).to_json() == draw_variant(SCENARIO, 11).to_json()
    texts = {draw_variant(SCENARIO, seed).text for seed in range(50)}
    assert len(texts) > 40  # and different seeds give different numbers


def test_draws_follow_the_documented_hash_so_they_never_depend_on_a_library_stream():
    # users: int 30..200 step 10 -> 18 values, index = first 8 bytes of SHA-256 mod 18, drawn
    # with the attempt counter of the first attempt the constraints accept.
    for seed in range(20):
        variant = draw_variant(SCENARIO, seed)
        attempt = variant.attempts - 1
        message = f"dense-gqa\x1f1\x1f{seed}\x1f{attempt}\x1fusers".encode()
        expected = 30 + 10 * (int.from_bytes(hashlib.sha256(message).digest()[:8], "big") % 18)
        assert variant.displays["users"].value == expected


def test_the_version_is_part_of_the_draw():
    other = load_scenario(SCENARIO.data, version=2, problem=3, catalogue=CATALOGUE)
    same = sum(
        draw_variant(SCENARIO, s).to_json()["params"] == draw_variant(other, s).to_json()["params"]
        for s in range(40)
    )
    assert same < 10
    assert draw_variant(other, 1).to_json()["version"] == 2


SUBPROCESS = """
import json, sys
from tests.engine.fixtures import CATALOGUE, PROBLEM_3
from problems.engine import draw_variant, load_problem_yaml
scenario = load_problem_yaml(PROBLEM_3, catalogue=CATALOGUE).scenario("dense-gqa")
print(json.dumps([draw_variant(scenario, seed).to_json() for seed in range(200)]))
"""


def test_another_process_with_another_hash_seed_draws_identical_variants():
    env = {**os.environ, "PYTHONHASHSEED": "12345", "PYTHONPATH": str(ROOT)}
    output = subprocess.run(
        [sys.executable, "-c", SUBPROCESS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    here = [draw_variant(SCENARIO, seed).to_json() for seed in range(200)]
    assert json.loads(output) == json.loads(json.dumps(here))


def test_stepped_floats_are_drawn_at_display_precision():
    space = scenario({"alpha": {"float": [0.5, 0.95], "step": 0.05}})
    values = {draw_variant(space, seed).displays["alpha"].value for seed in range(400)}
    expected = {round(0.5 + 0.05 * k, 2) for k in range(10)}
    assert values == expected
    assert all(repr(v) == f"{v:.2f}".rstrip("0") for v in values)


def test_log_uniform_values_have_their_figures_and_spread_over_the_decades():
    space = scenario({"rate": {"log": [10, 100_000], "sig": 2}})
    values = [draw_variant(space, seed).displays["rate"].value for seed in range(4000)]
    assert all(10 <= v <= 100_000 for v in values)
    assert all(len(f"{v:.15g}".replace(".", "").strip("0")) <= 2 for v in values)
    decades = Counter(min(int(math.log10(v)), 4) for v in values)
    # Four decades, a quarter of the draws each (binomial sd about 27 on 1000).
    assert all(850 < decades[d] < 1150 for d in (1, 2, 3)), decades


def test_integer_log_spaces_and_units():
    space = scenario(
        {
            "users": {"log": [1, 1000], "sig": 2, "integer": True},
            "slo": {"float": [2, 8], "step": 0.5, "unit": "ms"},
        }
    )
    for seed in range(200):
        variant = draw_variant(space, seed)
        users = variant.displays["users"].value
        assert isinstance(users, int) and 1 <= users <= 1000
        slo = variant.displays["slo"].value
        assert variant.env["slo"] == pytest.approx(slo / 1000, rel=1e-15)


def test_constraints_are_honoured():
    for seed in range(300):
        variant = draw_variant(SCENARIO, seed)
        env = variant.env
        assert env["kv_exact"] <= 64 * 0.9 * env["gpu"].memory_bytes


def test_an_empty_space_is_a_clear_error_naming_the_constraint():
    space = scenario(
        {"users": {"int": [1, 10]}},
        constraints=[{"formula": "users > 10", "message": "more than ten users"}],
    )
    with pytest.raises(SamplingError) as caught:
        draw_variant(space, 0)
    assert caught.value.constraint == "more than ten users"
    assert "constraint 0 ('users > 10': more than ten users) rejected 100 of them" in str(
        caught.value
    )


def test_a_formula_that_fails_on_an_accepted_draw_names_its_field():
    space = scenario(
        {"users": {"values": [100, 200]}},
        derived={"share": "1 / (users - 100)"},
        parts=[{"key": "p", "prompt": "?", "answer": "share"}],
    )
    failures = []
    for seed in range(20):
        try:
            draw_variant(space, seed)
        except FormulaError as error:
            failures.append(error.message)
    assert failures and set(failures) == {"derived.share: division by zero in '1 / (users - 100)'"}


def test_given_values_are_rounded_as_shown_and_the_key_uses_the_numbers_on_screen():
    rounded = 0
    for seed in range(100):
        variant = draw_variant(SCENARIO, seed)
        shown = re.search(r"The weights take ([\d,.]+) GB", variant.text)
        weights_shown = float(shown.group(1).replace(",", "")) * 1e9
        assert variant.env["weights"] == pytest.approx(weights_shown, rel=1e-12)
        exact = variant.env["model"].total_params * variant.env["weight_format"].bytes_per_element
        rounded += weights_shown != exact
        usable = 0.9 * variant.env["gpu"].memory_bytes
        expected = math.ceil((weights_shown + variant.answer_values["kv_total"]) / usable)
        assert variant.answer("gpus_total") == expected
    assert rounded == 100  # no model's weights are a whole number of GB


def test_worked_steps_show_the_variants_own_numbers():
    variant = draw_variant(SCENARIO, 5)
    model = variant.env["model"]
    first = variant.steps[0]
    assert f"2 × {model.layers} layers × {model.kv_heads} KV heads" in first
    per_token = (
        2
        * model.layers
        * model.kv_heads
        * model.head_dim
        * variant.env["kv_format"].bytes_per_element
    )
    assert f"= {per_token:,} B" in first


def test_the_full_view_has_the_bank_sample_shape():
    data = draw_variant(SCENARIO, 8).to_json()
    assert {"problem", "scenario", "version", "seed", "params", "text", "parts", "steps"} <= set(
        data
    )
    assert data["params"]["model"]["key"] in ("llama-3-8b", "llama-3-70b")
    assert data["params"]["model"]["layers"] in (32, 80)
    assert data["params"]["usable"] == {"value": 90, "unit": "%"}
    assert [set(part) for part in data["parts"]] == [
        {"key", "prompt", "unit", "answer", "tolerance"}
    ] * 4
    json.dumps(data)  # JSON-able


def test_an_authors_preview_lists_each_misconceptions_values():
    variant = next(
        v
        for v in (draw_variant(SCENARIO, s) for s in range(500))
        if v.env["model"].key == "llama-3-70b" and v.env["kv_format"].key == "bf16"
    )
    listed = {m["tag"]: m for m in variant.misconceptions("kv_per_token")}
    assert listed["kv-missing-factor-2"]["values"] == [160]  # 320 KiB / 2
    assert listed["query-heads-for-kv-heads"]["values"] == [2560]  # x 64 / 8
    assert listed["bits-vs-bytes"]["values"] == [2560, 40]
    assert listed["gb-vs-gib"]["values"] == [pytest.approx(327.68)]  # KiB figure in kB
    assert not any(any(m["suppressed"]) for m in listed.values())
