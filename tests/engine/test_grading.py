"""Grading: tolerance, the close band, misconceptions, error carried forward."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from problems.engine import draw_variant, grade_answers, grade_part, load_scenario
from problems.engine.answers import parse_answer

from .fixtures import CATALOGUE
from .test_variant import SCENARIO

# Base-unit sizes of equivalent units, written from their definitions.
DATA = {
    "B": 1,
    "kB": 1e3,
    "MB": 1e6,
    "GB": 1e9,
    "TB": 1e12,
    "KiB": 2**10,
    "MiB": 2**20,
    "GiB": 2**30,
    "TiB": 2**40,
    "bit": 1 / 8,
    "Mb": 1e6 / 8,
    "Gb": 1e9 / 8,
    "Tb": 1e12 / 8,
}
TIME = {"s": 1, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9, "min": 60}
TOKEN_RATE = {
    "tok/s": 1,
    "tokens/s": 1,
    "tokens per second": 1,
    "tok/min": 1 / 60,
    "tokens/h": 1 / 3600,
}
COST_PER_TOKEN = {
    "$/Mtok": 1e-6,
    "$ per million tokens": 1e-6,
    "$/tok": 1,
    "USD per 1k tokens": 1e-3,
    "cents/tok": 0.01,
}
EQUIVALENT = {
    "KiB": DATA,
    "TB": DATA,
    "ms": TIME,
    "tok/s": TOKEN_RATE,
    "$/Mtok": COST_PER_TOKEN,
    "%": {"%": 0.01, "percent": 0.01},
}

DECODE = load_scenario(
    {
        "key": "decode",
        "title": "Memory-bound decode",
        "params": {
            "model": {"model": ["llama-3-8b", "llama-3-70b", "mixtral-8x7b"]},
            "gpu": {"gpu": ["h100-sxm", "h200", "l40s"]},
            "dtype": {"format": ["bf16", "fp8", "int4"]},
            "batch": {"int": [1, 64]},
            "price": {"float": [1.5, 6], "step": 0.25, "unit": "$/h"},
        },
        "constraints": [
            {
                "formula": "weight_bytes(model, dtype) < gpu.memory_bytes",
                "message": "the weights fit on one GPU",
            }
        ],
        "text": "{model} in {dtype} on one {gpu} at {price}, batch {batch}.",
        "parts": [
            {
                "key": "step",
                "prompt": "Step time?",
                "unit": "ms",
                "answer": "weight_bytes(model, dtype) / gpu.hbm_bandwidth",
                "misconceptions": [{"use": "total-vs-active-params"}],
            },
            {
                "key": "rate",
                "prompt": "Tokens/s?",
                "unit": "tok/s",
                "answer": "batch / step",
                "misconceptions": [{"use": "per-token-vs-per-batch", "batch": "batch"}],
            },
            {"key": "cost", "prompt": "Cost?", "unit": "$/Mtok", "answer": "price / rate"},
            {
                "key": "full",
                "prompt": "Memory used?",
                "unit": "%",
                "answer": "weight_bytes(model, dtype) / gpu.memory_bytes",
            },
        ],
        "steps": ["{step}", "{rate}", "{cost}", "{full}"],
    },
    catalogue=CATALOGUE,
)


def typed_forms(value: float) -> list[str]:
    """The same number written the ways people write it (12 significant figures)."""
    mantissa, exponent = f"{value:.11e}".split("e")
    forms = [
        repr(value),
        f"{value:.11e}",
        f"{mantissa} × 10^{int(exponent)}",
        f"{mantissa}x10^{int(exponent)}",
    ]
    if 1000 <= abs(value) < 1e15:
        forms.append(f"{value:,.6f}")
    return forms


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**9),
    scenario=st.sampled_from([SCENARIO, DECODE]),
    choice=st.integers(min_value=0, max_value=10**6),
)
def test_the_key_typed_in_any_equivalent_unit_grades_correct(seed, scenario, choice):
    variant = draw_variant(scenario, seed)
    for part in scenario.parts:
        key_base = variant.answer_values[part.key]
        if part.unit.noun:
            count = variant.answer(part.key)
            typed = [f"{count:g}", f"{count:g} {part.unit.text}", f"{count:.1f}"]
        else:
            units = EQUIVALENT[part.unit.text]
            unit = sorted(units)[choice % len(units)]
            forms = typed_forms(key_base / units[unit])
            typed = [f"{form} {unit}" for form in forms]
            if unit.startswith("$"):
                typed.append(f"${forms[0]}{unit[1:]}")
            typed.append(
                forms[choice % len(forms)] + ("" if unit == part.unit.text else f" {unit}")
            )
        for text in typed:
            result = grade_part(variant, part.key, text)
            assert result.status == "correct", (part.key, text, result.message)
            assert result.score == 1 and result.misconception is None and not result.carried_forward


def expected_tag(part, variant, typed_value):
    """The first misconception (in the part's order) that the value matches and that does not
    coincide with the key for this variant."""
    key = variant.answer(part.key)
    width = part.tolerance.half_width(key)
    for misconception in part.misconceptions:
        values, _ = misconception.values(variant.env, variant.answer_values[part.key])
        for value_base in values:
            value = part.unit.from_base(value_base)
            if abs(value - key) > width and part.tolerance.accepts(typed_value, value):
                return misconception.tag
    return None


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10**9), scenario=st.sampled_from([SCENARIO, DECODE]))
def test_each_misconceptions_value_grades_as_that_misconception(seed, scenario):
    variant = draw_variant(scenario, seed)
    fired = 0
    for part in scenario.parts:
        key = variant.answer(part.key)
        width = part.tolerance.half_width(key)
        for misconception in part.misconceptions:
            values, _ = misconception.values(variant.env, variant.answer_values[part.key])
            for value_base in values:
                value = part.unit.from_base(value_base)
                if abs(value - key) <= width:
                    continue  # coincides with the key on this variant: suppressed
                # With its % sign: a bare fraction in a percentage box is a format hint instead.
                typed = repr(value) + ("%" if part.unit.is_percent else "")
                result = grade_part(variant, part.key, typed)
                assert result.misconception == expected_tag(
                    part, variant, parse_answer(typed, part.unit)
                )
                assert result.status in ("incorrect", "partial") and result.score < 1
                fired += 1
    assert fired > 0


def test_a_known_mistake_gets_its_own_feedback():
    variant = next(
        v
        for v in (draw_variant(SCENARIO, s) for s in range(500))
        if v.env["model"].key == "llama-3-70b" and v.env["kv_format"].key == "bf16"
    )
    assert variant.answer("kv_per_token") == 320  # 327,680 B = 320 KiB
    half = grade_part(variant, "kv_per_token", "160 KiB")
    assert (half.status, half.misconception) == ("incorrect", "kv-missing-factor-2")
    assert half.message.startswith("The cache holds a key and a value")
    # 64 query heads instead of 8 KV heads: 8x, which bits-for-bytes would also explain; the
    # part's own listing comes first.
    heads = grade_part(variant, "kv_per_token", "2560 KiB")
    assert heads.misconception == "query-heads-for-kv-heads"
    assert "only the 8 KV heads are cached, not all 64 query heads" in heads.message
    decimal = grade_part(variant, "kv_per_token", "327.68")  # kB figure typed into KiB
    assert decimal.misconception == "gb-vs-gib"
    one_layer = grade_part(variant, "kv_per_token", "4 KiB")
    assert one_layer.misconception == "one-layer-for-all"
    assert "each of the 80 layers" in one_layer.message


def test_a_fraction_typed_into_a_percentage_box_is_a_hint_that_costs_nothing():
    variant = next(
        v for v in (draw_variant(DECODE, s) for s in range(200)) if v.answer("full") >= 5
    )
    key = variant.answer("full")
    fraction = repr(key / 100)
    hint = grade_part(variant, "full", fraction)
    assert (hint.status, hint.score) == ("parse_error", 0.0)
    assert hint.message.startswith(f"'{fraction}' looks like a fraction, but this part asks")
    # A number below 1 that is not right as a fraction is a percentage under 1%, and is graded
    # as one: it is not called a fraction.
    under_one_percent = grade_part(variant, "full", "0.5")
    assert under_one_percent.status == "incorrect"
    assert "fraction" not in under_one_percent.message
    assert under_one_percent.message.startswith("Not correct: 0.5%.")
    # With a % sign it is graded, and the automatic fraction/percent mix-up names it.
    typed = grade_part(variant, "full", fraction + "%")
    assert (typed.status, typed.misconception) == ("incorrect", "fraction-vs-percent")
    assert grade_part(variant, "full", repr(key)).status == "correct"


def test_kb_typed_for_kib_is_read_as_kb_and_the_message_says_so():
    variant = next(
        v
        for v in (draw_variant(SCENARIO, s) for s in range(500))
        if v.env["model"].key == "llama-3-70b" and v.env["kv_format"].key == "bf16"
    )
    result = grade_part(variant, "kv_per_token", "320 KB")  # 320,000 B; the key is 320 KiB
    assert result.value == pytest.approx(320e3 / 1024)
    assert result.status != "correct"
    assert "'KB' is read as kB (1,000 bytes); a KiB is 1,024 bytes." in result.message


def test_the_accepted_interval_in_words_is_exactly_what_is_accepted():
    for seed in range(40):
        variant = draw_variant(DECODE, seed)
        for part in DECODE.parts:
            result = grade_part(variant, part.key, "1")
            low, high = re.search(r"accepted from (.+?) to (.+?) \(", result.accepted).groups()
            for bound in (low, high):
                assert grade_part(variant, part.key, bound).status == "correct", bound
            width = result.interval[1] - result.key
            for outside in (result.interval[0] - width * 0.01, result.interval[1] + width * 0.01):
                assert grade_part(variant, part.key, repr(outside)).status != "correct"


def test_tolerance_modes_and_the_close_band():
    data = {
        "key": "modes",
        "title": "Modes",
        "params": {"x": {"values": [100]}},
        "text": "x = {x}",
        "parts": [
            {"key": "relative", "prompt": "?", "answer": "x"},
            {"key": "absolute", "prompt": "?", "answer": "x - 100", "tolerance": {"absolute": 0.5}},
            {"key": "sig", "prompt": "?", "answer": "x / 3", "tolerance": {"sig": 3}},
            {
                "key": "wide",
                "prompt": "?",
                "answer": "x",
                "tolerance": "5%",
                "partial": {"factor": 2, "score": 0.25},
            },
        ],
    }
    variant = draw_variant(load_scenario(data, catalogue=CATALOGUE), 0)

    def status(part, typed):
        result = grade_part(variant, part, typed)
        return result.status, result.score

    assert status("relative", "101") == ("correct", 1.0)
    assert status("relative", "101.1") == ("partial", 0.5)  # within 3 x 1%
    assert status("relative", "103.1") == ("incorrect", 0.0)
    assert status("absolute", "-0.5") == ("correct", 1.0)
    assert status("absolute", "0.6") == ("partial", 0.5)
    assert status("sig", "33.3") == ("correct", 1.0)  # 33.333… to 3 figures: 33.28 to 33.38
    assert status("sig", "33.38") == ("correct", 1.0)
    assert status("sig", "33.4") == ("partial", 0.5)
    assert status("wide", "95") == ("correct", 1.0)
    assert status("wide", "90.1") == ("partial", 0.25)
    assert status("wide", "89.9") == ("incorrect", 0.0)
    assert grade_part(variant, "sig", "1").accepted == (
        "accepted from 33.284 to 33.383 (to 3 significant figures)"  # rounded inwards
    )


def test_a_misconception_that_coincides_with_the_key_never_fires():
    data = {
        "key": "coincide",
        "title": "Coincide",
        "params": {"x": {"values": [100]}},
        "text": "x = {x}",
        "parts": [
            {
                "key": "p",
                "prompt": "?",
                "answer": "x",
                "misconceptions": [
                    {"tag": "tiny-slip", "formula": "key * 1.005", "feedback": "A slip."},
                ],
            }
        ],
    }
    variant = draw_variant(load_scenario(data, catalogue=CATALOGUE), 0)
    # 101.2 is outside the key's 1% but within 1% of the misconception's 100.5.
    result = grade_part(variant, "p", "101.2")
    assert (result.status, result.misconception) == ("partial", None)


def test_error_carried_forward_through_a_chain_of_parts():
    variant = next(
        v
        for v in (draw_variant(SCENARIO, s) for s in range(500))
        if v.env["gpu"].key == "l40s" and v.env["users"] >= 100
    )
    env = variant.env
    wrong_per_token = variant.answer_values["kv_per_token"] * 2  # bytes; no known mistake is x2
    their_total = wrong_per_token * env["context"] * env["users"]
    their_gpus = -(-their_total // (0.9 * env["gpu"].memory_bytes))
    results = grade_answers(
        variant,
        {
            "kv_per_token": f"{wrong_per_token} B",
            "kv_total": f"{their_total} B",
            "gpus_for_cache": f"{their_gpus:.0f}",
        },
    )
    assert results["kv_per_token"].status == "incorrect"
    total = results["kv_total"]
    assert (total.status, total.score, total.carried_forward) == ("correct", 1.0, True)
    assert total.message.startswith("Correct given your answer to part 1 (")
    assert "kv_per_token" not in total.message
    assert total.carried_forward_key == pytest.approx(their_total / 1e12)
    assert total.key == pytest.approx(variant.answer("kv_total"))
    gpus = results["gpus_for_cache"]
    assert (gpus.status, gpus.carried_forward, gpus.carried_forward_key) == (
        "correct",
        True,
        their_gpus,
    )
    assert their_gpus != variant.answer("gpus_for_cache")


def test_no_error_is_carried_forward_from_a_correct_or_unreadable_part():
    variant = draw_variant(SCENARIO, 3)
    doubled = variant.answer_values["kv_total"] * 2
    correct_first = grade_answers(
        variant,
        {"kv_per_token": f"{variant.answer('kv_per_token')} KiB", "kv_total": f"{doubled} B"},
    )
    assert correct_first["kv_total"].status == "incorrect"
    unreadable_first = grade_answers(variant, {"kv_per_token": "lots", "kv_total": f"{doubled} B"})
    assert unreadable_first["kv_per_token"].status == "parse_error"
    assert unreadable_first["kv_per_token"].status == "parse_error"
    assert unreadable_first["kv_total"].status == "incorrect"
    assert not unreadable_first["kv_total"].carried_forward


def test_results_have_the_bank_grade_json_shape():
    variant = draw_variant(SCENARIO, 1)
    result = grade_part(variant, "kv_total", "3.2 ms")
    assert result.to_json() == {
        "status": "parse_error",
        "score": 0.0,
        "misconception": None,
        "message": "'3.2 ms' is a time, but this part asks for an amount of data in TB.",
    }
    with pytest.raises(KeyError):
        grade_answers(variant, {"nope": "1"})
