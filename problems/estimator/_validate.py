"""Argument checks shared by every estimator function.

Instructors' formulas call the estimator with whatever they type, so every public function checks
each argument before using it and raises a ``ValueError`` whose message names the argument. The
checks are written for speed: a Python scalar costs a type test and one chained comparison (a NaN
fails every comparison, an infinity fails the upper limit), a numpy array a few vectorised passes.

Each check returns the value unchanged, so integer arithmetic stays exact and arrays keep their
shape for broadcasting.
"""

import reprlib

import numpy as np

# Upper limits: far above anything real, low enough to catch a typo or an attempt to overflow.
MAX_TOKENS = 1e12  # tokens in a prompt, a context, a batch step or a chunk
MAX_COUNT = 1e12  # sequences, requests, users, samples, kernels
MAX_DEVICES = 1e6  # GPUs or replicas in one deployment
MAX_BYTES = 1e21  # a zettabyte
MAX_SECONDS = 1e10  # about 300 years
MAX_RATE = 1e15  # requests/s, tokens/s, events/s
MAX_BANDWIDTH = 1e16  # B/s
MAX_FLOPS = 1e30  # FLOP or FLOP/s
MAX_PRICE = 1e7  # USD, USD/h (catalogue), USD/s per GPU, USD/token, USD/request
MAX_FACTOR = 1e6  # dimensionless ratios, speedups, multipliers
# Servers in an Erlang C computation. Its recursion runs once per server (about 90 ns a step on
# the development machine, so 0.36 ms a call at 4,096), and an instructor's formula may call it
# thirty times per draw and be drawn a hundred times per seed: the cap keeps one call cheap
# (the evaluation deadline in problems/engine/budget.py bounds the sum).
MAX_SERVERS = 1024

_SHORT = reprlib.Repr()
_SHORT.maxstring = 40
_SHORT.maxother = 40
_SHORT.maxlong = 40


def _shown(value):
    """A short description of a bad value, safe to put in a message whatever its size."""
    if isinstance(value, (bool, np.bool_)):
        return f"bool {value}"
    if isinstance(value, (float, np.floating)):
        return f"{value:g}"
    if isinstance(value, (int, np.integer)):
        return _SHORT.repr(int(value))
    return f"{type(value).__name__} {_SHORT.repr(value)}"


def _number_or_array(name, value, requirement):
    """True for a scalar, False for an array; anything but a real number or array is refused."""
    kind = type(value)
    if kind is float or kind is int:
        return True
    if kind is bool or isinstance(value, np.bool_):
        raise ValueError(f"{name} must be {requirement}, got {_shown(value)}")
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "iuf":
            raise ValueError(f"{name} must be {requirement}, got an array of {value.dtype}")
        return False
    if isinstance(value, (np.integer, np.floating)):
        return True
    raise ValueError(f"{name} must be {requirement}, got {_shown(value)}")


def _first_bad(value, ok):
    index = int(np.argmin(ok))
    return f"{value.flat[index]:g} (element {index} of the array)"


def _check(name, value, low, high, low_inclusive, integer, requirement):
    scalar = _number_or_array(name, value, requirement)
    if scalar:
        inside = (low <= value <= high) if low_inclusive else (low < value <= high)
        if not inside or (integer and value != int(value)):
            raise ValueError(f"{name} must be {requirement}, got {_shown(value)}")
        return value
    if value.size:
        # Two reductions instead of elementwise masks; a NaN makes both comparisons false.
        lowest, highest = value.min(), value.max()
        inside = (lowest >= low if low_inclusive else lowest > low) and highest <= high
        if inside and integer and value.dtype.kind == "f":
            inside = bool((np.floor(value) == value).all())
        if not inside:
            ok = (value >= low) if low_inclusive else (value > low)
            ok &= value <= high
            if integer and value.dtype.kind == "f":
                ok &= np.floor(value) == value
            raise ValueError(f"{name} must be {requirement}, got {_first_bad(value, ok)}")
    return value


def positive(name, value, maximum):
    """A finite number (or array) above zero and at most ``maximum``."""
    kind = type(value)
    if (kind is float or kind is int) and 0 < value <= maximum:
        return value  # the common case, without the general path's calls
    return _check(
        name, value, 0, maximum, False, False, f"a positive number no larger than {maximum:g}"
    )


def non_negative(name, value, maximum):
    """A finite number (or array) from zero to ``maximum``."""
    kind = type(value)
    if (kind is float or kind is int) and 0 <= value <= maximum:
        return value
    return _check(name, value, 0, maximum, True, False, f"a number from 0 to {maximum:g}")


def positive_integer(name, value, maximum):
    """A whole number (int, or float with no fraction) from 1 to ``maximum``."""
    if type(value) is int and 1 <= value <= maximum:
        return value
    return _check(name, value, 1, maximum, True, True, f"a whole number from 1 to {maximum:g}")


def non_negative_integer(name, value, maximum):
    """A whole number from 0 to ``maximum``."""
    return _check(name, value, 0, maximum, True, True, f"a whole number from 0 to {maximum:g}")


def at_least(name, value, minimum, maximum):
    """A finite number from ``minimum`` to ``maximum`` (both included)."""
    return _check(
        name, value, minimum, maximum, True, False, f"a number from {minimum:g} to {maximum:g}"
    )


def fraction(name, value):
    """A probability or share: a number from 0 to 1 inclusive."""
    kind = type(value)
    if (kind is float or kind is int) and 0 <= value <= 1:
        return value
    return _check(name, value, 0, 1, True, False, "a fraction from 0 to 1")


def open_fraction(name, value):
    """A number strictly between 0 and 1 (a percentile, a power, a utilisation)."""
    requirement = "a fraction strictly between 0 and 1"
    scalar = _number_or_array(name, value, requirement)
    if scalar:
        if not 0 < value < 1:
            raise ValueError(f"{name} must be {requirement}, got {_shown(value)}")
        return value
    if value.size and not (value.min() > 0 and value.max() < 1):
        ok = (value > 0) & (value < 1)
        raise ValueError(f"{name} must be {requirement}, got {_first_bad(value, ok)}")
    return value


def positive_fraction(name, value):
    """A share above 0 and at most 1 (a utilisation target, a usable share of memory)."""
    return _check(name, value, 0, 1, False, False, "a fraction above 0 and at most 1")


def entry(name, value, kind, catalogue_name):
    """A catalogue entry of the given class (a GPU where a GPU goes, not a Model or a name)."""
    if not isinstance(value, kind):
        got = getattr(value, "key", None)
        shown = f"{type(value).__name__} {got!r}" if isinstance(got, str) else _shown(value)
        raise ValueError(
            f"{name} must be a {kind.__name__} from the catalogue {catalogue_name}, got {shown}"
        )
    return value


def refuse(name, message, value):
    """Raise the ValueError for a relation between arguments (``value`` is the offending one)."""
    shown = _shown(value) if np.ndim(value) == 0 else "an array"
    raise ValueError(f"{name} {message}, got {shown}")


def any_true(condition):
    """``bool(np.any(condition))``, without numpy's overhead when the condition is a plain bool."""
    if type(condition) is bool:
        return condition
    return bool(np.any(condition))


def is_scalar(*values):
    """True when no argument is a numpy array (the pure-Python fast path applies)."""
    return not any(isinstance(value, np.ndarray) for value in values)
