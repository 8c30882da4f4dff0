"""Forgiving input: the way an answer is written never makes it wrong. Each form a new learner
types is read as the key, or gets a hint that costs no attempt (status parse_error)."""

import dataclasses
import re
from pathlib import Path

import pytest
import yaml

from problems.engine import (
    ParseError,
    ScenarioError,
    display_unit,
    draw_variant,
    grade_part,
    load_scenario,
)
from problems.engine.answers import parse_answer
from problems.engine.grading import read_answer

from .bank import bank_variant
from .fixtures import CATALOGUE

SEEDS = range(6)


def unit_with(text: str, *synonyms: str):
    return dataclasses.replace(display_unit(text), synonyms=synonyms)


# The forms the learners typed, each on the bank part they typed it into, on several seeds.
@pytest.mark.parametrize(
    ("problem", "scenario", "part", "template"),
    [
        (12, "memory-bound-decode", "cost_a", "${}/MTok"),
        (12, "memory-bound-decode", "cost_a", "${}/M tokens"),
        (24, "lever-stack", "baseline_cost", "${}/MTok"),
        (2, "undetected-disconnects", "gpu_hours_day", "{} GPU hours"),
        (2, "undetected-disconnects", "gpu_hours_day", "{} GPU-h"),
        (23, "expert-parallel", "distinct_experts", "{} experts"),
        (18, "pick-under-slo", "best_config", "Config {}"),
        (16, "little-law-dashboard", "cost_per_thousand", "${} per 1k requests"),
        (21, "kv-admission-fair-slots", "admitted", "{} seqs"),
        (25, "agentic-long-context", "concurrent", "{} seqs"),
        (20, "ramp-headroom", "headroom", "{} spare replicas"),
    ],
)
def test_the_forms_new_learners_typed_are_read_as_the_key(problem, scenario, part, template):
    for seed in SEEDS:
        variant = bank_variant(problem, scenario, seed)
        typed = template.format(f"{variant.answer(part):.4g}")
        result = grade_part(variant, part, typed)
        assert result.status == "correct", (seed, typed, result.message)


def test_a_bare_number_in_the_base_unit_of_a_prefixed_part_gets_a_hint_naming_it():
    for seed in SEEDS:
        variant = bank_variant(2, "undetected-disconnects", seed)
        tokens = f"{variant.answer('wasted_tokens_day') * 1e6:,.0f}"  # 4,010,000 for 4.01 Mtok
        hint = grade_part(variant, "wasted_tokens_day", tokens)
        assert (hint.status, hint.score, hint.value) == ("parse_error", 0.0, None)
        assert hint.message.startswith(f"'{tokens}' is read in Mtok, the unit of this part, but")
        assert f"it looks like it is in tok: {tokens} tok is " in hint.message
        assert hint.message.endswith("(this cost you no attempt).")
        # Written with the unit it was in, it is correct.
        assert grade_part(variant, "wasted_tokens_day", f"{tokens} tok").status == "correct"


def test_a_bare_number_of_flop_in_a_tflop_box_gets_a_hint_and_the_same_in_a_mock():
    for seed in SEEDS:
        variant = bank_variant(1, "datacentre", seed)
        flop = f"{variant.answer('total_flops') * 1e12:.3e}"  # 1.63e+14 for 163 TFLOP
        hint = grade_part(variant, "total_flops", flop)
        assert hint.status == "parse_error"
        assert f"it looks like it is in FLOP: {flop} FLOP is " in hint.message
        # A mock reads an answer the same way when it records it.
        with pytest.raises(ParseError) as caught:
            read_answer(variant, "total_flops", flop)
        assert caught.value.message == hint.message


@pytest.mark.parametrize(("power", "unit"), [(3, "GFLOP"), (6, "MFLOP"), (9, "kFLOP")])
def test_every_smaller_prefix_is_named(power, unit):
    variant = bank_variant(1, "datacentre", 1)
    typed = f"{variant.answer('total_flops') * 10**power:.4g}"
    hint = grade_part(variant, "total_flops", typed)
    assert hint.status == "parse_error"
    assert f"it looks like it is in {unit}:" in hint.message


def test_a_bare_number_far_from_any_reading_is_graded_not_hinted():
    variant = bank_variant(2, "undetected-disconnects", 1)
    wrong = f"{variant.answer('wasted_tokens_day') * 1e6 * 1.5:.4g}"
    result = grade_part(variant, "wasted_tokens_day", wrong)
    assert result.status == "incorrect" and result.message.startswith("Not correct")
    # With a unit it means what it says, even a thousand times off: no hint.
    off = f"{variant.answer('wasted_tokens_day') * 1e3:.4g} Mtok"
    assert grade_part(variant, "wasted_tokens_day", off).status == "incorrect"


SIZES = load_scenario(
    {
        "key": "sizes",
        "title": "A size with a named thousandfold mistake",
        "params": {"gigabytes": {"int": [2, 90]}, "millis": {"int": [2, 90]}},
        "text": "{gigabytes} GB and {millis} ms.",
        "parts": [
            {
                "key": "size",
                "prompt": "Size?",
                "unit": "GB",
                "answer": "gigabytes * 1e9",
                "misconceptions": [
                    {
                        "tag": "megabytes-for-gigabytes",
                        "formula": "key * 1000",
                        "feedback": "A gigabyte is a thousand megabytes.",
                    }
                ],
            },
            {"key": "time", "prompt": "Time?", "unit": "ms", "answer": "millis / 1000"},
            {"key": "plain_size", "prompt": "Size?", "unit": "GB", "answer": "gigabytes * 1e9"},
        ],
        "steps": ["{size}", "{time}", "{plain_size}"],
    },
    catalogue=CATALOGUE,
)


def test_a_named_mistake_at_a_thousandfold_stays_a_mistake():
    variant = draw_variant(SIZES, 1)
    key = variant.answer("size")
    named = grade_part(variant, "size", f"{key * 1000:g}")
    assert (named.status, named.misconception) == ("incorrect", "megabytes-for-gigabytes")
    # The same number in a part without that mistake is a hint (it is right in MB).
    hint = grade_part(variant, "plain_size", f"{key * 1000:g}")
    assert hint.status == "parse_error" and "it looks like it is in MB" in hint.message
    # A time in a box in ms is never hinted at: the thousandfold mix-up is the ms-vs-s mistake.
    time = grade_part(variant, "time", f"{variant.answer('time') * 1000:g}")
    assert (time.status, time.misconception) == ("incorrect", "ms-vs-s")


def test_a_percentage_in_a_box_for_a_factor_asks_for_the_factor():
    variant = bank_variant(5, "algorithm-1", 1)
    hint = grade_part(variant, "speedup", "20%")
    assert hint.status == "parse_error"
    assert "'20%' is a percentage, but this part asks for a factor (×): 20% faster is 1.2×." in (
        hint.message
    )
    assert "0.2×" not in hint.message and hint.message.endswith("(this cost you no attempt).")
    # Over 100% it may be read either way, and the hint says both.
    both = grade_part(variant, "speedup", "150%")
    assert "150% of the speed is 1.5×, and 150% faster is 2.5×" in both.message
    # "20% faster" says which it is.
    with pytest.raises(ParseError) as caught:
        parse_answer("20% faster", "×")
    assert caught.value.message == (
        "'20% faster' is a factor of 1.2×, and this part asks for the factor: type 1.2 "
        "(this cost you no attempt)."
    )
    # A percentage that is the factor as written is simply right.
    key = variant.answer("speedup")
    assert grade_part(variant, "speedup", f"{key * 100:.4g}%").status == "correct"


def test_a_number_under_one_in_a_percentage_box_is_a_fraction_only_when_it_is_right_as_one():
    for seed in SEEDS:
        variant = bank_variant(14, "decode-mbu-mfu", seed)
        key = variant.answer("mbu")
        fraction = f"{key / 100:.4g}"
        hint = grade_part(variant, "mbu", fraction)
        assert hint.status == "parse_error" and "looks like a fraction" in hint.message
        under_one_percent = grade_part(variant, "mbu", "0.5")
        assert under_one_percent.status == "incorrect"
        assert "fraction" not in under_one_percent.message


def test_a_percentage_in_a_box_for_a_fraction_is_a_hint():
    for seed in SEEDS:
        variant = bank_variant(10, "small-batch-helps", seed)  # an acceptance rate, 0 to 1
        percentage = f"{variant.answer('break_even') * 100:.4g}"
        hint = grade_part(variant, "break_even", percentage)
        assert hint.status == "parse_error"
        assert hint.message.startswith(f"'{percentage}' looks like a percentage, but this part")
        assert grade_part(variant, "break_even", percentage + "%").status == "correct"
        # A count in a plain box is never read as a percentage.
        experts = bank_variant(23, "expert-parallel", seed)
        hundredfold = f"{experts.answer('distinct_experts') * 100:.4g}"
        assert grade_part(experts, "distinct_experts", hundredfold).status == "incorrect"


@pytest.mark.parametrize(
    ("typed", "unit", "expected"),
    [
        # A unit in any case where no other unit is spelled with the same letters.
        ("5.39 MTok", "Mtok", 5.39),
        ("5.39 mtok", "Mtok", 5.39),
        ("5.39 MTOK", "Mtok", 5.39),
        ("$5.39/MTok", "$/Mtok", 5.39),
        ("8,192 TOKENS", "tokens", 8192),
        ("3 KW", "W", 3000),
        ("45 TPS", "tok/s", 45),
        ("12 QPS", "req/s", 12),
        ("3.2 MS", "ms", 3.2),
        ("3.2 Ms", "ms", 3.2),  # megaseconds are no one's answer
        ("3.2 MSEC", "ms", 3.2),
        ("80.8 tflop", "TFLOP", 80.8),
        ("12 pct", "%", 12),
        # A lone scale letter before a unit, and "a"/"an" for "per".
        ("$2.16/M tokens", "$/Mtok", 2.16),
        ("$2.16 per M tokens", "$/Mtok", 2.16),
        ("4.01 M tokens", "Mtok", 4.01),
        ("3 k tok/s", "tok/s", 3000),
        ("$0.5 per k requests", "$/1k req", 0.5),
        ("$2.50 an hour", "$/h", 2.5),
        ("45 tokens a second", "tok/s", 45),
        ("$1.54 per 1,000 requests", "$/1k req", 1.54),
        # Qualified units and nouns, and factors in words.
        ("5,000 prompt tokens", "tokens", 5000),
        ("12 spare replicas", "replicas", 12),
        ("8 H100 GPUs", "GPUs", 8),
        ("1.22 GPU hours", "GPU-hours", 1.22),
        ("1 GPU-hour", "GPU-hours", 1),
        ("2.1× faster", "×", 2.1),
        ("2.1 times", "×", 2.1),
        ("2.1x speed-up", "×", 2.1),
        ("2.1 X", "×", 2.1),
    ],
)
def test_it_reads_units_in_other_cases_scales_and_words(typed, unit, expected):
    assert parse_answer(typed, unit) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("typed", "unit", "synonyms", "expected"),
    [
        ("52 seqs", "sequences", ("seqs",), 52),
        ("1 seq", "sequences", ("seqs",), 1),
        ("52 concurrent SEQS", "sequences", ("seqs",), 52),
        ("52 requests", "sequences", ("requests",), 52),
        ("244 experts", "", ("experts",), 244),
        ("244 distinct experts", "", ("experts",), 244),
        ("Config 2", "", ("config",), 2),
        ("configuration #3", "", ("config", "configuration"), 3),
        ("1.22 GPU-h", "GPU-hours", ("GPU-h",), 1.22),
        ("$1.54 per 1k requests", "$", ("$/1k req",), 1.54),
        ("$0.00154 per request", "$", ("$/1k req",), 1.54),
        ("$1.54", "$", ("$/1k req",), 1.54),
        ("$1,200 a month", "$", ("$/month",), 1200),
    ],
)
def test_it_reads_a_parts_synonyms(typed, unit, synonyms, expected):
    assert parse_answer(typed, unit_with(unit, *synonyms)) == pytest.approx(expected)


@pytest.mark.parametrize(
    ("typed", "unit", "message"),
    [
        # Bits and bytes, milli and mega: where two units share the letters, nothing is guessed.
        ("40 mbps", "Mbit/s", "'mbps' would mean millibps, a fraction of one bps (did you mean "),
        ("1.07 gib", "GiB", "'gib' is not a unit I know (did you mean GiB or Gib?)"),
        ("3 mw", "W", "Unknown unit in '3 mw': 'mw' is not a unit I know (did you mean MW or mW?)"),
        ("80 tflops", "TFLOP", "'tflops' is not a unit I know (did you mean TFLOPS or TFLOPs?)"),
        ("3 M", "tokens", "'M' is not a unit I know"),  # a lone letter is never re-cased
        ("4 GPUs per replica", "replicas", "this part asks for a number of replicas, not GPUs"),
        ("8 GB GPUs", "GPUs", "this part asks for a number of GPUs, not GB GPUs."),
        ("244 experts", "", "Unknown unit in '244 experts': 'experts' is not a unit I know."),
        ("Config 2", "", "'Config 2' does not start with a number."),
        ("$1.54 per 1k requests", "$", "is a cost per request, but this part asks for"),
    ],
)
def test_it_refuses_what_it_cannot_read_unambiguously(typed, unit, message):
    with pytest.raises(ParseError) as caught:
        parse_answer(typed, unit)
    assert message in caught.value.message


def test_bits_and_bytes_never_fold_into_each_other():
    assert parse_answer("40 Mbps", "Mbit/s") == 40
    assert parse_answer("40 MBps", "Mbit/s") == 320
    assert parse_answer("1 Gb", "GB") == 0.125
    for typed in ("1 gb", "1 tb", "1 mb", "1 gbps", "1 Kb", "1 gib"):
        with pytest.raises(ParseError):
            parse_answer(typed, "B")


def _part(**fields):
    return {"key": "p", "prompt": "?", "answer": "1", **fields}


def _scenario(part):
    return {"key": "s", "title": "S", "params": {}, "text": "x", "parts": [part], "steps": ["{p}"]}


def test_synonyms_are_part_of_the_parts_unit():
    scenario = load_scenario(_scenario(_part(unit="sequences", synonyms=["seqs", "requests"])))
    unit = scenario.part("p").unit
    assert unit.text == "sequences" and unit.synonyms == ("seqs", "requests")
    assert parse_answer("3 seqs", unit) == parse_answer("3 requests", unit) == 3


@pytest.mark.parametrize(
    ("unit", "synonyms", "path", "message"),
    [
        ("GPUs", "cards", "parts[0].synonyms", "must be a list of nouns or units, got text"),
        ("GPUs", [3], "parts[0].synonyms[0]", "must be text"),
        ("GPUs", [""], "parts[0].synonyms[0]", "must be 1 to 40 characters"),
        ("GPUs", ["GPU"], "parts[0].synonyms[0]", "'GPU' is the part's unit already"),
        ("GPUs", ["cards", "card"], "parts[0].synonyms[1]", "'card' is listed twice (as 'cards')"),
        ("GPUs", ["cards!"], "parts[0].synonyms[0]", "'cards!' is neither a unit nor a noun"),
        ("GB", ["MB"], "parts[0].synonyms[0]", "'MB' is an amount of data, like the part's unit"),
        ("$", ["%"], "parts[0].synonyms[0]", "'%' is a plain number, not another way to write $"),
        (
            "$",
            ["$/month", "$/day"],
            "parts[0].synonyms[1]",
            "'$/day' and '$/month' are both a cost per time",
        ),
        ("GPUs", ["a"] * 13, "parts[0].synonyms", "has more than 12 synonyms"),
    ],
)
def test_a_bad_synonym_is_refused_with_its_path(unit, synonyms, path, message):
    with pytest.raises(ScenarioError) as caught:
        load_scenario(_scenario(_part(unit=unit, synonyms=synonyms)))
    errors = {error.path: error.message for error in caught.value.errors}
    assert path in errors and errors[path].startswith(message), errors


def test_the_synonyms_example_in_format_md_reads_what_its_comments_say():
    text = (Path(__file__).resolve().parents[2] / "problems" / "engine" / "FORMAT.md").read_text()
    block = text.split("## Answers", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    parts = yaml.safe_load(block)
    assert len(parts) == 3
    for line, part in zip(re.findall(r"synonyms: .*", block), parts, strict=True):
        scenario = load_scenario(_scenario(_part(unit=part["unit"], synonyms=part["synonyms"])))
        for typed in re.findall(r'"([^"]+)"', line.partition("#")[2]):
            assert parse_answer(typed, scenario.part("p").unit) > 0, typed
