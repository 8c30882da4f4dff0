"""The maths of serving LLMs: pure numpy functions over real GPU, model and format catalogues.

Every number the app teaches comes from here. Scenario formulas reach the functions through
:data:`registry.FUNCTIONS` and the catalogue entries through their ``FORMULA_FIELDS``. Results are
in SI base units (bytes, seconds, FLOP, FLOP/s, B/s, tokens, USD), decimal unless a name says
GiB. This package never imports Django.
"""

from .catalogue import FORMATS, FORMULA_FIELDS, GPU, GPUS, MODELS, Model, NumberFormat
from .registry import FUNCTIONS

__all__ = [
    "FORMATS",
    "FORMULA_FIELDS",
    "FUNCTIONS",
    "GPU",
    "GPUS",
    "MODELS",
    "Model",
    "NumberFormat",
]
