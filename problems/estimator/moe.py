"""Mixture of experts: how many distinct experts a batch of tokens touches.

A decode step reads the weights of every expert that at least one token in the batch is routed
to. With E experts, top-k routing and B tokens routed independently and uniformly, an expert is
missed by one token with probability 1 − k/E, so it is touched with probability
1 − (1 − k/E)^B and the expected number touched per MoE layer is E · (1 − (1 − k/E)^B).

At B = 1 this is exactly k; it approaches E as B grows (Mixtral, top-2 of 8: 3.5 experts at
B = 2, 7.9 at B = 16). Reading all E experts at batch 1, or only k at batch 64, are both wrong.

Reference
---------
The occupancy (balls-in-bins) expectation; uniform routing is an assumption (real routers are
skewed, which touches fewer distinct experts).
"""

from . import _validate as check
from .catalogue import Model


def expected_distinct_experts(experts, experts_per_token, tokens):
    """Expected distinct experts per MoE layer that a batch of tokens is routed to.

    Parameters
    ----------
    experts : int or array
        Routed experts per layer, E.
    experts_per_token : int or array
        Experts each token is sent to, k (1 ≤ k ≤ E).
    tokens : number or array
        Tokens routed in the step (the decode batch size), B.

    Returns
    -------
    Distinct experts [experts] = E · (1 − (1 − k/E)^B).
    """
    check.positive_integer("experts", experts, 1e6)
    check.positive_integer("experts_per_token", experts_per_token, 1e6)
    check.positive("tokens", tokens, check.MAX_TOKENS)
    if check.any_true(experts_per_token > experts):
        check.refuse("experts_per_token", "must not exceed experts", experts_per_token)
    return experts * (1 - (1 - experts_per_token / experts) ** tokens)


def model_distinct_experts(model, tokens):
    """Expected distinct routed experts per MoE layer for a model and a batch of tokens.

    Parameters
    ----------
    model : Model
        A mixture-of-experts model (``experts > 0``).
    tokens : number or array
        Tokens routed in the step [tokens].

    Returns
    -------
    Distinct experts [experts], see :func:`expected_distinct_experts`. Shared experts are always
    read and are not included.
    """
    check.entry("model", model, Model, "MODELS")
    if not model.experts:
        raise ValueError(f"model must be a mixture of experts, got dense {model.name}")
    return expected_distinct_experts(model.experts, model.experts_per_token, tokens)
