"""Vectorised special functions that numpy lacks (no SciPy in this project).

Each function takes a Python scalar or a numpy array. Where the standard library has the same
algorithm (``statistics.NormalDist.inv_cdf`` is AS241) or an exact one (``math.lgamma``), scalars
use it and arrays a numpy port; the tests check that the two paths agree to 1e-14.
"""

import math
from statistics import NormalDist

import numpy as np

_STANDARD_NORMAL = NormalDist()
_EULER_GAMMA = 0.5772156649015329
# Elements per block in blockwise(): small enough that a kernel's temporaries stay in cache,
# large enough that numpy's per-call overhead stays small (measured best on the 2-core box).
BLOCK = 16_384


def blockwise(function, *arrays):
    """Apply an elementwise array function block by block, for large broadcast arrays.

    Long chains of numpy operations (rational approximations, solver iterations) run about twice
    as fast on cache-sized blocks as on 100,000-element arrays, and an iterative solver can stop
    each block as soon as that block has converged. The result has the broadcast shape.
    """
    broadcast = np.broadcast_arrays(*(np.asarray(a) for a in arrays))
    shape = broadcast[0].shape
    flat = [np.ravel(a) for a in broadcast]
    size = flat[0].size
    if size <= BLOCK:
        return np.reshape(function(*flat), shape)
    result = np.empty(size)
    for start in range(0, size, BLOCK):
        stop = start + BLOCK
        result[start:stop] = function(*(a[start:stop] for a in flat))
    return result.reshape(shape)


def _polynomial(coefficients, x):
    """Horner evaluation, highest power first."""
    result = coefficients[0]
    for coefficient in coefficients[1:]:
        result = result * x + coefficient
    return result


# Wichura (1988), Algorithm AS241 PPND16, the same coefficients as CPython's statistics module.
_CENTRAL_NUM = (
    2.5090809287301226727e3, 3.3430575583588128105e4, 6.7265770927008700853e4,
    4.5921953931549871457e4, 1.3731693765509461125e4, 1.9715909503065514427e3,
    1.3314166789178437745e2, 3.3871328727963666080e0,
)  # fmt: skip
_CENTRAL_DEN = (
    5.2264952788528545610e3, 2.8729085735721942674e4, 3.9307895800092710610e4,
    2.1213794301586595867e4, 5.3941960214247511077e3, 6.8718700749205790830e2,
    4.2313330701600911252e1, 1.0,
)  # fmt: skip
_NEAR_NUM = (
    7.74545014278341407640e-4, 2.27238449892691845833e-2, 2.41780725177450611770e-1,
    1.27045825245236838258e0, 3.64784832476320460504e0, 5.76949722146069140550e0,
    4.63033784615654529590e0, 1.42343711074968357734e0,
)  # fmt: skip
_NEAR_DEN = (
    1.05075007164441684324e-9, 5.47593808499534494600e-4, 1.51986665636164571966e-2,
    1.48103976427480074590e-1, 6.89767334985100004550e-1, 1.67638483018380384940e0,
    2.05319162663775882187e0, 1.0,
)  # fmt: skip
_FAR_NUM = (
    2.01033439929228813265e-7, 2.71155556874348757815e-5, 1.24266094738807843860e-3,
    2.65321895265761230930e-2, 2.96560571828504891230e-1, 1.78482653991729133580e0,
    5.46378491116411436990e0, 6.65790464350110377720e0,
)  # fmt: skip
_FAR_DEN = (
    2.04426310338993978564e-15, 1.42151175831644588870e-7, 1.84631831751005468180e-5,
    7.86869131145613259100e-4, 1.48753612908506148525e-2, 1.36929880922735805310e-1,
    5.99832206555887937690e-1, 1.0,
)  # fmt: skip


def _select(mask, if_true, if_false):
    """``np.where`` for finite arrays: exact, and without its slow branch on mixed masks."""
    return if_true * mask + if_false * ~mask


def _horner(coefficients, x):
    """Horner evaluation of an array polynomial, highest power first, updating in place."""
    result = coefficients[0] * x
    result += coefficients[1]
    for coefficient in coefficients[2:]:
        result *= x
        result += coefficient
    return result


def _central_quantile(q):
    r = 0.180625 - q * q
    return q * _horner(_CENTRAL_NUM, r) / _horner(_CENTRAL_DEN, r)


def _tail_quantile(p, q):
    r = np.log(np.minimum(p, 1 - p))  # the smaller tail, without rounding p near 0
    np.negative(r, out=r)
    np.sqrt(r, out=r)
    far = r > 5.0
    shifted = r - 1.6
    tail = _horner(_NEAR_NUM, shifted) / _horner(_NEAR_DEN, shifted)
    if far.any():  # probabilities below 1.4e-11 from either end
        shifted = r[far] - 5.0
        tail[far] = _horner(_FAR_NUM, shifted) / _horner(_FAR_DEN, shifted)
    return np.copysign(tail, q)  # q is never 0 in the tails


def normal_quantile(probability):
    """Inverse of the standard normal CDF, for probabilities strictly between 0 and 1.

    Reference: M. J. Wichura, "Algorithm AS241: The percentage points of the normal
    distribution", Applied Statistics 37 (1988) 477-484 (relative error about 1e-16).
    """
    if not isinstance(probability, np.ndarray):
        return _STANDARD_NORMAL.inv_cdf(float(probability))
    return blockwise(_quantile_block, probability.astype(float, copy=False))


def _quantile_block(p):
    q = p - 0.5
    central = np.abs(q) <= 0.425
    if central.all():
        return _central_quantile(q)
    if not central.any():
        return _tail_quantile(p, q)
    # Both branches over the whole array, then a branch-free exact select (both are finite):
    # cheaper than gathering the subsets or np.where on a mixed mask.
    tail = _tail_quantile(p, q + 0.5 * central)  # q is never 0 where the tail is kept
    return _select(central, _central_quantile(q), tail)


_ERFC_SERIES = (
    0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806, 0.09678418,
    0.37409196, 1.00002368, -1.26551223,
)  # fmt: skip


def normal_cdf(x):
    """Standard normal CDF, Φ(x) = erfc(−x/√2)/2, to a relative error below 1.2e-7.

    Uses the Chebyshev fit of erfc in Press et al., Numerical Recipes (2nd ed., section 6.2) for
    scalars and arrays alike, so a scenario gives the same answer evaluated either way.
    """
    if not isinstance(x, np.ndarray):
        z = -float(x) / math.sqrt(2)
        magnitude = abs(z)
        t = 1 / (1 + 0.5 * magnitude)
        erfc = t * math.exp(-magnitude * magnitude + _polynomial(_ERFC_SERIES, t))
        return 0.5 * (erfc if z >= 0 else 2 - erfc)
    return blockwise(_cdf_block, x.astype(float, copy=False))


def _cdf_block(x):
    z = x * (-1 / math.sqrt(2))
    magnitude = np.abs(z)
    t = 0.5 * magnitude
    t += 1
    np.reciprocal(t, out=t)
    exponent = _horner(_ERFC_SERIES, t)
    exponent -= magnitude * magnitude
    erfc = np.exp(exponent, out=exponent)
    erfc *= t
    negative = z < 0  # Φ = 1 − erfc/2 there, erfc/2 elsewhere
    half = 0.5 * erfc
    return half + negative * (1 - erfc)


# Lanczos approximation, g = 7, n = 9 (relative error about 1e-15 for x >= 0.5).
_LANCZOS = (
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
)  # fmt: skip


def log_gamma(x):
    """ln Γ(x) for x > 0 (Lanczos 1964 for arrays, ``math.lgamma`` for scalars)."""
    if not isinstance(x, np.ndarray):
        return math.lgamma(float(x))
    x = np.asarray(x, dtype=float)
    # Below 0.5 the series loses accuracy: use ln Γ(x) = ln Γ(x + 1) − ln x.
    small = x < 0.5
    z = np.where(small, x + 1, x) - 1
    series = np.full_like(z, _LANCZOS[0])
    for index, coefficient in enumerate(_LANCZOS[1:], start=1):
        series += coefficient / (z + index)
    t = z + 7.5
    result = 0.5 * math.log(2 * math.pi) + (z + 0.5) * np.log(t) - t + np.log(series)
    return np.where(small, result - np.log(x), result)


def harmonic_number(n):
    """H(n) = 1 + 1/2 + … + 1/n, extended to real n ≥ 0 as ψ(n + 1) + γ.

    Shifts n up by 16 with the recurrence H(n) = H(n + 1) − 1/(n + 1), then uses the asymptotic
    series H(m) = ln m + γ + 1/(2m) − 1/(12m²) + 1/(120m⁴) − 1/(252m⁶) + 1/(240m⁸), whose next
    term, 1/(132m¹⁰), is below 1e-14 for m ≥ 16 (Abramowitz and Stegun 6.3.18). No loop depends
    on the size of n.
    """
    shifted = n + 16.0
    correction = 0.0
    for step in range(1, 17):
        correction = correction + 1.0 / (n + step)
    inverse_square = 1.0 / (shifted * shifted)
    tail = inverse_square * (
        1 / 12 - inverse_square * (1 / 120 - inverse_square * (1 / 252 - inverse_square / 240))
    )
    series = np.log(shifted) + _EULER_GAMMA + 0.5 / shifted - tail
    return series - correction
