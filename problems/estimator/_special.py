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


def normal_quantile(probability):
    """Inverse of the standard normal CDF, for probabilities strictly between 0 and 1.

    Reference: M. J. Wichura, "Algorithm AS241: The percentage points of the normal
    distribution", Applied Statistics 37 (1988) 477-484 (relative error about 1e-16).
    """
    if not isinstance(probability, np.ndarray):
        return _STANDARD_NORMAL.inv_cdf(float(probability))
    p = np.asarray(probability, dtype=float)
    q = p - 0.5
    r_central = 0.180625 - q * q
    central = q * _polynomial(_CENTRAL_NUM, r_central) / _polynomial(_CENTRAL_DEN, r_central)
    tail_p = np.where(q <= 0, p, 1 - p)
    # The central branch covers |q| <= 0.425, so the tails never see a probability near 0.5.
    r = np.sqrt(-np.log(np.clip(tail_p, 1e-300, 0.075)))
    near = _polynomial(_NEAR_NUM, r - 1.6) / _polynomial(_NEAR_DEN, r - 1.6)
    far = _polynomial(_FAR_NUM, r - 5.0) / _polynomial(_FAR_DEN, r - 5.0)
    tail = np.where(r <= 5.0, near, far)
    tail = np.where(q < 0, -tail, tail)
    return np.where(np.abs(q) <= 0.425, central, tail)


_ERFC_SERIES = (
    0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807, -0.18628806, 0.09678418,
    0.37409196, 1.00002368, -1.26551223,
)  # fmt: skip


def normal_cdf(x):
    """Standard normal CDF, Φ(x) = erfc(−x/√2)/2, to a relative error below 1.2e-7.

    Uses the Chebyshev fit of erfc in Press et al., Numerical Recipes (2nd ed., section 6.2) for
    scalars and arrays alike, so a scenario gives the same answer evaluated either way.
    """
    scalar = not isinstance(x, np.ndarray)
    z = -float(x) / math.sqrt(2) if scalar else -np.asarray(x, dtype=float) / math.sqrt(2)
    magnitude = abs(z) if scalar else np.abs(z)
    t = 1 / (1 + 0.5 * magnitude)
    exponent = -magnitude * magnitude + _polynomial(_ERFC_SERIES, t)
    erfc = t * (math.exp(exponent) if scalar else np.exp(exponent))
    if scalar:
        return 0.5 * (erfc if z >= 0 else 2 - erfc)
    return 0.5 * np.where(z >= 0, erfc, 2 - erfc)


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

    Shifts n up by 10 with the recurrence H(n) = H(n + 1) − 1/(n + 1), then uses the asymptotic
    series ln m + γ + 1/(2m) − 1/(12m²) + 1/(120m⁴) − 1/(252m⁶), whose next term is below 1e-10
    for m ≥ 10 (Abramowitz and Stegun 6.3.18). No loop depends on the size of n.
    """
    shifted = n + 10.0
    correction = 0.0
    for step in range(1, 11):
        correction = correction + 1.0 / (n + step)
    inverse_square = 1.0 / (shifted * shifted)
    series = (
        np.log(shifted)
        + _EULER_GAMMA
        + 0.5 / shifted
        - inverse_square * (1 / 12 - inverse_square * (1 / 120 - inverse_square / 252))
    )
    return series - correction
