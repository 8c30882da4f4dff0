"""The sweep: for every scenario and part of the bank, on several seeds, the ways a person writes
the key (tests/engine/writings.py) are read as the key; and a bare number that is the key in a
smaller unit of the same kind gets a hint naming that unit, unless it is a known mistake."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from problems.engine import ParseError, draw_variant, grade_part, parse_answer
from problems.engine.answers import smaller_units

from .bank import bank_parts, bank_problems
from .writings import UNIT_WRITINGS, writings

SEEDS = (0, 1, 2)


def _misreadings(part, key):
    """The writings of `key` for `part` that are not read as it: (text, what happened)."""
    found = []
    for text, required in writings(part.unit.text, part.unit.noun, part.unit.synonyms, key):
        try:
            value = parse_answer(text, part.unit)
        except ParseError as error:
            if required:
                found.append((text, error.message))
            continue
        if not part.tolerance.accepts(value, key):
            found.append((text, f"read as {value!r}, the key is {key!r}"))
    return found


def test_every_unit_of_the_bank_has_its_writings():
    units = {part.unit.text for _, _, part in bank_parts() if not part.unit.noun}
    assert units - {""} <= UNIT_WRITINGS.keys()


def test_every_way_of_writing_a_key_is_read_as_the_key():
    checked, wrong = 0, []
    for problem in bank_problems().values():
        for scenario in problem.scenarios:
            for seed in SEEDS:
                variant = draw_variant(scenario, seed)
                for part in scenario.parts:
                    key = variant.answer(part.key)
                    checked += 1
                    wrong += [
                        (problem.number, scenario.key, seed, part.key, text, what)
                        for text, what in _misreadings(part, key)
                    ]
    assert checked > 700
    assert wrong == [], "\n".join(map(str, wrong[:20]))


PARTS = bank_parts()


@settings(max_examples=300, deadline=None)
@given(index=st.integers(0, len(PARTS) - 1), seed=st.integers(0, 10**9))
def test_any_seed_any_part_any_writing_is_read_as_the_key(index, seed):
    number, scenario_key, part = PARTS[index]
    variant = draw_variant(bank_problems()[number].scenario(scenario_key), seed)
    assert _misreadings(part, variant.answer(part.key)) == []


PREFIXED = [(number, key, part) for number, key, part in PARTS if smaller_units(part.unit)]


def test_the_bank_has_parts_in_prefixed_units():
    assert {part.unit.text for _, _, part in PREFIXED} >= {"Mtok", "TFLOP", "GB", "KiB", "MB"}


@settings(max_examples=200, deadline=None)
@given(
    index=st.integers(0, len(PREFIXED) - 1),
    seed=st.integers(0, 10**9),
    choice=st.integers(0, 5),
)
def test_a_key_in_a_smaller_unit_typed_bare_gets_a_hint_or_is_a_known_mistake(index, seed, choice):
    number, scenario_key, part = PREFIXED[index]
    variant = draw_variant(bank_problems()[number].scenario(scenario_key), seed)
    smaller = smaller_units(part.unit)
    unit = smaller[choice % len(smaller)]
    key = variant.answer(part.key)
    typed = f"{key * part.unit.factor / unit.factor:.6g}"
    result = grade_part(variant, part.key, typed)
    if result.status == "parse_error":
        assert re.search(rf"looks like it is in {re.escape(unit.text)}: ", result.message)
        assert result.message.endswith("(this cost you no attempt).")
        # Written with that unit, it is read as the key.
        assert grade_part(variant, part.key, f"{typed} {unit.text}").status == "correct"
    else:
        assert result.misconception is not None, result.message
