"""Every registered function: refuses bad arguments by name, broadcasts arrays, documents units.

Instructors' formulas call these functions with whatever they type, so each argument of each
function is replaced in turn by bad values (strings, bools, lists, None, NaN, infinities,
negatives, absurd sizes, catalogue entries of the wrong kind) and must raise a ValueError whose
message names that argument. The valid calls perturbed are the registry's worked examples
(:mod:`problems.estimator.examples`).
"""

import inspect
import math

import numpy as np
import pytest

from problems.estimator import FUNCTIONS
from problems.estimator.catalogue import FORMATS, GPU, GPUS, MODELS, Model, NumberFormat
from problems.estimator.examples import EXAMPLE_CALLS
from problems.estimator.registry import CONCEPTS, summary

BAD_NUMBERS = ["7", True, np.True_, [1.0], None, math.nan, math.inf, -math.inf, -1, -0.5, 1e300]
BAD_ENTRIES = {
    Model: [GPUS["h100-sxm"], FORMATS["bf16"], "llama-3-70b", 3],
    GPU: [MODELS["llama-3-70b"], FORMATS["bf16"], "h100-sxm", 3],
    NumberFormat: [GPUS["h100-sxm"], MODELS["llama-3-8b"], "bf16", 16],
}


def _cases():
    for name, kwargs in EXAMPLE_CALLS.items():
        parameters = inspect.signature(FUNCTIONS[name]).parameters
        for argument, value in kwargs.items():
            bad_values = BAD_ENTRIES.get(type(value), BAD_NUMBERS)
            for bad in bad_values:
                # None is how Python callers leave out an optional argument whose default is
                # None (formulas cannot write None at all), so there it is a valid value.
                if bad is None and parameters[argument].default is None:
                    continue
                yield pytest.param(name, argument, bad, id=f"{name}-{argument}-{bad!r}"[:90])


def test_every_registered_function_has_a_valid_call_covering_every_argument():
    assert set(EXAMPLE_CALLS) == set(FUNCTIONS)
    for name, function in FUNCTIONS.items():
        parameters = set(inspect.signature(function).parameters)
        assert set(EXAMPLE_CALLS[name]) == parameters, name


def test_valid_calls_return_finite_numbers():
    for name, kwargs in EXAMPLE_CALLS.items():
        result = FUNCTIONS[name](**kwargs)
        assert np.ndim(result) == 0, name
        assert isinstance(result, (float, np.floating)), (name, type(result))
        assert math.isfinite(result), name


def test_positional_and_keyword_calls_agree():
    for name, kwargs in EXAMPLE_CALLS.items():
        positional = [kwargs[p] for p in inspect.signature(FUNCTIONS[name]).parameters]
        assert FUNCTIONS[name](*positional) == FUNCTIONS[name](**kwargs), name


@pytest.mark.parametrize(("name", "argument", "bad"), list(_cases()))
def test_bad_argument_raises_value_error_naming_it(name, argument, bad):
    kwargs = dict(EXAMPLE_CALLS[name], **{argument: bad})
    with pytest.raises(ValueError, match=rf"\b{argument}\b"):
        FUNCTIONS[name](**kwargs)


def test_bad_array_element_is_reported_with_its_position():
    with pytest.raises(ValueError, match=r"batch_size .*got -3 \(element 2 of the array\)"):
        FUNCTIONS["decode_flops"](MODELS["llama-3-8b"], np.array([1.0, 2.0, -3.0]), 100)
    with pytest.raises(ValueError, match="context_tokens"):
        FUNCTIONS["decode_flops"](MODELS["llama-3-8b"], 1, np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="batch_size"):
        FUNCTIONS["decode_flops"](MODELS["llama-3-8b"], np.array(["1"]), 100)
    with pytest.raises(ValueError, match="batch_size"):
        FUNCTIONS["decode_flops"](MODELS["llama-3-8b"], np.array([True]), 100)


def test_huge_string_is_not_echoed_in_the_message():
    huge = "9" * 1_000_000
    with pytest.raises(ValueError) as raised:
        FUNCTIONS["kv_blocks"](huge, 16)
    assert len(str(raised.value)) < 300


def test_python_ints_beyond_float_range_are_refused_not_overflowed():
    with pytest.raises(ValueError, match="sequences"):
        FUNCTIONS["kv_cache_bytes"](MODELS["llama-3-8b"], FORMATS["bf16"], 10, 10**400)


@pytest.mark.parametrize("name", sorted(EXAMPLE_CALLS))
def test_each_numeric_argument_broadcasts_over_an_array(name):
    kwargs = EXAMPLE_CALLS[name]
    scalar = FUNCTIONS[name](**kwargs)
    for argument, value in kwargs.items():
        if not isinstance(value, (int, float)):
            continue
        draws = np.full(3, value, dtype=np.asarray(value).dtype)
        result = FUNCTIONS[name](**dict(kwargs, **{argument: draws}))
        assert np.shape(result) == (3,), (name, argument)
        np.testing.assert_allclose(result, scalar, rtol=1e-12, err_msg=f"{name}({argument})")


# Draws for functions whose arguments are related (a stable queue, a finite Pareto mean), where
# scaling every argument by the same factors would leave the valid region.
_RELATED_DRAWS = {
    "expected_max_pareto": dict(shape=np.array([2.0, 1.5, 3.0])),
    "erlang_c": dict(
        arrival_rate=np.array([2.0, 1.0, 0.2]),
        service_rate=np.array([1.0, 0.9, 0.25]),
        servers=np.array([3, 2, 1]),
    ),
    "peak_requests_per_second": dict(peak_to_average=np.array([3.0, 1.5, 1.0])),
}
_RELATED_DRAWS["mmc_mean_wait"] = _RELATED_DRAWS["erlang_c"]
_RELATED_DRAWS["mmc_wait_percentile"] = _RELATED_DRAWS["erlang_c"]


@pytest.mark.parametrize("name", sorted(EXAMPLE_CALLS))
def test_arrays_of_different_values_match_scalar_calls(name):
    """Element i of a vectorised call equals the scalar call on draw i."""
    kwargs = EXAMPLE_CALLS[name]
    numeric = [a for a, v in kwargs.items() if isinstance(v, (int, float))]
    if not numeric:
        return
    # Scale every numeric argument down per draw, which keeps fractions at most 1 and integers
    # integral (rounded, at least 1).
    factors = np.array([1.0, 0.5, 0.25])
    draws = {}
    for argument in numeric:
        value = kwargs[argument]
        scaled = value * factors
        if isinstance(value, int):
            scaled = np.maximum(np.round(scaled), 1).astype(int) if value >= 1 else scaled * 0
        draws[argument] = scaled
    draws.update(_RELATED_DRAWS.get(name, {}))
    vectorised = FUNCTIONS[name](**dict(kwargs, **draws))
    for index in range(3):
        one = {a: draws[a][index].item() for a in numeric}
        expected = FUNCTIONS[name](**dict(kwargs, **one))
        np.testing.assert_allclose(vectorised[index], expected, rtol=1e-12, err_msg=name)


def test_docstrings_give_a_summary_and_units():
    for name, function in FUNCTIONS.items():
        doc = inspect.getdoc(function)
        assert doc, name
        first = summary(name)
        assert first.endswith("."), (name, first)
        assert len(first) <= 100, (name, first)
        assert "Returns" in doc and "[" in doc.split("Returns", 1)[1], name
        for parameter in inspect.signature(function).parameters:
            assert parameter in doc, (name, parameter)


def test_concepts_partition_the_registry():
    names = [name for group in CONCEPTS.values() for name in group]
    assert len(names) == len(set(names)) == len(FUNCTIONS)
    assert len(CONCEPTS) >= 20


def test_large_arrays_are_evaluated_in_blocks_with_identical_values():
    from problems.estimator import latency

    rng = np.random.default_rng(7)
    size = 3 * 16_384 + 5  # several blocks and a ragged last one
    batch = rng.integers(1, 512, size)
    context = rng.integers(1, 32_768, (1, size))  # broadcasting across shapes is kept
    kwargs = dict(EXAMPLE_CALLS["decode_step_time"], batch_size=batch, context_tokens=context)
    blocked = FUNCTIONS["decode_step_time"](**kwargs)
    assert blocked.shape == (1, size)
    np.testing.assert_array_equal(blocked, latency.decode_step_time(**kwargs))


def test_an_error_in_a_later_block_reports_its_whole_array_position():
    batch = np.ones(40_000)
    batch[35_001] = -2.0
    with pytest.raises(ValueError, match=r"batch_size .*element 35001 of the array"):
        FUNCTIONS["decode_flops"](MODELS["llama-3-8b"], batch, 100)
