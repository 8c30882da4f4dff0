"""Page 09: how long a canary must run, and the headroom that covers a cold start.

Canary: requests per group to tell two error rates apart
(:func:`rollout.canary_sample_size_proportions`, the pooled two-proportion z-test) and the time
to collect them at a traffic share (:func:`rollout.canary_collection_time`). Autoscaling: the
cold start of a replica (:func:`autoscaling.cold_start_time`: weights over the load bandwidth,
then initialisation) and the replicas to keep spare while demand ramps during detection plus
cold start (:func:`autoscaling.headroom_replicas`).
"""

from collections.abc import Mapping
from typing import Any

from django import forms

from problems.estimator.autoscaling import cold_start_time, headroom_replicas
from problems.estimator.memory import weight_bytes
from problems.estimator.rollout import canary_collection_time, canary_sample_size_proportions

from ._common import DemoForm, format_field, model_field, number_field
from ._display import show

TAILS = [(2, "Two-sided: any change"), (1, "One-sided: only a regression")]


class Form(DemoForm):
    baseline_percent = number_field("Error rate now [%]", 0.001, 99.999, step="0.001")
    canary_percent = number_field(
        "Error rate to catch in the canary [%]", 0.001, 99.999, step="0.001"
    )
    significance = number_field("False-alarm probability α", 0.0001, 0.5, step="0.001")
    power = number_field("Chance to catch a real regression (power)", 0.5, 0.9999, step="0.01")
    tails = forms.TypedChoiceField(label="Test", choices=TAILS, coerce=int)
    traffic = number_field("Traffic [requests/s]", 0.001, 1_000_000)
    canary_share_percent = number_field("Share sent to the canary [%]", 0.01, 99.99, step="0.01")
    model = model_field()
    weight_format = format_field("Weights stored in")
    load_gbps = number_field(
        "Weight loading bandwidth [GB/s]",
        0.01,
        1000,
        "Network storage at 100 Gb/s: 12.5; a local NVMe drive: 3–7; host memory over PCIe 5: ~50.",
    )
    init_s = number_field("Engine start-up after loading [s]", 0, 3600)
    detect_s = number_field("Time to notice the load and decide [s]", 0, 3600)
    ramp = number_field("Load growth [requests/s per second]", 0, 10_000, step="0.01")
    replica_rate = number_field("Requests/s one replica serves", 0.001, 1_000_000)

    sections = (
        (
            "Canary",
            (
                "baseline_percent",
                "canary_percent",
                "significance",
                "power",
                "tails",
                "traffic",
                "canary_share_percent",
            ),
        ),
        (
            "Autoscaling",
            ("model", "weight_format", "load_gbps", "init_s", "detect_s", "ramp", "replica_rate"),
        ),
    )
    defaults = {
        "baseline_percent": 1.0,
        "canary_percent": 2.0,
        "significance": 0.05,
        "power": 0.8,
        "tails": 2,
        "traffic": 50,
        "canary_share_percent": 5,
        "model": "llama-3-70b",
        "weight_format": "bf16",
        "load_gbps": 12.5,
        "init_s": 60,
        "detect_s": 30,
        "ramp": 0.2,
        "replica_rate": 5,
    }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        before, after = data.get("baseline_percent"), data.get("canary_percent")
        if before is not None and before == after:
            raise forms.ValidationError(
                "The error rate to catch must differ from today's: a canary cannot detect no "
                "change."
            )
        return data


def compute(data: Mapping[str, Any]) -> dict[str, Any]:
    baseline, canary = data["baseline_percent"] / 100, data["canary_percent"] / 100
    share = data["canary_share_percent"] / 100
    samples = canary_sample_size_proportions(
        baseline, canary, data["significance"], data["power"], data["tails"]
    )
    duration = canary_collection_time(samples, data["traffic"], share)
    model, weights = data["model"], data["weight_format"]
    cold = cold_start_time(model, weights, data["load_gbps"] * 1e9, data["init_s"])
    provisioning = data["detect_s"] + cold
    spare = headroom_replicas(data["ramp"], provisioning, data["replica_rate"])
    return {
        "samples": show("samples_per_group", samples, "count", " requests"),
        "duration": show("canary_duration", duration, "seconds"),
        "weights": show("weights", weight_bytes(model, weights), "bytes"),
        "cold_start": show("cold_start", cold, "seconds"),
        "provisioning": show("provisioning", provisioning, "seconds"),
        "growth": show("growth", data["ramp"] * provisioning, "number", " requests/s"),
        "headroom": show("headroom_replicas", spare, "count"),
        "one_sided": data["tails"] == 1,
    }
