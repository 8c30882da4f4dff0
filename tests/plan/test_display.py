"""How the demos write numbers: units, rounding, and the exact value beside the text.

Pure tests: no database.
"""

import pytest
from django.utils.html import conditional_escape

from trainer.plan.demos._display import (
    bytes_text,
    dollars_text,
    percent_text,
    seconds_text,
    show,
    significant,
)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (3.3616, "3.36"),
        (0.0123456, "0.0123"),
        (999.6, "1,000"),  # rounding carries into the next power of ten
        (9.996, "10.0"),
        (32.0, "32"),  # an exact whole number without ".0"
        (7.5, "7.50"),
        (1234567.0, "1,234,567"),
        (0.0, "0"),
    ],
)
def test_it_rounds_to_three_significant_figures(value, text):
    assert significant(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (327_680, "327,680 B"),
        (327_680 * 32_768 * 100, "1.07 TB"),  # the course's 70B at 32K × 100 users
        (141.1e9, "141 GB"),
        (192e9, "192 GB"),
        (2.46e6, "2.46 MB"),
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
        (3.5 * 3600, "3.50 h"),
        (5 * 86400, "5 days"),
    ],
)
def test_it_writes_durations_in_the_unit_that_reads_best(value, text):
    assert seconds_text(value) == text


def test_it_writes_money_and_shares():
    assert dollars_text(11927.9) == "$11,928"
    assert dollars_text(2.52) == "$2.52"
    assert dollars_text(0.0105) == "$0.0105"
    assert percent_text(0.75) == "75%"
    assert percent_text(0.0035) == "0.350%"


def test_it_renders_the_exact_value_beside_the_text():
    shown = show("kv_total", 1073741824000.0, "bytes")
    html = str(conditional_escape(shown))
    assert html == '<data value="1073741824000.0" data-name="kv_total">1.07 TB</data>'
    assert shown.text == "1.07 TB"


def test_it_escapes_what_it_is_given():
    assert "<b>" not in str(conditional_escape(show("x<b>", 1.0, "number", " <b>")))
