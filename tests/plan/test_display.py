"""How the demos write numbers: units, rounding, and the exact value beside the text.

The digits are the engine's (problems.engine.numbers): rounded half up on the decimal text, as a
worked solution writes them. Pure tests: no database.
"""

import pytest
from django.utils.html import conditional_escape

from problems.engine.numbers import format_number
from trainer.plan.demos._display import (
    bytes_text,
    dollars_text,
    flops_text,
    number_text,
    percent_text,
    seconds_text,
    show,
    whole,
)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (3.3616, "3.36"),
        (0.0123456, "0.0123"),
        (999.6, "1,000"),  # rounding carries into the next power of ten
        (9.996, "10"),
        (32.0, "32"),  # an exact whole number in full
        (1234567.0, "1,234,567"),
        (123456.7, "123,000"),  # not whole: 3 significant figures, as the engine writes it
        (7.5, "7.5"),
        (0.0, "0"),
        # Ties on the decimal text round up, where binary floating point rounds these down
        # (1.065 is stored as 1.06499…, 27.45 as 27.4499…, 2.675 as 2.67499…).
        (1.065, "1.07"),
        (27.45, "27.5"),
        (2.675, "2.68"),
        (0.1255, "0.126"),
    ],
)
def test_it_writes_numbers_as_the_engine_does(value, text):
    assert number_text(value) == text
    assert number_text(value) == format_number(value)


@pytest.mark.parametrize(("value", "text"), [(2.5, "3"), (0.5, "1"), (1234.5, "1,235"), (7.0, "7")])
def test_it_rounds_counts_half_up(value, text):
    assert whole(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (327_680, "327,680 B"),
        (327_680 * 32_768 * 100, "1.07 TB"),  # the course's 70B at 32K × 100 users
        (141.1e9, "141 GB"),
        (192e9, "192 GB"),
        (2.46e6, "2.46 MB"),
        (1.065e12, "1.07 TB"),  # binary floating point: 1.06 TB
        (27.45e9, "27.5 GB"),  # binary floating point: 27.4 GB
        (999.96e9, "1 TB"),  # the unit is chosen after rounding, not "1,000 GB"
        (999_999, "1 MB"),
        (999_499, "999,499 B"),
    ],
)
def test_it_writes_bytes_in_decimal_units(value, text):
    assert bytes_text(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0.0000417, "41.7 µs"),
        (0.0417, "41.7 ms"),
        (9.37, "9.37 s"),
        (927.6, "15.5 min"),
        (3 * 3600, "3 h"),
        (3.5 * 3600, "3.5 h"),
        (5 * 86400, "5 days"),
        (0.001065, "1.07 ms"),  # scaled in decimal: 0.001065 s is exactly 1.065 ms
        (0.0009996, "1 ms"),  # not "1,000 µs"
        (119.96, "2 min"),
    ],
)
def test_it_writes_durations_in_the_unit_that_reads_best(value, text):
    assert seconds_text(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (11927.9, "$11,928"),
        (2.52, "$2.52"),
        (2.675, "$2.68"),  # binary floating point: $2.67
        (99.996, "$100"),
        (0.9996, "$1.00"),
        (0.5, "$0.50"),
        (0.0105, "$0.0105"),
    ],
)
def test_it_writes_money(value, text):
    assert dollars_text(value) == text


def test_it_writes_shares_and_flops():
    assert percent_text(0.75) == "75%"
    assert percent_text(0.0035) == "0.35%"
    assert percent_text(0.010655) == "1.07%"
    assert flops_text(989e12) == "989 TFLOP/s"
    assert flops_text(999.6e12) == "1 PFLOP/s"


def test_it_renders_the_exact_value_beside_the_text():
    shown = show("kv_total", 1073741824000.0, "bytes")
    html = str(conditional_escape(shown))
    assert html == '<data value="1073741824000.0" data-name="kv_total">1.07 TB</data>'
    assert shown.text == "1.07 TB"


def test_it_escapes_what_it_is_given():
    assert "<b>" not in str(conditional_escape(show("x<b>", 1.0, "number", " <b>")))
