"""Money through the engine: a `$/h` or `$/Mtok` parameter reaches the estimator in base units.

A price written `{value: 3, unit: $/h}` is 3 / 3600 USD/s inside formulas, and a part in `$/Mtok`
shows a key in USD/token per million tokens. The money functions take and return base units, so a
formula passes the parameter straight through; each key below is checked against a value worked
out by hand. (These keys once came out 3,600 to 86,400 times too large and no check caught it:
the wrong keys were finite and readable.)
"""

import pytest

from problems.engine import check_scenario, draw_variant, grade_answers, load_scenario_yaml

SCENARIO = """
key: money
title: Every money function, fed by parameters in $/h and $/Mtok
params:
  model: {model: [llama-3-70b]}
  gpu: {gpu: [h100-sxm]}
  bf16: {format: [bf16]}
  price: {value: 3, unit: $/h}
  other_price: {value: 4.5, unit: $/h}
  rate: {value: 1000, unit: tok/s}
  gpus: 10
  input_price: {value: 3, unit: $/Mtok}
  output_price: {value: 15, unit: $/Mtok}
assumed: [model, gpu, bf16]
text: >-
  {gpus} × {gpu} at {price} or {other_price} serving {model} in {bf16}; {rate}; API prices
  {input_price} and {output_price}.
parts:
  - key: per_token
    prompt: Cost per million tokens?
    unit: $/Mtok
    answer: cost_per_million_tokens(price, rate)
  - key: per_token_catalogue
    prompt: Cost per million tokens at the catalogue's price?
    unit: $/Mtok
    answer: gpu.price_per_second_default / rate
  - key: per_day
    prompt: Cost of the GPUs per day?
    unit: $/day
    answer: cost_per_day(gpus, price)
  - key: per_request
    prompt: Cost per thousand requests?
    unit: $/1k req
    answer: cost_per_request(other_price, 4, 7.5)
  - key: decode
    prompt: Decode cost per million tokens?
    unit: $/Mtok
    answer: decode_cost_per_million_tokens(model, gpu, bf16, bf16, 1, 1000, price)
  - key: api
    prompt: API cost of a request?
    unit: $
    answer: api_cost_per_request(2000, 300, input_price, output_price)
steps:
  - "{per_token}"
  - "{per_token_catalogue}"
  - "{per_day}"
  - "{per_request}"
  - "{decode}"
  - "{api}"
"""

# Llama-3-70B in BF16, read once per decode step at batch 1 on one H100 SXM (3.35 TB/s): every
# weight but the input embedding table (128,256 × 8,192), plus 1,000 cached tokens at
# 2 × 80 layers × 8 KV heads × 128 × 2 bytes = 327,680 B each.
L70_STEP_BYTES = (70_553_706_496 - 128_256 * 8192) * 2 + 1000 * 327_680
L70_STEP_SECONDS = L70_STEP_BYTES / 3.35e12  # 41.6 ms

HAND_VALUES = {
    "per_token": 3 / 3600 / 1000 * 1e6,  # $0.833/Mtok
    "per_token_catalogue": 3 / 3600 / 1000 * 1e6,  # the H100's default price is $3/h
    "per_day": 10 * 3 * 24,  # $720/day
    "per_request": 4 * 4.5 / 3600 / 7.5 * 1000,  # $0.667 per 1,000 requests
    "decode": 3 / 3600 * L70_STEP_SECONDS * 1e6,  # $34.7/Mtok: one GPU-step per token
    "api": (2000 * 3 + 300 * 15) / 1e6,  # $0.0105
}


@pytest.fixture(scope="module")
def variant():
    return draw_variant(load_scenario_yaml(SCENARIO), seed=0)


def test_every_money_key_matches_its_hand_value(variant):
    shown = {part.key: part.answer for part in variant.parts}
    assert shown["per_token"] == pytest.approx(0.8333, rel=1e-4)
    assert shown["per_day"] == pytest.approx(720)
    assert shown["per_request"] == pytest.approx(0.6667, rel=1e-4)
    assert shown["decode"] == pytest.approx(34.66, rel=1e-3)
    for key, value in HAND_VALUES.items():
        assert shown[key] == pytest.approx(value, rel=1e-9), key


def test_the_hand_values_grade_correct_typed_with_their_units(variant):
    answers = {
        "per_token": "$0.833/Mtok",
        "per_token_catalogue": "0.833",
        "per_day": "$720/day",
        "per_request": "$0.667/1k req",
        "decode": "$34.7/Mtok",
        "api": "$0.0105",
    }
    results = grade_answers(variant, answers)
    assert {key: result.status for key, result in results.items()} == dict.fromkeys(
        answers, "correct"
    )


def test_the_money_scenario_passes_its_check():
    report = check_scenario(load_scenario_yaml(SCENARIO), seeds=5)
    assert report["ok"], report["errors"]
