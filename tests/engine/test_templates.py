"""Texts with placeholders: how values are written, and that bad texts fail cleanly."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from problems.engine import FormulaError, draw_variant, load_scenario
from problems.engine.catalogue import NUMBER
from problems.engine.templates import compile_template

from .fixtures import CATALOGUE, GPU, MODELS, Model


def rendered(text, params=None):
    scenario = load_scenario(
        {
            "key": "texts",
            "title": "Texts",
            "params": params
            or {
                "model": {"model": ["llama-3-70b"]},
                "price": {"value": 2.5, "unit": "$/h"},
                "hit": {"value": 40, "unit": "%"},
                "slo": {"value": 3.2, "unit": "ms"},
                "gpus": {"value": 1, "unit": "GPUs"},
                "speedup": {"value": 2.8, "unit": "×"},
                "alpha": {"value": 0.8},
            },
            "given": {"rate": {"formula": "1 / slo", "unit": "tok/s", "sig": 3}},
            "text": text,
            "parts": [{"key": "answer", "prompt": "?", "answer": "slo * 1e6", "unit": "B"}],
        },
        catalogue=CATALOGUE,
    )
    return draw_variant(scenario, 0).text


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("{model} has {model.layers} layers", "Llama-3-70B has 80 layers"),
        ("{model.name}", "Llama-3-70B"),
        ("{price}", "$2.50/h"),
        ("{price:$/day}", "$60/day"),
        ("{hit}", "40%"),
        ("{hit:bare}", "40"),
        ("{hit:2f}", "40.00%"),
        ("{slo}", "3.2 ms"),
        ("{slo:s}", "0.0032 s"),
        ("{slo:us,exact}", "3,200 us"),
        ("{slo:s,3s}", "0.00320 s"),
        ("{rate}", "313 tok/s"),  # 1 / 3.2 ms = 312.5 tok/s, rounded half up to 3 figures
        ("{gpus}", "1 GPU"),
        ("{gpus + 1} GPUs", "2 GPUs"),
        ("{speedup}", "2.8×"),
        ("{alpha}", "0.8"),
        ("{1 / 3}", "0.333"),
        ("{model.total_params * 2:B}", "141,107,412,992 B"),
        ("{model.total_params * 2e6:B}", "1.41 × 10¹⁷ B"),
        ("{{literal}} braces", "{literal} braces"),
    ],
)
def test_values_are_written_as_documented(text, shown):
    assert rendered(text) == shown


def test_the_given_value_is_the_rounded_one_everywhere():
    # 312.5 tok/s shown as 313: later formulas use 313, not 312.5.
    assert rendered("{rate * 1:tok/s,exact}") == "313 tok/s"


NAMES = {"model": Model, "gpu": GPU, "users": NUMBER}
ENV = {"model": MODELS["llama-3-70b"], "users": 100}


@settings(max_examples=1500, deadline=None)
@given(
    st.one_of(
        st.text(max_size=60),
        st.lists(
            st.sampled_from(
                [
                    "{",
                    "}",
                    "{{",
                    "}}",
                    "users",
                    "model",
                    ".layers",
                    ":",
                    ",",
                    "GB",
                    "3s",
                    "bare",
                    "exact",
                    "$",
                    "%",
                    " ",
                    "1/0",
                    "'",
                    "__",
                    "gpu",
                ]
            ),
            max_size=20,
        ).map("".join),
    )
)
def test_fuzzed_texts_compile_and_render_or_raise_formula_errors(text):
    try:
        template = compile_template(text, NAMES, CATALOGUE)
    except FormulaError:
        return
    try:
        template.render(ENV, {})
    except FormulaError:
        pass
