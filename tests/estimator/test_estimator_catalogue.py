"""Catalogues: parameter counts from the architecture against the published totals, formats, GPUs.

Parameter counts are computed by the estimator from each config.json; the published figures are
typed in independently. Tolerance 0.5 % (published totals are rounded to 3-4 significant figures).
"""

import dataclasses
import math
import re

import pytest

from problems.estimator.catalogue import (
    FORMATS,
    FORMULA_FIELDS,
    GPU,
    GPUS,
    MODELS,
    Model,
    NumberFormat,
    describe,
)

TOLERANCE = 0.005


def test_llama_3_8b_total_parameters_worked_by_hand():
    # attention: q and o are 4096 × 4096, k and v 4096 × (8 heads × 128) each
    attention = 2 * 4096 * 4096 + 2 * 4096 * 1024
    mlp = 3 * 4096 * 14336  # SwiGLU gate, up, down
    norms = 2 * 4096
    per_layer = attention + mlp + norms  # 218,112,000
    embeddings = 2 * 128256 * 4096  # input table and untied LM head
    total = 32 * per_layer + embeddings + 4096  # plus the final norm
    assert total == 8_030_261_248
    assert MODELS["llama-3-8b"].total_params == total


@pytest.mark.parametrize("key", sorted(MODELS))
def test_total_parameters_match_the_published_total(key):
    model = MODELS[key]
    assert model.total_params == pytest.approx(model.published_total_params, rel=TOLERANCE)


@pytest.mark.parametrize(
    "key",
    [
        "llama-3-8b",
        "llama-3-70b",
        "llama-3.1-405b",
        "mixtral-8x7b",
        "qwen3-235b-a22b",
        "deepseek-v3",
    ],
)
def test_active_parameters_match_the_published_figure(key):
    model = MODELS[key]
    assert model.active_params == pytest.approx(model.published_active_params, rel=TOLERANCE)


def test_gpt_oss_active_parameters_follow_openais_convention():
    """OpenAI's 5.13 B counts the unembedding but not the input embedding table."""
    model = MODELS["gpt-oss-120b"]
    assert model.active_params - model.embedding_params == pytest.approx(5.13e9, rel=TOLERANCE)
    assert model.total_params == pytest.approx(116.83e9, rel=0.001)


def test_mixtral_active_parameters_worked_by_hand():
    attention = 2 * 4096 * 4096 + 2 * 4096 * 1024
    expert = 3 * 4096 * 14336
    router = 4096 * 8
    per_layer_active = attention + 2 * expert + router + 2 * 4096
    active = 32 * per_layer_active + 2 * 32000 * 4096 + 4096
    assert MODELS["mixtral-8x7b"].active_params == active == 12_879_925_248


def test_deepseek_v3_mla_attention_block_worked_by_hand():
    hidden, heads = 7168, 128
    query = hidden * 1536 + 1536 + 1536 * heads * (128 + 64)
    key_value = hidden * (512 + 64) + 512 + 512 * heads * (128 + 128)
    output = heads * 128 * hidden
    from problems.estimator.architecture import attention_params

    assert attention_params(MODELS["deepseek-v3"]) == query + key_value + output == 187_107_328


def test_model_derived_fields():
    gpt = MODELS["gpt-oss-120b"]
    assert (gpt.full_attention_layers, gpt.sliding_window_layers, gpt.moe_layers) == (18, 18, 36)
    deepseek = MODELS["deepseek-v3"]
    assert (deepseek.moe_layers, deepseek.qk_head_dim, deepseek.v_head_dim) == (58, 192, 128)
    llama = MODELS["llama-3-70b"]
    assert (llama.moe_layers, llama.qk_head_dim, llama.v_head_dim) == (0, 128, 128)


@pytest.mark.parametrize(
    ("key", "bits"),
    [
        ("fp32", 32),
        ("bf16", 16),
        ("fp16", 16),
        ("fp8", 8),
        ("int8", 8),
        ("int4", 4 + 16 / 128),
        ("mxfp4", 4 + 8 / 32),
        ("nvfp4", 4 + 8 / 16),
    ],
)
def test_format_bits_include_block_scales(key, bits):
    assert FORMATS[key].bits_per_element == bits
    assert FORMATS[key].bytes_per_element == bits / 8


def test_reference_bits_per_element():
    assert (FORMATS["int4"].bits_per_element, FORMATS["mxfp4"].bits_per_element) == (4.125, 4.25)
    assert FORMATS["nvfp4"].bits_per_element == 4.5


def test_gpu_figures_are_dense_and_decimal():
    h100 = GPUS["h100-sxm"]
    # The datasheet's 1,979 TFLOPS BF16 is with 2:4 sparsity; dense is half.
    assert h100.bf16_flops == pytest.approx(1979e12 / 2, rel=0.001)
    assert h100.memory_bytes == 80 * 10**9
    assert h100.hbm_bandwidth == 3.35e12
    assert h100.interconnect_bandwidth_per_direction == 450e9
    orin = GPUS["jetson-agx-orin-64gb"]
    assert orin.int8_ops == 170e12 / 2  # 170 sparse INT8 TOPS from the GPU
    assert orin.fp16_flops == orin.int8_ops / 2
    assert (orin.memory_bytes, orin.hbm_bandwidth) == (64e9, 204.8e9)
    assert GPUS["a100-80gb"].fp8_flops == 0  # no FP8 tensor cores
    assert GPUS["b200"].fp4_flops == 2 * GPUS["b200"].fp8_flops


def test_every_gpu_price_default_lies_in_its_range():
    for gpu in GPUS.values():
        assert gpu.price_per_hour_low <= gpu.price_per_hour_default <= gpu.price_per_hour_high
        assert "not" in gpu.source or "amortised" in gpu.source


PRIMARY_SOURCE = {
    GPU: r"https://www\.(nvidia|amd)\.com/|https://(resources\.nvidia\.com|nvdam\.widen\.net)/",
    Model: r"https://huggingface\.co/[\w.-]+/[\w.-]+",
    NumberFormat: r"https://|arXiv \d{4}\.\d{4,5}|IEEE 754",
}


def test_every_entry_names_its_primary_source():
    # Instructors read these notes in the authoring reference: each names the datasheet, the
    # published config.json or the paper a figure comes from, never a secondary summary.
    for catalogue in (GPUS, MODELS, FORMATS):
        for entry in catalogue.values():
            assert re.search(PRIMARY_SOURCE[type(entry)], entry.source), entry.key


def test_prices_per_second_are_the_hourly_prices_in_base_units():
    h100 = GPUS["h100-sxm"]
    assert (h100.price_per_hour_default, h100.price_per_second_default) == (3.0, 3.0 / 3600)
    for gpu in GPUS.values():
        for level in ("default", "low", "high"):
            hourly = getattr(gpu, f"price_per_hour_{level}")
            assert getattr(gpu, f"price_per_second_{level}") * 3600 == pytest.approx(hourly)
            assert f"price_per_second_{level}" in FORMULA_FIELDS[GPU]


def test_catalogue_has_the_required_entries():
    assert {"h100-sxm", "h100-pcie", "h200", "b200", "l40s", "a100-80gb", "mi300x"} < set(GPUS)
    assert "jetson-agx-orin-64gb" in GPUS
    assert set(MODELS) == {
        "llama-3-8b",
        "llama-3-70b",
        "llama-3.1-405b",
        "mixtral-8x7b",
        "qwen3-235b-a22b",
        "deepseek-v3",
        "gpt-oss-120b",
    }
    assert set(FORMATS) == {"fp32", "bf16", "fp16", "fp8", "int8", "int4", "mxfp4", "nvfp4"}


def test_formula_fields_hold_the_contract_examples_and_only_plain_values():
    assert {"layers", "name", "total_params", "active_params", "kv_heads"} <= FORMULA_FIELDS[Model]
    assert {"hbm_bandwidth", "memory_bytes", "bf16_flops", "name"} <= FORMULA_FIELDS[GPU]
    assert {"bytes_per_element", "bits_per_element", "name"} <= FORMULA_FIELDS[NumberFormat]
    catalogues = {GPU: GPUS, Model: MODELS, NumberFormat: FORMATS}
    for cls, names in FORMULA_FIELDS.items():
        assert "source" not in names
        for entry in catalogues[cls].values():
            for name in names:
                value = getattr(entry, name)
                assert isinstance(value, str) or (
                    isinstance(value, (int, float))
                    and not isinstance(value, bool)
                    and math.isfinite(value)
                ), (entry.key, name)


def test_describe_lists_the_formula_fields_and_the_source():
    spec = describe(GPUS["h200"])
    assert spec["memory_bytes"] == 141e9 and "H200" in spec["source"]
    with pytest.raises(ValueError, match="entry"):
        describe("h200")


def test_entries_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        GPUS["h100-sxm"].memory_bytes = 1


def test_a_new_gpu_with_a_bad_field_is_refused_by_name():
    good = {f.name: getattr(GPUS["l40s"], f.name) for f in dataclasses.fields(GPU) if f.init}
    GPU(**dict(good, key="my-gpu"))
    with pytest.raises(ValueError, match="hbm_bandwidth"):
        GPU(**dict(good, key="my-gpu", hbm_bandwidth=-1))
    with pytest.raises(ValueError, match="key"):
        GPU(**dict(good, key="My GPU"))
    with pytest.raises(ValueError, match="price_per_hour_default"):
        GPU(**dict(good, key="my-gpu", price_per_hour_default=0.1))


def test_a_new_model_with_inconsistent_architecture_is_refused():
    fields = {
        f.name: getattr(MODELS["llama-3-8b"], f.name) for f in dataclasses.fields(Model) if f.init
    }
    Model(**dict(fields, key="my-model"))
    with pytest.raises(ValueError, match="kv_heads"):
        Model(**dict(fields, key="my-model", kv_heads=5))
    with pytest.raises(ValueError, match="layers"):
        Model(**dict(fields, key="my-model", layers=0))
