"""Reading typed answers: numbers as people write them, units, and exact error messages."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from problems.engine import ParseError, parse_answer

# Unit sizes written out from their definitions (SI decimal prefixes; IEC binary ones with "i").
GB, GiB, TB, TiB, KiB = 1e9, 2**30, 1e12, 2**40, 2**10


@pytest.mark.parametrize(
    ("typed", "unit", "expected"),
    [
        ("1.07e12", "B", 1.07e12),
        ("1.07E+12", "B", 1.07e12),
        ("1.07 × 10^12", "B", 1.07e12),
        ("1.07x10^12", "B", 1.07e12),
        ("1.07 * 10**12", "B", 1.07e12),
        ("1.07·10¹²", "B", 1.07e12),
        ("10^12", "B", 1e12),
        ("1,070", "GB", 1070),
        ("1,070,000.5", "", 1_070_000.5),
        (".5", "", 0.5),
        ("-3", "", -3),
        ("\u22123", "", -3),
        ("1.2 million", "", 1.2e6),
        ("1.07 TB", "GB", 1070),
        ("996 GiB", "TB", 996 * GiB / TB),
        ("1 TiB", "GiB", 1024),
        ("8.6 Tb", "TB", 8.6 / 8),
        ("3.2 ms", "s", 0.0032),
        ("3.2 ms", "ms", 3.2),
        ("250 µs", "ms", 0.25),
        ("45 tok/s", "tok/s", 45),
        ("45 tokens per second", "tok/s", 45),
        ("2,700 tokens/min", "tok/s", 45),
        ("989 TFLOPS", "FLOP/s", 989e12),
        ("3,350 GB/s", "TB/s", 3.35),
        ("400 Gbps", "GB/s", 50),
        ("$1.20", "$", 1.2),
        ("-$3", "$", -3),
        ("1.20 USD", "$", 1.2),
        ("$2.50/h", "$/h", 2.5),
        ("$2.50 per hour", "$/h", 2.5),
        ("$0.50 per million tokens", "$/Mtok", 0.5),
        ("12%", "%", 12),
        ("12 %", "%", 12),
        ("12%", "", 0.12),
        ("0.12", "%", 0.12),
        ("2.8×", "×", 2.8),
        ("2.8x", "", 2.8),
        ("8", "GPUs", 8),
        ("8 GPUs", "GPUs", 8),
        ("1 GPU", "GPUs", 1),
        ("3 micro-batches", "micro-batches", 3),
        ("320 KiB", "B", 320 * KiB),
        ("1.5 kWh", "J", 5.4e6),
        ("0.68 m", "metres", 0.68),
        ("68 cm", "metres", 0.68),
        ("0.68", "metres", 0.68),
        ("0.68 metres", "m", 0.68),
        ("0.68 meters", "m", 0.68),
        ("0.0012 km", "m", 1.2),
        ("680 mm", "m", 0.68),
        ("10.8 km/h", "m/s", 3),
        ("$0.59", "$/Mtok", 0.59),  # a bare amount of money, per the part's own "per" term
        ("59 cents", "$/Mtok", 0.59),
        ("$2.50", "$/h", 2.5),
        ("$0.667", "$/1k req", 0.667),
        ("$3", "cents per 1k tokens", 300),
        ("$590/Gtok", "$/Mtok", 0.59),
        ("$1.80/Mtok", "$/Mtok", 1.8),
        # A scale word or suffix with no unit counts the part's own thing: "3.94 million" in a
        # part in Mtok is 3.94 million tokens, and "1.2 billion" in GB is 1.2 billion bytes.
        ("3.94 million", "Mtok", 3.94),
        ("3.94M", "Mtok", 3.94),
        ("3.94 million tokens", "Mtok", 3.94),
        ("1.2 billion", "GB", 1.2),
        ("3.28k tok/s", "tok/s", 3280),
        ("13.9k", "tok/s", 13_900),
        ("1.5M", "", 1.5e6),
        ("2K", "GPUs", 2000),
        ("3kB", "B", 3000),  # a unit, not a suffix
        ("320 KB", "kB", 320),  # "KB" as people write it is the decimal kB
        ("320 KB", "KiB", 320e3 / KiB),
        ("4.5 bits", "bits", 4.5),
    ],
)
def test_it_reads_numbers_and_units_as_people_type_them(typed, unit, expected):
    assert parse_answer(typed, unit) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("typed", "unit", "message"),
    [
        ("", "GB", "Type a number, for example 1.07e12, 1,070, 1.07 × 10^12 or 1.07 TB."),
        (
            "abc",
            "GB",
            "'abc' does not start with a number. Type digits such as 1.07e12, 1,070, "
            "1.07 × 10^12 or 1.07 TB.",
        ),
        (
            "1,07",
            "GB",
            "'1,07' has a comma that does not separate thousands. Commas group "
            "thousands (1,070); write decimals with a point (1.07).",
        ),
        (
            "1 070",
            "GB",
            "'1 070' groups digits with spaces. Group thousands with commas (1,070) "
            "or not at all (1070).",
        ),
        (
            "1.2.3",
            "GB",
            "'1.2.3' is not a number I can read. Type digits such as 1.07e12, 1,070, "
            "1.07 × 10^12 or 1.07 TB.",
        ),
        ("1e", "GB", "'1e' has an 'e' with no exponent after it (e.g. 1.07e12)."),
        ("3.2 ms", "GB", "'3.2 ms' is a time, but this part asks for an amount of data in GB."),
        (
            "45 GB",
            "tok/s",
            "'45 GB' is an amount of data, but this part asks for a token rate in tok/s.",
        ),
        ("8 GB", "GPUs", "'8 GB' is an amount of data, but this part asks for a number of GPUs."),
        ("8 users", "GPUs", "'8 users': this part asks for a number of GPUs, not users."),
        (
            "1.07 tb",
            "TB",
            "Unknown unit in '1.07 tb': 'tb' is not a unit I know (did you mean TB or Tb?).",
        ),
        (
            "500 mb",
            "MB",
            "Unknown unit in '500 mb': 'mb' would mean millibits, a fraction of one "
            "bit (did you mean MB or Mb?).",
        ),
        ("1e999", "", "'1e999' is out of range (the exponent is over 300)."),
        ("9" * 101, "", "The answer is too long (over 100 characters)."),
        ("-$-3", "$", "'-$-3' has two signs."),
        ("0.68 s", "metres", "'0.68 s' is a time, but this part asks for a length in metres."),
        ("3 m/s", "m", "'3 m/s' is a speed, but this part asks for a length in m."),
        ("$3", "GB", "'$3' is an amount of money, but this part asks for an amount of data in GB."),
        (
            "3 tok",
            "$/Mtok",
            "'3 tok' is a number of tokens, but this part asks for a cost per token in $/Mtok.",
        ),
        (
            "2.5k",
            "TFLOP",
            "'2.5k': this part is in TFLOP; write the unit too (for example '2.5k TFLOP') so "
            "that it is clear which unit the scale applies to.",
        ),
        (
            "500 mB",
            "MB",
            "Unknown unit in '500 mB': 'mB' would mean millibytes, a fraction of one "
            "byte (did you mean MB or Mb?).",
        ),
    ],
)
def test_malformed_answers_say_exactly_what_was_wrong(typed, unit, message):
    with pytest.raises(ParseError) as caught:
        parse_answer(typed, unit)
    assert caught.value.message == message


UNITS = [
    "",
    "B",
    "GB",
    "GiB",
    "TB",
    "KiB",
    "ms",
    "s",
    "tok/s",
    "$",
    "$/h",
    "%",
    "GPUs",
    "×",
    "FLOP/s",
    "$/Mtok",
    "metres",
    "m/s",
    "$/1k req",
]


@settings(max_examples=3000, deadline=None)
@given(st.text(max_size=40), st.sampled_from(UNITS))
def test_fuzzed_text_gives_a_finite_number_or_a_parse_error(typed, unit):
    try:
        value = parse_answer(typed, unit)
    except ParseError as error:
        assert error.message
    else:
        assert isinstance(value, float) and math.isfinite(value)


NUMBER_LIKE = st.lists(
    st.sampled_from(
        list("0123456789.,-+eE^*x×· $%")
        + [
            "10^",
            "e12",
            "GB",
            "GiB",
            "ms",
            "tok",
            "/s",
            "per",
            "million",
            "¹²",
            "⁻",
            "TB",
            "Mtok",
            "GPUs",
        ]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=3000, deadline=None)
@given(NUMBER_LIKE, st.sampled_from(UNITS))
def test_fuzzed_number_like_text_gives_a_finite_number_or_a_parse_error(typed, unit):
    test_fuzzed_text_gives_a_finite_number_or_a_parse_error.hypothesis.inner_test(typed, unit)


@settings(max_examples=500, deadline=None)
@given(st.floats(min_value=-1e200, max_value=1e200).filter(lambda x: abs(x) > 1e-200))
def test_a_number_typed_as_repr_reads_back_exactly(number):
    assert parse_answer(repr(number), "") == number
