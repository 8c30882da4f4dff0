"""Catalogue figures as a learner reads them: a figure written in its unit, and its label (the
catalogue sheet a question links to, and the linter's messages, show them)."""

import numbers
from typing import cast

from .catalogue import Catalogue
from .numbers import as_number, format_number, in_unit, round_significant
from .templates import with_unit
from .units import display_unit


def figure_text(catalogue: Catalogue, entry: object, name: str) -> str:
    """A catalogue figure written for a learner, in the unit it reads best in ("3,350 GB/s",
    "989 TFLOPS", "0.515625 B"): whole numbers in full, others to 6 significant figures."""
    value = getattr(entry, name, None)
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return "" if value is None else str(value)
    unit = display_unit(catalogue.units.get(type(entry), {}).get(name, ""))

    shown = in_unit(cast(float, value), unit.factor)  # an int stays exact
    if shown != shown.to_integral_value():
        shown = round_significant(shown, 6)
    number = format_number(as_number(shown), exact=True)
    return with_unit(number, unit) if unit.text else number


_LABELS = {
    "memory_bytes": "memory",
    "hbm_bandwidth": "memory bandwidth",
    "bf16_flops": "dense BF16 peak",
    "fp16_flops": "dense FP16 peak",
    "fp8_flops": "dense FP8 peak",
    "fp4_flops": "dense FP4 peak",
    "int8_ops": "dense INT8 peak",
    "interconnect_bandwidth": "GPU-to-GPU link (both directions)",
    "interconnect_bandwidth_per_direction": "GPU-to-GPU link (one direction)",
    "interconnect_links": "peer links that do not pool (0: a switch)",
    "tdp_watts": "board power",
    "price_per_second_default": "rental price (default)",
    "price_per_second_low": "rental price (low)",
    "price_per_second_high": "rental price (high)",
    "kv_heads": "KV heads",
    "head_dim": "head dimension",
    "qk_head_dim": "query/key head dimension",
    "v_head_dim": "value head dimension",
    "kv_lora_rank": "MLA latent (kv_lora_rank)",
    "q_lora_rank": "MLA query rank (q_lora_rank)",
    "max_context_tokens": "native context",
    "bytes_per_element": "bytes per element",
    "bits_per_element": "bits per element",
    "element_bits": "bits per element, scales aside",
}


def figure_label(name: str) -> str:
    """A catalogue field in words ("hbm_bandwidth" -> "memory bandwidth")."""
    return _LABELS.get(name, name.replace("_", " "))
