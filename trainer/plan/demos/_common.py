"""What the demos share: the form base, catalogue choices, and the checks that make a
configuration impossible (a model that does not fit, a split over GPUs that have no link).

A demo module defines ``Form`` (a :class:`DemoForm` with ``defaults``) and ``compute(data)``,
which takes the form's cleaned data and returns the numbers, tables and charts to show, calling
the estimator (``problems.estimator``) for every figure. ``compute`` raises ``ValueError`` with a
message for the learner when the configuration cannot work; the estimator's own refusals are
``ValueError`` too, so the view shows either kind instead of failing.
"""

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, Self

from django import forms
from django.forms.boundfield import BoundField

from problems.estimator import FORMATS, GPUS, MODELS
from problems.estimator.catalogue import GPU, Model, NumberFormat
from problems.estimator.memory import usable_memory_bytes, weight_bytes
from problems.estimator.quantisation import fits_on_gpus

from ._display import bytes_text, percent_text

BF16 = FORMATS["bf16"]
USABLE_FRACTION = 0.9
"""Share of each GPU's memory a serving engine takes (vLLM's gpu_memory_utilization default)."""

WEIGHT_FORMATS = ("bf16", "fp8", "int8", "int4", "mxfp4", "nvfp4")
KV_FORMATS = ("bf16", "fp8")
TENSOR_PARALLEL = (1, 2, 4, 8)
MOE_MODELS = tuple(key for key, model in MODELS.items() if model.experts)


class Impossible(ValueError):
    """A configuration that cannot run, with the reason in words for the learner."""


class CatalogueField(forms.ChoiceField):
    """A choice among catalogue entries by key; the cleaned value is the entry itself."""

    def __init__(self, catalogue: Mapping[str, Any], keys: Sequence[str], **kwargs: Any) -> None:
        super().__init__(choices=[(key, catalogue[key].name) for key in keys], **kwargs)
        self.catalogue = catalogue

    def clean(self, value: Any) -> Any:
        return self.catalogue[super().clean(value)]


def model_field(label: str = "Model", keys: Sequence[str] | None = None) -> CatalogueField:
    return CatalogueField(MODELS, keys or tuple(MODELS), label=label)


def gpu_field(label: str = "GPU") -> CatalogueField:
    return CatalogueField(GPUS, tuple(GPUS), label=label)


def format_field(label: str, keys: Sequence[str] = WEIGHT_FORMATS) -> CatalogueField:
    return CatalogueField(FORMATS, keys, label=label)


def tensor_parallel_field(
    label: str = "GPUs sharing each layer (tensor parallel)",
) -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=label, choices=[(n, str(n)) for n in TENSOR_PARALLEL], coerce=int
    )


def integer_field(label: str, low: int, high: int, help_text: str = "") -> forms.IntegerField:
    return forms.IntegerField(label=label, min_value=low, max_value=high, help_text=help_text)


def number_field(
    label: str, low: float, high: float, help_text: str = "", step: str = "any"
) -> forms.FloatField:
    field = forms.FloatField(label=label, min_value=low, max_value=high, help_text=help_text)
    field.widget.attrs["step"] = step
    return field


def money_field(label: str, low: str = "0") -> forms.DecimalField:
    """Dollars to a hundredth of a cent: a price typed with more digits is a typo."""
    field = forms.DecimalField(
        label=label,
        min_value=Decimal(low),
        max_value=Decimal(10_000),
        max_digits=9,
        decimal_places=4,
    )
    field.widget.attrs["step"] = "0.01"
    return field


class DemoForm(forms.Form):
    """A demo's inputs. ``defaults`` fill whatever a request leaves out, so ``/plan/pages/2/``
    shows a worked example and a link can change a single input."""

    defaults: dict[str, object] = {}
    # (legend, (field names…)) to group the inputs; one group if empty
    sections: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def groups(self) -> list[tuple[str, list[BoundField]]]:
        """The bound fields grouped under their legends, for the page."""
        if not self.sections:
            return [("Inputs", list(self))]
        return [(legend, [self[name] for name in names]) for legend, names in self.sections]

    @classmethod
    def from_query(cls, query: Mapping[str, str]) -> Self:
        data = {name: str(value) for name, value in cls.defaults.items()}
        for name in cls.base_fields:
            if name in query:
                data[name] = query.get(name, "")[:40]
        return cls(data)

    def messages(self) -> list[str]:
        """Every fault, each prefixed with its field's label: shown above the results."""
        found = []
        for name, errors in self.errors.items():
            label = self.fields[name].label if name in self.fields else None
            for error in errors:
                found.append(f"{label}: {error}" if label else str(error))
        return found


def compute_format_for(gpu: GPU, weight_format: NumberFormat) -> NumberFormat:
    """The format the matrix multiplies run in: the weights' own when the GPU has tensor cores
    for it (FP8 on Hopper, FP4 on Blackwell, INT8 everywhere), else BF16 (weight-only
    quantisation: weights are widened to 16 bits before multiplying)."""
    if weight_format.peak_field and getattr(gpu, weight_format.peak_field):
        return weight_format
    return BF16


def require_link(gpu: GPU, gpus: int) -> None:
    """Refuse a model split over several GPUs that cannot talk to each other."""
    if gpus > 1 and not gpu.interconnect_bandwidth:
        raise Impossible(
            f"The {gpu.name} has no link to other GPUs, so a model cannot be split over {gpus} "
            "of them: choose 1 GPU or another GPU."
        )


def require_weights_fit(model: Model, gpu: GPU, weight_format: NumberFormat, gpus: int) -> None:
    """Refuse weights that do not fit in the usable memory of ``gpus`` GPUs, saying by how much."""
    require_link(gpu, gpus)
    if fits_on_gpus(model, gpu, weight_format, gpus=gpus, usable_fraction=USABLE_FRACTION):
        return
    needed = weight_bytes(model, weight_format)
    held = usable_memory_bytes(gpu, gpus=gpus, usable_fraction=1.0)
    usable = usable_memory_bytes(gpu, gpus=gpus, usable_fraction=USABLE_FRACTION)
    raise Impossible(
        f"{model.name} in {weight_format.name} needs {bytes_text(needed)} for its weights; "
        f"{gpus} × {gpu.name} hold {bytes_text(held)}, {bytes_text(usable)} of it usable "
        f"({percent_text(USABLE_FRACTION)}). Choose more GPUs, a bigger GPU or fewer bits."
    )
