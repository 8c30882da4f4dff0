"""The unit registry and the writing of numbers."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from problems.engine import ParseError, display_unit, parse_unit
from problems.engine.numbers import format_number, round_significant

# Sizes from their definitions: SI prefixes are powers of ten, IEC prefixes powers of two.
FACTORS = {
    "B": 1,
    "kB": 1e3,
    "MB": 1e6,
    "GB": 1e9,
    "TB": 1e12,
    "PB": 1e15,
    "KiB": 2**10,
    "MiB": 2**20,
    "GiB": 2**30,
    "TiB": 2**40,
    "bit": 1 / 8,
    "Gb": 1e9 / 8,
    "GB/s": 1e9,
    "TB/s": 1e12,
    "Gbps": 1e9 / 8,
    "s": 1,
    "ms": 1e-3,
    "µs": 1e-6,
    "us": 1e-6,
    "ns": 1e-9,
    "min": 60,
    "h": 3600,
    "day": 86400,
    "FLOP": 1,
    "TFLOP": 1e12,
    "TFLOPS": 1e12,
    "PFLOPS": 1e15,
    "FLOP/s": 1,
    "tok": 1,
    "tokens": 1,
    "Mtok": 1e6,
    "tok/s": 1,
    "req/s": 1,
    "$": 1,
    "USD": 1,
    "cents": 0.01,
    "$/h": 1 / 3600,
    "$/Mtok": 1e-6,
    "$ per million tokens": 1e-6,
    "%": 0.01,
    "W": 1,
    "kW": 1e3,
    "kWh": 3.6e6,
    "m": 1,
    "metre": 1,
    "metres": 1,
    "meters": 1,
    "cm": 0.01,
    "centimetres": 0.01,
    "mm": 1e-3,
    "km": 1e3,
    "m/s": 1,
    "km/h": 1 / 3.6,
    "$/1k req": 1e-3,
}


@pytest.mark.parametrize(("unit", "factor"), FACTORS.items())
def test_each_unit_has_its_defined_size_in_base_units(unit, factor):
    assert parse_unit(unit).factor == pytest.approx(factor, rel=1e-12)


def test_units_of_one_kind_share_a_dimension_and_others_do_not():
    assert parse_unit("GB").dimensions == parse_unit("GiB").dimensions == parse_unit("b").dimensions
    assert parse_unit("GB/s").dimensions == parse_unit("Gbps").dimensions
    assert parse_unit("TFLOPS").dimensions == parse_unit("FLOP/s").dimensions
    assert parse_unit("TFLOPS").dimensions != parse_unit("TFLOP").dimensions
    assert parse_unit("tok/s").dimensions != parse_unit("req/s").dimensions
    assert parse_unit("%").dimensions == ()


def test_a_lone_m_is_the_metre_and_m_before_a_unit_is_still_milli():
    assert parse_unit("m").dimensions == (("[length]", 1),)
    assert parse_unit("ms").dimensions == (("[time]", 1),)
    assert parse_unit("mW").factor == pytest.approx(1e-3)
    assert parse_unit("m/s").dimensions == (("[length]", 1), ("[time]", -1))
    assert display_unit("metres").noun is None  # a length now, no longer a counted noun
    with pytest.raises(ParseError, match="millibytes"):
        parse_unit("mB")


def test_counted_nouns_and_typos_are_told_apart():
    assert display_unit("GPUs").noun == "GPUs"
    assert display_unit("replicas").noun == "replicas"
    assert display_unit("").factor == 1
    for typo, suggestion in (("GIB", "GiB"), ("TBB", "TB"), ("gb", "GB")):
        with pytest.raises(ParseError, match=suggestion):
            display_unit(typo)


@pytest.mark.parametrize("expression", ["GB**9**9**9", "s^99", "GB/", "/s", "1M", "(GB)", "kg"])
def test_unit_expressions_outside_the_grammar_are_refused(expression):
    with pytest.raises(ParseError):
        parse_unit(expression)


@pytest.mark.parametrize(
    ("value", "options", "written"),
    [
        (32768, {}, "32,768"),
        (327680.0, {}, "327,680"),
        (1.0737418e12, {}, "1,073,741,800,000"),  # whole: every digit
        (1073741824.5, {}, "1,070,000,000"),
        (0.0402653184, {}, "0.0403"),
        (1.065, {"significant": 3}, "1.07"),  # half up on the decimal (binary rounds down)
        (2.0, {"significant": 3}, "2.00"),
        (9.996, {"significant": 3}, "10.0"),  # carried into the next power: still 3 figures
        (0.09996, {"significant": 2}, "0.10"),
        (1234.5, {"decimals": 1}, "1,234.5"),
        (0.85, {"exact": True}, "0.85"),
        (3.35e12, {"exact": True}, "3,350,000,000,000"),
        (1.07e15, {}, "1.07 × 10¹⁵"),
        (2.5e-5, {}, "2.5 × 10⁻⁵"),
        (2.5e-5, {"significant": 3}, "2.50 × 10⁻⁵"),
        (0.730144, {}, "0.73"),
        (-1234, {}, "-1,234"),
        (-0.0004, {"significant": 1}, "-0.0004"),
    ],
)
def test_numbers_are_written_for_reading(value, options, written):
    assert format_number(value, **options) == written


@settings(max_examples=500, deadline=None)
@given(
    st.floats(min_value=-1e14, max_value=1e14).filter(lambda x: abs(x) > 1e-3),
    st.integers(min_value=1, max_value=6),
)
def test_rounding_keeps_the_figures_asked_for_and_moves_at_most_half_the_last_one(value, figures):
    rounded = round_significant(value, figures)
    assert len(rounded.normalize().as_tuple().digits) <= figures
    last_figure = 10.0 ** (math.floor(math.log10(abs(value))) - figures + 1)
    assert abs(float(rounded) - value) <= 0.5 * last_figure * (1 + 1e-9)


UNIT_TOKENS = st.sampled_from(
    [
        "GB",
        "GiB",
        "EB",
        "ns",
        "s",
        "tok",
        "$",
        "%",
        "/",
        "*",
        "·",
        "^",
        "**",
        "-",
        "3",
        "9",
        "9999999999999",
        "1M",
        "per",
        "million",
        " ",
        "²",
        "⁻",
        "(",
        "mb",
        "TFLOPS",
        "x",
    ]
)


@settings(max_examples=2000, deadline=None)
@given(st.one_of(st.text(max_size=45), st.lists(UNIT_TOKENS, max_size=12).map("".join)))
def test_fuzzed_unit_expressions_give_a_unit_or_a_parse_error(text):
    try:
        unit = parse_unit(text)
    except ParseError as error:
        assert error.message
    else:
        assert 1e-60 < unit.factor < 1e60
