"""Catalogues of real GPUs, models and number formats, each entry with a source note.

Numeric fields are in SI base units, decimal: bytes, B/s, FLOP/s, W, USD/s (GB = 1e9 B,
TB/s = 1e12 B/s, TFLOPS = 1e12 FLOP/s). The one exception says so in its name: a GPU's
``price_per_hour_*`` fields are the rental prices as quoted, in USD/h; ``price_per_second_*`` are
the same prices in base units, for formulas. FLOP/s figures are dense tensor-core peaks: NVIDIA's
headline numbers for Hopper, Ada, Blackwell and Orin are quoted "with sparsity" (2:4 structured
sparsity), which doubles them; every figure here is the dense one.

A model's total and active parameter counts are computed from its architecture
(:mod:`problems.estimator.architecture`) and tested against the published figures.

``FORMULA_FIELDS`` lists, per class, the attributes a scenario formula may read; the engine refuses
any other attribute.
"""

import re
from dataclasses import dataclass, field, fields

from . import _validate as check
from . import architecture

SECONDS_PER_HOUR = 3600
_KEY = re.compile(r"^[a-z0-9][a-z0-9.-]*$")
_PEAK_FIELDS = ("", "bf16_flops", "fp16_flops", "fp8_flops", "fp4_flops", "int8_ops")


def _short_repr(entry):
    """``GPU('h100-sxm')``: entries show their key, so signatures and messages stay readable."""
    return f"{type(entry).__name__}({entry.key!r})"


def _check_key_and_name(entry):
    if not isinstance(entry.key, str) or not _KEY.match(entry.key):
        raise ValueError(f"key must be a lower-case slug such as 'h100-sxm', got {entry.key!r}")
    if not isinstance(entry.name, str) or not entry.name.strip():
        raise ValueError(f"name must be a non-empty display name, got {entry.name!r}")
    if not isinstance(entry.source, str) or not entry.source.strip():
        raise ValueError(f"source must say where the figures come from ({entry.key})")


@dataclass(frozen=True, slots=True, repr=False)
class GPU:
    """An accelerator: memory, bandwidth, dense peak throughput, interconnect, power and price.

    ``price_per_hour_default`` and its range are parameters for cost problems, not facts: rental
    prices differ by provider, commitment and month. Formulas should take the price as a parameter
    (drawn from the range, or the default) and say so. They are quoted in USD/h, as providers
    quote them; ``price_per_second_default``, ``_low`` and ``_high`` hold the same prices in USD/s,
    the base unit every formula and money function computes in, so a formula never divides by
    3,600 itself.
    """

    key: str
    name: str
    memory_bytes: float  # device memory a model can use [bytes]
    memory_type: str
    hbm_bandwidth: float  # device memory bandwidth (GDDR6 / LPDDR5 for L40S / Orin) [B/s]
    bf16_flops: float  # dense BF16 tensor peak [FLOP/s]
    fp16_flops: float  # dense FP16 tensor peak [FLOP/s]
    fp8_flops: float  # dense FP8 tensor peak [FLOP/s]; 0 where the GPU has no FP8 tensor cores
    fp4_flops: float  # dense FP4 tensor peak [FLOP/s]; 0 where unsupported
    int8_ops: float  # dense INT8 tensor peak [OP/s]
    interconnect: str  # the GPU-to-GPU link
    interconnect_bandwidth: float  # datasheet figure, both directions together [B/s]; 0 = none
    tdp_watts: float  # board power [W]
    price_per_hour_default: float  # illustrative rental price [USD/h], a parameter
    price_per_hour_low: float  # [USD/h]
    price_per_hour_high: float  # [USD/h]
    source: str
    # Peer links that do not pool: a GPU with one dedicated link to each peer and no switch
    # (MI300X: 7 links) reaches its whole interconnect_bandwidth only in a collective with all
    # of its peers; 0 means a switch gives any group of GPUs the full figure (NVSwitch).
    interconnect_links: int = 0
    interconnect_bandwidth_per_direction: float = field(init=False)  # [B/s]
    price_per_second_default: float = field(init=False)  # [USD/s]
    price_per_second_low: float = field(init=False)  # [USD/s]
    price_per_second_high: float = field(init=False)  # [USD/s]

    __repr__ = _short_repr

    def __post_init__(self):
        _check_key_and_name(self)
        check.positive("memory_bytes", self.memory_bytes, check.MAX_BYTES)
        check.positive("hbm_bandwidth", self.hbm_bandwidth, check.MAX_BANDWIDTH)
        check.positive("bf16_flops", self.bf16_flops, check.MAX_FLOPS)
        check.positive("fp16_flops", self.fp16_flops, check.MAX_FLOPS)
        check.non_negative("fp8_flops", self.fp8_flops, check.MAX_FLOPS)
        check.non_negative("fp4_flops", self.fp4_flops, check.MAX_FLOPS)
        check.non_negative("int8_ops", self.int8_ops, check.MAX_FLOPS)
        check.non_negative(
            "interconnect_bandwidth", self.interconnect_bandwidth, check.MAX_BANDWIDTH
        )
        check.non_negative_integer("interconnect_links", self.interconnect_links, 64)
        check.positive("tdp_watts", self.tdp_watts, 1e6)
        check.positive("price_per_hour_low", self.price_per_hour_low, check.MAX_PRICE)
        check.at_least(
            "price_per_hour_default",
            self.price_per_hour_default,
            self.price_per_hour_low,
            check.MAX_PRICE,
        )
        check.at_least(
            "price_per_hour_high",
            self.price_per_hour_high,
            self.price_per_hour_default,
            check.MAX_PRICE,
        )
        # A link's datasheet figure adds both directions; a transfer uses one.
        object.__setattr__(
            self, "interconnect_bandwidth_per_direction", self.interconnect_bandwidth / 2
        )
        for level in ("default", "low", "high"):
            hourly = getattr(self, f"price_per_hour_{level}")
            object.__setattr__(self, f"price_per_second_{level}", hourly / SECONDS_PER_HOUR)


@dataclass(frozen=True, slots=True, repr=False)
class Model:
    """A decoder-only transformer, described by the fields of its config.json.

    Dense models set ``dense_layers = layers`` and ``experts = 0``. A mixture of experts lists its
    routed experts, how many a token uses (``experts_per_token``), its shared experts and the
    width of one expert (``moe_intermediate_size``); ``dense_layers`` counts the leading layers
    that keep a dense MLP (DeepSeek-V3's first three). Multi-head latent attention (MLA) is on
    when ``kv_lora_rank > 0``. Sliding-window attention applies to ``sliding_window_layers`` of
    the layers, each caching at most ``sliding_window`` tokens.
    """

    key: str
    name: str
    layers: int
    hidden_size: int
    attention_heads: int
    kv_heads: int
    head_dim: int
    vocab_size: int
    max_context_tokens: int  # native context length of the model card [tokens]
    intermediate_size: int  # width of a dense MLP (unused when dense_layers = 0)
    dense_layers: int
    published_total_params: float
    published_active_params: float
    source: str
    experts: int = 0
    experts_per_token: int = 0
    shared_experts: int = 0
    moe_intermediate_size: int = 0
    sliding_window: int = 0
    sliding_window_layers: int = 0
    q_lora_rank: int = 0
    kv_lora_rank: int = 0
    qk_nope_head_dim: int = 0
    qk_rope_head_dim: int = 0
    v_head_dim: int = 0  # MLA value head width; for other models it equals head_dim
    tie_word_embeddings: bool = False
    attention_bias: bool = False
    attention_sinks: bool = False
    qk_norm: bool = False
    router_bias: bool = False
    expert_bias: bool = False
    qk_head_dim: int = field(init=False)
    moe_layers: int = field(init=False)
    full_attention_layers: int = field(init=False)
    total_params: int = field(init=False)
    active_params: int = field(init=False)
    embedding_params: int = field(init=False)
    params_per_expert: int = field(init=False)
    routed_expert_params: int = field(init=False)

    __repr__ = _short_repr

    def __post_init__(self):
        _check_key_and_name(self)
        for name in (
            "layers",
            "hidden_size",
            "attention_heads",
            "kv_heads",
            "head_dim",
            "vocab_size",
            "max_context_tokens",
        ):
            check.positive_integer(name, getattr(self, name), check.MAX_TOKENS)
        for name in (
            "intermediate_size",
            "dense_layers",
            "experts",
            "experts_per_token",
            "shared_experts",
            "moe_intermediate_size",
            "sliding_window",
            "sliding_window_layers",
            "q_lora_rank",
            "kv_lora_rank",
            "qk_nope_head_dim",
            "qk_rope_head_dim",
            "v_head_dim",
        ):
            check.non_negative_integer(name, getattr(self, name), check.MAX_TOKENS)
        if self.dense_layers > self.layers or self.sliding_window_layers > self.layers:
            raise ValueError(f"{self.key}: dense_layers and sliding_window_layers ≤ layers")
        if self.experts and not 0 < self.experts_per_token <= self.experts:
            raise ValueError(f"{self.key}: experts_per_token must be from 1 to experts")
        if not self.experts and self.dense_layers != self.layers:
            raise ValueError(f"{self.key}: a dense model has dense_layers = layers")
        if self.kv_heads > self.attention_heads or self.attention_heads % self.kv_heads:
            raise ValueError(f"{self.key}: kv_heads must divide attention_heads")
        if bool(self.sliding_window) != bool(self.sliding_window_layers):
            raise ValueError(f"{self.key}: give both sliding_window and sliding_window_layers")
        mla = self.kv_lora_rank > 0
        qk_head_dim = self.qk_nope_head_dim + self.qk_rope_head_dim if mla else self.head_dim
        set_ = object.__setattr__
        set_(self, "qk_head_dim", qk_head_dim)
        if not mla:
            set_(self, "v_head_dim", self.head_dim)
        set_(self, "moe_layers", architecture.moe_layers(self))
        set_(self, "full_attention_layers", self.layers - self.sliding_window_layers)
        set_(self, "total_params", architecture.total_params(self))
        set_(self, "active_params", architecture.active_params(self))
        set_(self, "embedding_params", architecture.embedding_params(self))
        set_(self, "params_per_expert", architecture.params_per_expert(self))
        set_(self, "routed_expert_params", architecture.routed_expert_params(self))


@dataclass(frozen=True, slots=True, repr=False)
class NumberFormat:
    """A number format as stored: element bits plus the amortised bits of its block scales.

    ``bits_per_element = element_bits + scale_bits / block_size`` (``block_size = 0``: no block
    scales; per-tensor and per-channel scales are negligible and not counted). ``peak_field``
    names the GPU field that gives this format's tensor-core peak, or is empty for a storage-only
    format (INT4 with group scales is dequantised and multiplied in 16-bit; FP32 is not a
    tensor-core format here).
    """

    key: str
    name: str
    element_bits: float
    block_size: int
    scale_bits: float
    peak_field: str
    source: str
    bits_per_element: float = field(init=False)
    bytes_per_element: float = field(init=False)

    __repr__ = _short_repr

    def __post_init__(self):
        _check_key_and_name(self)
        check.positive("element_bits", self.element_bits, 64)
        check.non_negative_integer("block_size", self.block_size, 1e6)
        check.non_negative("scale_bits", self.scale_bits, 64)
        if self.peak_field not in _PEAK_FIELDS:
            raise ValueError(f"peak_field must name a GPU peak field, got {self.peak_field!r}")
        scale = self.scale_bits / self.block_size if self.block_size else 0.0
        bits = self.element_bits + scale
        object.__setattr__(self, "bits_per_element", bits)
        object.__setattr__(self, "bytes_per_element", bits / 8)


_PRICE_NOTE = (
    "Price: an illustrative on-demand rental range per GPU-hour (2025-26 public cloud and GPU "
    "marketplaces), a parameter for cost problems, not a fact."
)

GPUS = {
    gpu.key: gpu
    for gpu in (
        GPU(
            key="h100-sxm",
            name="H100 SXM",
            memory_bytes=80e9,
            memory_type="HBM3",
            hbm_bandwidth=3.35e12,
            bf16_flops=989e12,
            fp16_flops=989e12,
            fp8_flops=1979e12,
            fp4_flops=0.0,
            int8_ops=1979e12,
            interconnect="NVLink 4 (18 links)",
            interconnect_bandwidth=900e9,
            tdp_watts=700,
            price_per_hour_default=3.0,
            price_per_hour_low=1.8,
            price_per_hour_high=7.0,
            source=(
                "NVIDIA H100 Tensor Core GPU datasheet, SXM column "
                "(https://resources.nvidia.com/en-us-tensor-core/"
                "nvidia-tensor-core-gpu-datasheet): 80 GB HBM3 at 3.35 TB/s, NVLink 900 GB/s, up "
                "to 700 W; its 1,979 TFLOPS BF16 and 3,958 FP8/INT8 are 'shown with sparsity', "
                "the dense figures are half. " + _PRICE_NOTE
            ),
        ),
        GPU(
            key="h100-pcie",
            name="H100 PCIe",
            memory_bytes=80e9,
            memory_type="HBM2e",
            hbm_bandwidth=2.0e12,
            bf16_flops=756e12,
            fp16_flops=756e12,
            fp8_flops=1513e12,
            fp4_flops=0.0,
            int8_ops=1513e12,
            interconnect="NVLink bridge (pairs of GPUs); otherwise PCIe 5 x16 (128 GB/s)",
            interconnect_bandwidth=600e9,
            tdp_watts=350,
            price_per_hour_default=2.5,
            price_per_hour_low=1.5,
            price_per_hour_high=5.0,
            source=(
                "NVIDIA H100 PCIe product brief PB-11133-001 "
                "(https://www.nvidia.com/content/dam/en-zz/Solutions/gtcs22/data-center/"
                "h100/PB-11133-001_v01.pdf): 80 GB HBM2e at 2,000 GB/s, 350 W, an NVLink bridge "
                "of 600 GB/s between pairs, else PCIe 5 x16; 1,513 TFLOPS BF16 and 3,026 FP8 are "
                "with sparsity, dense is half. " + _PRICE_NOTE
            ),
        ),
        GPU(
            key="h200",
            name="H200 SXM",
            memory_bytes=141e9,
            memory_type="HBM3e",
            hbm_bandwidth=4.8e12,
            bf16_flops=989e12,
            fp16_flops=989e12,
            fp8_flops=1979e12,
            fp4_flops=0.0,
            int8_ops=1979e12,
            interconnect="NVLink 4 (18 links)",
            interconnect_bandwidth=900e9,
            tdp_watts=700,
            price_per_hour_default=3.5,
            price_per_hour_low=2.3,
            price_per_hour_high=8.0,
            source=(
                "NVIDIA H200 Tensor Core GPU datasheet, SXM column "
                "(https://nvdam.widen.net/s/nb5zzzsjdf/"
                "hpc-datasheet-sc23-h200-datasheet-3002446): 141 GB HBM3e at 4.8 TB/s, NVLink 900 "
                "GB/s, up to 700 W; the same compute as the H100 SXM, its sparsity figures halved "
                "to dense. " + _PRICE_NOTE
            ),
        ),
        GPU(
            key="b200",
            name="B200 (HGX, 1 kW)",
            memory_bytes=180e9,
            memory_type="HBM3e",
            hbm_bandwidth=8.0e12,
            bf16_flops=2250e12,
            fp16_flops=2250e12,
            fp8_flops=4500e12,
            fp4_flops=9000e12,
            int8_ops=4500e12,
            interconnect="NVLink 5 (18 links)",
            interconnect_bandwidth=1800e9,
            tdp_watts=1000,
            price_per_hour_default=5.0,
            price_per_hour_low=3.0,
            price_per_hour_high=10.0,
            source=(
                "NVIDIA DGX B200 datasheet "
                "(https://resources.nvidia.com/en-us-dgx-systems/dgx-b200-datasheet): 1,440 GB of "
                "GPU memory for 8 GPUs, so 180 GB per GPU is taken (the package holds 192 GB of "
                "HBM3e); 72 PFLOPS FP8 and 144 PFLOPS FP4 for 8 GPUs are with sparsity, so dense "
                "is 4.5 and 9 PFLOPS per GPU. 8 TB/s, NVLink 5 at 1.8 TB/s and up to 1,000 W per "
                "GPU: NVIDIA HGX B200 (https://www.nvidia.com/en-us/data-center/hgx/). "
                + _PRICE_NOTE
            ),
        ),
        GPU(
            key="l40s",
            name="L40S",
            memory_bytes=48e9,
            memory_type="GDDR6",
            hbm_bandwidth=864e9,
            bf16_flops=362e12,
            fp16_flops=362e12,
            fp8_flops=733e12,
            fp4_flops=0.0,
            int8_ops=733e12,
            interconnect="none: PCIe 4 x16 only",
            interconnect_bandwidth=64e9,
            tdp_watts=350,
            price_per_hour_default=1.0,
            price_per_hour_low=0.7,
            price_per_hour_high=2.0,
            source=(
                "NVIDIA L40S datasheet "
                "(https://resources.nvidia.com/en-us-l40s/l40s-datasheet-28413): 48 GB GDDR6 at "
                "864 GB/s, 350 W; 733 TFLOPS BF16 and 1,466 FP8/INT8 are with sparsity, dense is "
                "half; no NVLink, GPUs talk over PCIe 4 x16 (64 GB/s both directions). "
                + _PRICE_NOTE
            ),
        ),
        GPU(
            key="a100-80gb",
            name="A100 80GB SXM",
            memory_bytes=80e9,
            memory_type="HBM2e",
            hbm_bandwidth=2.039e12,
            bf16_flops=312e12,
            fp16_flops=312e12,
            fp8_flops=0.0,
            fp4_flops=0.0,
            int8_ops=624e12,
            interconnect="NVLink 3 (12 links)",
            interconnect_bandwidth=600e9,
            tdp_watts=400,
            price_per_hour_default=1.5,
            price_per_hour_low=0.9,
            price_per_hour_high=4.0,
            source=(
                "NVIDIA A100 datasheet, 80GB SXM column "
                "(https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/"
                "pdf/nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf): 80 GB HBM2e at 2,039 "
                "GB/s, NVLink 600 GB/s, 400 W; 312 TFLOPS BF16 dense (624 with sparsity), 624 "
                "TOPS INT8 dense; no FP8 tensor cores. " + _PRICE_NOTE
            ),
        ),
        GPU(
            key="mi300x",
            name="MI300X",
            memory_bytes=192e9,
            memory_type="HBM3",
            hbm_bandwidth=5.3e12,
            bf16_flops=1307e12,
            fp16_flops=1307e12,
            fp8_flops=2615e12,
            fp4_flops=0.0,
            int8_ops=2615e12,
            interconnect="Infinity Fabric (7 links x 128 GB/s)",
            interconnect_bandwidth=896e9,
            interconnect_links=7,
            tdp_watts=750,
            price_per_hour_default=2.5,
            price_per_hour_low=1.5,
            price_per_hour_high=5.0,
            source=(
                "AMD Instinct MI300X data sheet "
                "(https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/"
                "data-sheets/amd-instinct-mi300x-data-sheet.pdf): 192 GB HBM3 at 5.3 TB/s, 750 W, "
                "1,307.4 TFLOPS BF16 and 2,614.9 FP8 dense. AMD Instinct MI300X platform data "
                "sheet (https://www.amd.com/content/dam/amd/en/documents/instinct-tech-docs/"
                "data-sheets/amd-instinct-mi300x-platform-data-sheet.pdf): 7 Infinity Fabric "
                "links per GPU, one to each peer, of 128 GB/s (both directions) = 896 GB/s, and "
                "no switch: a pair of GPUs shares one link (64 GB/s each way) and a collective "
                "among p of the 8 GPUs gets p − 1 links, 64 × (p − 1) GB/s each way "
                "(interconnect_links). " + _PRICE_NOTE
            ),
        ),
        GPU(
            key="jetson-agx-orin-64gb",
            name="Jetson AGX Orin 64GB",
            memory_bytes=64e9,
            memory_type="LPDDR5 (shared by CPU and GPU)",
            hbm_bandwidth=204.8e9,
            bf16_flops=42.5e12,
            fp16_flops=42.5e12,
            fp8_flops=0.0,
            fp4_flops=0.0,
            int8_ops=85e12,
            interconnect="none (single module)",
            interconnect_bandwidth=0.0,
            tdp_watts=60,
            price_per_hour_default=0.08,
            price_per_hour_low=0.05,
            price_per_hour_high=0.2,
            source=(
                "NVIDIA Jetson AGX Orin Series technical brief "
                "(https://www.nvidia.com/content/dam/en-zz/Solutions/gtcf21/jetson-orin/"
                "nvidia-jetson-agx-orin-technical-brief.pdf): 64 GB 256-bit LPDDR5 at 204.8 GB/s, "
                "15-60 W. The marketing '275 TOPS' is sparse INT8 of the GPU (170) plus the two "
                "DLAs (105). GPU dense INT8 = 170 / 2 = 85 TOPS; dense FP16/BF16 = 42.5 TFLOPS "
                "(Ampere tensor cores run FP16 at half the INT8 rate). Price: a ~$2,000 module "
                "amortised over 3 years, not rented."
            ),
        ),
    )
}

MODELS = {
    model.key: model
    for model in (
        Model(
            key="llama-3-8b",
            name="Llama-3-8B",
            layers=32,
            hidden_size=4096,
            attention_heads=32,
            kv_heads=8,
            head_dim=128,
            vocab_size=128256,
            max_context_tokens=8192,
            intermediate_size=14336,
            dense_layers=32,
            published_total_params=8.03e9,
            published_active_params=8.03e9,
            source=(
                "meta-llama/Meta-Llama-3-8B config.json "
                "(https://huggingface.co/meta-llama/Meta-Llama-3-8B); 8.03 B parameters counted "
                "from it (the model card and the Llama 3 paper, arXiv 2407.21783, say 8 B)."
            ),
        ),
        Model(
            key="llama-3-70b",
            name="Llama-3-70B",
            layers=80,
            hidden_size=8192,
            attention_heads=64,
            kv_heads=8,
            head_dim=128,
            vocab_size=128256,
            max_context_tokens=8192,
            intermediate_size=28672,
            dense_layers=80,
            published_total_params=70.55e9,
            published_active_params=70.55e9,
            source=(
                "meta-llama/Meta-Llama-3-70B config.json "
                "(https://huggingface.co/meta-llama/Meta-Llama-3-70B); 70.55 B parameters counted "
                "from it (the model card and the Llama 3 paper, arXiv 2407.21783, say 70 B)."
            ),
        ),
        Model(
            key="llama-3.1-405b",
            name="Llama-3.1-405B",
            layers=126,
            hidden_size=16384,
            attention_heads=128,
            kv_heads=8,
            head_dim=128,
            vocab_size=128256,
            max_context_tokens=131072,
            intermediate_size=53248,
            dense_layers=126,
            published_total_params=405.85e9,
            published_active_params=405.85e9,
            source=(
                "meta-llama/Llama-3.1-405B config.json "
                "(https://huggingface.co/meta-llama/Llama-3.1-405B); 405.85 B parameters counted "
                "from it (the Llama 3 paper, arXiv 2407.21783, says 405 B); 128K context."
            ),
        ),
        Model(
            key="mixtral-8x7b",
            name="Mixtral-8x7B",
            layers=32,
            hidden_size=4096,
            attention_heads=32,
            kv_heads=8,
            head_dim=128,
            vocab_size=32000,
            max_context_tokens=32768,
            intermediate_size=0,
            dense_layers=0,
            experts=8,
            experts_per_token=2,
            moe_intermediate_size=14336,
            published_total_params=46.70e9,
            published_active_params=12.88e9,
            source=(
                "mistralai/Mixtral-8x7B-v0.1 config.json "
                "(https://huggingface.co/mistralai/Mixtral-8x7B-v0.1; intermediate_size 14336 is "
                "per expert); 46.70 B total and 12.88 B active counted from it ('Mixtral of "
                "Experts', arXiv 2401.04088: 47 B and 13 B)."
            ),
        ),
        Model(
            key="qwen3-235b-a22b",
            name="Qwen3-235B-A22B",
            layers=94,
            hidden_size=4096,
            attention_heads=64,
            kv_heads=4,
            head_dim=128,
            vocab_size=151936,
            max_context_tokens=32768,
            intermediate_size=0,
            dense_layers=0,
            experts=128,
            experts_per_token=8,
            moe_intermediate_size=1536,
            qk_norm=True,
            published_total_params=235.09e9,
            published_active_params=22.19e9,
            source=(
                "Qwen/Qwen3-235B-A22B config.json (https://huggingface.co/Qwen/Qwen3-235B-A22B; "
                "every layer MoE, per-head q/k norms); model card: 235 B total, 22 B active, "
                "32,768 tokens native (131,072 with YaRN); 235.09 / 22.19 B counted from the "
                "config (Qwen3 Technical Report, arXiv 2505.09388)."
            ),
        ),
        Model(
            key="deepseek-v3",
            name="DeepSeek-V3",
            layers=61,
            hidden_size=7168,
            attention_heads=128,
            kv_heads=128,
            head_dim=128,
            vocab_size=129280,
            max_context_tokens=131072,
            intermediate_size=18432,
            dense_layers=3,
            experts=256,
            experts_per_token=8,
            shared_experts=1,
            moe_intermediate_size=2048,
            q_lora_rank=1536,
            kv_lora_rank=512,
            qk_nope_head_dim=128,
            qk_rope_head_dim=64,
            v_head_dim=128,
            router_bias=True,
            published_total_params=671.0e9,
            published_active_params=37.6e9,
            source=(
                "deepseek-ai/DeepSeek-V3 config.json "
                "(https://huggingface.co/deepseek-ai/DeepSeek-V3; MLA, first 3 layers dense, 256 "
                "routed + 1 shared experts, top-8; the router's e_score_correction_bias counted "
                "as a bias); 671 B total without the 14 B multi-token-prediction module, 37.6 B "
                "active counted from the config (the technical report, arXiv 2412.19437, says 671 "
                "B and 37 B); 128K context."
            ),
        ),
        Model(
            key="gpt-oss-120b",
            name="gpt-oss-120b",
            layers=36,
            hidden_size=2880,
            attention_heads=64,
            kv_heads=8,
            head_dim=64,
            vocab_size=201088,
            max_context_tokens=131072,
            intermediate_size=0,
            dense_layers=0,
            experts=128,
            experts_per_token=4,
            moe_intermediate_size=2880,
            sliding_window=128,
            sliding_window_layers=18,
            attention_bias=True,
            attention_sinks=True,
            router_bias=True,
            expert_bias=True,
            published_total_params=116.83e9,
            published_active_params=5.13e9,
            source=(
                "openai/gpt-oss-120b config.json (https://huggingface.co/openai/gpt-oss-120b; "
                "alternating 128-token sliding-window and full layers, attention biases and "
                "per-head sinks, router and expert biases); model card (arXiv 2508.10925): 116.83 "
                "B total, 5.13 B active, the active figure leaving out the input embedding table."
            ),
        ),
    )
}

_MX = (
    "OCP Microscaling Formats (MX) Specification v1.0 "
    "(https://www.opencompute.org/documents/ocp-microscaling-formats-mx-v1-0-spec-final-pdf)"
)

FORMATS = {
    fmt.key: fmt
    for fmt in (
        NumberFormat("fp32", "FP32", 32, 0, 0, "", "IEEE 754-2019 binary32."),
        NumberFormat(
            "bf16",
            "BF16",
            16,
            0,
            0,
            "bf16_flops",
            "bfloat16: FP32's 8-bit exponent with a 7-bit fraction (Kalamkar et al., 'A Study of "
            "BFLOAT16 for Deep Learning Training', arXiv 1905.12322).",
        ),
        NumberFormat("fp16", "FP16", 16, 0, 0, "fp16_flops", "IEEE 754-2019 binary16."),
        NumberFormat(
            "fp8",
            "FP8 (E4M3)",
            8,
            0,
            0,
            "fp8_flops",
            "FP8 E4M3/E5M2 (Micikevicius et al., 'FP8 Formats for Deep Learning', arXiv "
            "2209.05433); the per-tensor or per-channel scale is negligible and not counted.",
        ),
        NumberFormat(
            "int8",
            "INT8",
            8,
            0,
            0,
            "int8_ops",
            "8-bit integers with a per-channel scale (negligible, not counted), as in "
            "SmoothQuant (Xiao et al., arXiv 2211.10438).",
        ),
        NumberFormat(
            "int4",
            "INT4 (group 128, FP16 scale)",
            4,
            128,
            16,
            "",
            "GPTQ (arXiv 2210.17323) / AWQ (arXiv 2306.00978)-style INT4: one FP16 scale per "
            "128 weights = 4 + 16/128 bits; weight-only, multiplied in 16-bit after "
            "dequantisation.",
        ),
        NumberFormat(
            "mxfp4",
            "MXFP4",
            4,
            32,
            8,
            "fp4_flops",
            f"{_MX}: FP4 E2M1 elements in blocks of 32 sharing one E8M0 scale = 4 + 8/32 bits.",
        ),
        NumberFormat(
            "nvfp4",
            "NVFP4",
            4,
            16,
            8,
            "fp4_flops",
            "NVIDIA, 'Introducing NVFP4 for Efficient and Accurate Low-Precision Inference' "
            "(https://developer.nvidia.com/blog/"
            "introducing-nvfp4-for-efficient-and-accurate-low-precision-inference/): FP4 E2M1 "
            "in blocks of 16 with one FP8 E4M3 scale = 4 + 8/16 bits, plus one FP32 scale per "
            "tensor (negligible, not counted).",
        ),
    )
}

FORMULA_FIELDS = {
    GPU: frozenset(f.name for f in fields(GPU) if f.name != "source"),
    Model: frozenset(
        f.name
        for f in fields(Model)
        if f.name not in ("source", "published_total_params", "published_active_params")
        and f.type is not bool
    ),
    NumberFormat: frozenset(
        f.name for f in fields(NumberFormat) if f.name not in ("source", "peak_field")
    ),
}


_TFLOPS = "TFLOPS"
FIELD_UNITS = {
    GPU: {
        "memory_bytes": "GB",
        "hbm_bandwidth": "GB/s",
        "bf16_flops": _TFLOPS,
        "fp16_flops": _TFLOPS,
        "fp8_flops": _TFLOPS,
        "fp4_flops": _TFLOPS,
        "int8_ops": _TFLOPS,
        "interconnect_bandwidth": "GB/s",
        "interconnect_bandwidth_per_direction": "GB/s",
        "tdp_watts": "W",
        "price_per_second_default": "$/h",
        "price_per_second_low": "$/h",
        "price_per_second_high": "$/h",
    },
    Model: {"max_context_tokens": "tokens"},
    NumberFormat: {"bytes_per_element": "B"},
}
"""The unit each figure in base units is best read in, for catalogue sheets and messages. A
figure not listed is a plain number (a count, or bits as its name says); ``price_per_hour_*``
are in USD/h already, and their ``price_per_second_*`` twins are shown in $/h."""


def describe(entry):
    """The formula-visible fields of a catalogue entry, plus its source, as a plain dict."""
    if type(entry) not in FORMULA_FIELDS:
        raise ValueError(f"entry must be a GPU, Model or NumberFormat, got {type(entry).__name__}")
    spec = {name: getattr(entry, name) for name in sorted(FORMULA_FIELDS[type(entry)])}
    spec["source"] = entry.source
    return spec
