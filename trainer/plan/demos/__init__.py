"""The ten interactive demos of the course's pages, one module each, backed by the estimator.

``run(key, query) -> dict`` binds a demo's form to a request's query (defaults fill the rest),
validates it and computes the demo. The result is the template context of the demo's partial:

- ``form``: the bound form (its fields carry the learner's values back into the page);
- ``errors``: messages for inputs that are not valid (each names its field);
- ``impossible``: why a valid-looking configuration cannot work (a model that does not fit),
  from the demo or from the estimator's own refusal;
- ``result``: the numbers, tables and charts, when there is nothing to refuse.

Nothing here touches the database: a demo update costs no query.
"""

from collections.abc import Mapping
from typing import Any

from . import (
    batching,
    canary_autoscale,
    cost_metrics,
    gpu_formats,
    kv_cache,
    moe_capacity,
    prefix_cache,
    roofline,
    speculative,
    ttft_robot,
)

MODULES = {
    "ttft_robot": ttft_robot,
    "kv_cache": kv_cache,
    "batching": batching,
    "prefix_cache": prefix_cache,
    "speculative": speculative,
    "gpu_formats": gpu_formats,
    "roofline": roofline,
    "cost_metrics": cost_metrics,
    "canary_autoscale": canary_autoscale,
    "moe_capacity": moe_capacity,
}


def run(key: str, query: Mapping[str, str]) -> dict[str, Any]:
    """Validate a demo's inputs from a query (a QueryDict or a dict) and compute it."""
    module = MODULES[key]
    form = module.Form.from_query(query)
    context: dict[str, Any] = {
        "demo": key,
        "form": form,
        "errors": [],
        "impossible": None,
        "result": None,
    }
    if not form.is_valid():
        context["errors"] = form.messages()
        return context
    try:
        context["result"] = module.compute(form.cleaned_data)
    except ValueError as error:
        # The estimator checks every argument and says which is wrong and why.
        context["impossible"] = str(error)
    return context
