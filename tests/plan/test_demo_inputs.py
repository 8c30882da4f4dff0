"""Any query a browser (or anyone) sends a demo gets an answer in words, never an exception.

Calls the demos and renders their partial directly: no database, so hypothesis can try many
queries quickly.
"""

import math
import re

from django import forms
from django.template.loader import render_to_string
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.plan import demos


def _values(field):
    """Texts for one field: its choices, numbers around its limits, and junk."""
    choices = [str(key) for key, _ in getattr(field, "choices", ())]
    limits = [getattr(field, "min_value", None), getattr(field, "max_value", None)]
    numbers = st.one_of(
        st.integers(-(10**13), 10**13).map(str),
        st.floats(allow_nan=True, allow_infinity=True).map(repr),
        st.sampled_from([str(limit) for limit in limits if limit is not None] or ["0"]),
    )
    junk = st.sampled_from(["", " ", "abc", "1e400", "-0", "0x10", "½", "1,000", "None"])
    strategies = [numbers, junk]
    if choices:
        strategies.insert(0, st.sampled_from(choices))
    return st.one_of(*strategies)


def _queries(key):
    fields = demos.MODULES[key].Form.base_fields
    return st.fixed_dictionaries({}, optional={name: _values(f) for name, f in fields.items()})


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_it_answers_any_query_in_words(data):
    key = data.draw(st.sampled_from(sorted(demos.MODULES)))
    query = data.draw(_queries(key))
    context = demos.run(key, query)
    outcomes = [bool(context["errors"]), bool(context["impossible"]), context["result"] is not None]
    assert outcomes.count(True) == 1
    html = render_to_string("plan/page.html#demo", context)
    assert html.lstrip().startswith('<div id="demo"')
    if context["impossible"]:
        assert "This cannot work:" in html


def _valid(field):
    """Any value the field accepts."""
    choices = getattr(field, "choices", None)
    if choices:
        return st.sampled_from([str(key) for key, _ in choices])
    low, high = field.min_value, field.max_value
    # FloatField and DecimalField are subclasses of IntegerField.
    if isinstance(field, forms.DecimalField):
        return st.decimals(low, high, places=field.decimal_places).map(str)
    if isinstance(field, forms.FloatField):
        return st.floats(low, high).map(repr)
    return st.integers(low, high).map(str)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_it_computes_or_refuses_every_valid_input(data):
    """Inputs each within their field's range: the only refusals are relations between them
    (a form's own check) or a configuration that cannot work, both in words."""
    key = data.draw(st.sampled_from(sorted(demos.MODULES)))
    fields = demos.MODULES[key].Form.base_fields
    query = data.draw(st.fixed_dictionaries({name: _valid(f) for name, f in fields.items()}))
    context = demos.run(key, query)
    form = context["form"]
    assert not any(name in form.errors for name in fields), form.errors
    html = render_to_string("plan/page.html#demo", context)
    assert "<data value=" in html or "This cannot work:" in html or context["errors"]
    shown = [float(value) for value in re.findall(r'<data value="([^"]+)"', html)]
    assert all(math.isfinite(value) for value in shown), shown
