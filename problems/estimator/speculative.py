"""Speculative decoding: expected tokens per target step, speedup, break-even, large batches.

A cheap draft model proposes γ tokens; the target model verifies them in one forward pass and
keeps the longest accepted prefix plus one token of its own. With each draft token accepted
independently with probability α, the expected tokens per target pass are

    E = 1 + α + α² + … + α^γ = (1 − α^(γ+1)) / (1 − α)          (γ + 1 at α = 1),

the bonus token included. If a draft step costs c target steps, the walltime speedup is
E / (γc + 1). It can never exceed (γ + 1)/(γc + 1), nor 1/((1 − α)(γc + 1)).

That formula assumes verifying γ + 1 tokens costs one target step, true while decode is
memory-bound: the weights are read once whatever the tokens. At a large batch the target step is
compute-bound, verification costs up to γ + 1 times a normal step, the draft's cost is no longer
hidden, and speculation slows decoding down. :func:`speculative_speedup_at_batch` computes this
from the roofline.

Reference
---------
Y. Leviathan, M. Kalman, Y. Matias, "Fast Inference from Transformers via Speculative Decoding",
ICML 2023 (arXiv 2211.17192), equation (1) and Theorem 3.8. α = 0.8, γ = 4: E = 3.3616; speedup
2.80 at c = 0.05.
"""

import numpy as np

from . import _special
from . import _validate as check
from .catalogue import FORMATS, GPU, Model, NumberFormat
from .latency import decode_step_time
from .memory import kv_cache_bytes_per_gpu
from .parallelism import tensor_parallel_allreduce_time
from .roofline import decode_flops, decode_weight_bytes, peak_flops

BF16 = FORMATS["bf16"]
_MAX_DRAFT = 1024
# Newton converges in under 10 steps for usual γ and c; near c = 1 the two roots of F merge and
# it slows to halving the error per step, which 200 steps cover.
_NEWTON_STEPS = 200
_UNCHECKED_STEPS = 3


def _expected(alpha, gamma):
    """E for validated inputs; the α = 1 limit handled without dividing by zero."""
    if check.is_scalar(alpha, gamma):
        return gamma + 1.0 if alpha == 1 else (1 - alpha ** (gamma + 1)) / (1 - alpha)
    alpha = np.asarray(alpha, dtype=float)
    one = alpha == 1
    safe = np.where(one, 0.5, alpha)
    return np.where(one, gamma + 1.0, (1 - safe ** (gamma + 1)) / (1 - safe))


def speculative_expected_tokens(acceptance_rate, draft_tokens):
    """Expected tokens produced per target-model pass in speculative decoding.

    Parameters
    ----------
    acceptance_rate : number or array
        Probability α that each draft token is accepted [1].
    draft_tokens : int or array
        Draft tokens proposed per pass, γ.

    Returns
    -------
    Tokens [tokens] = (1 − α^(γ+1)) / (1 − α), the bonus token included; γ + 1 when α = 1.
    """
    check.fraction("acceptance_rate", acceptance_rate)
    check.positive_integer("draft_tokens", draft_tokens, _MAX_DRAFT)
    return _expected(acceptance_rate, draft_tokens)


def speculative_speedup(acceptance_rate, draft_tokens, cost_ratio):
    """Walltime speedup of speculative decoding over plain decoding (memory-bound target).

    Parameters
    ----------
    acceptance_rate : number or array
        Per-token acceptance probability α [1].
    draft_tokens : int or array
        Draft tokens per pass, γ.
    cost_ratio : number or array
        Time of one draft step over one target step, c [1].

    Returns
    -------
    Speedup [1] = E / (γ c + 1).
    """
    expected = speculative_expected_tokens(acceptance_rate, draft_tokens)
    check.non_negative("cost_ratio", cost_ratio, check.MAX_FACTOR)
    return expected / (draft_tokens * cost_ratio + 1)


def speculative_break_even_acceptance(draft_tokens, cost_ratio):
    """Acceptance rate below which speculative decoding is slower than plain decoding.

    Parameters
    ----------
    draft_tokens : int or array
        Draft tokens per pass, γ.
    cost_ratio : number or array
        Draft step time over target step time, c, below 1 (at c ≥ 1 no acceptance rate pays).

    Returns
    -------
    Acceptance rate [1]: the α in [0, 1) where (1 − α^(γ+1))/(1 − α) = γc + 1.

    Notes
    -----
    Solved as F(α) = 1 − α^(γ+1) − T(1 − α) = 0 with T = γc + 1 by Newton's method from α = 0:
    F is concave with F(0) ≤ 0 and rises up to the root, so the iterates increase monotonically
    to it (F's other root, α = 1, is never reached).
    """
    check.positive_integer("draft_tokens", draft_tokens, _MAX_DRAFT)
    check.non_negative("cost_ratio", cost_ratio, check.MAX_FACTOR)
    if check.any_true(cost_ratio >= 1):
        check.refuse(
            "cost_ratio", "must be below 1: a draft as slow as the target never pays", cost_ratio
        )
    target = draft_tokens * cost_ratio + 1
    exponent = draft_tokens + 1.0
    # The first Newton step from α = 0 lands on 1 − 1/T, a lower bound of the root.
    alpha = 1 - 1 / target
    if check.is_scalar(draft_tokens, cost_ratio):
        for _ in range(_NEWTON_STEPS):
            power = alpha**draft_tokens
            step = (1 - target + alpha * (target - power)) / (target - exponent * power)
            alpha -= step
            if abs(step) <= 1e-15:
                break
        return alpha
    return _special.blockwise(_break_even_block, draft_tokens, cost_ratio)


def _break_even_block(draft_tokens, cost_ratio):
    """The Newton iteration of speculative_break_even_acceptance on one block of arrays."""
    target = draft_tokens * cost_ratio + 1.0
    exponent = draft_tokens + 1.0
    offset = 1 - target
    alpha = 1 - 1 / target
    for iteration in range(_NEWTON_STEPS):  # the scalar loop's step, in place
        power = alpha**draft_tokens
        slope = exponent * power
        np.subtract(target, slope, out=slope)
        np.subtract(target, power, out=power)
        power *= alpha
        power += offset
        power /= slope
        alpha -= power
        # Newton needs a few steps from 1 − 1/T whatever the block; a step at the root is 0.
        if iteration >= _UNCHECKED_STEPS and np.max(np.abs(power, out=power), initial=0) <= 1e-15:
            break
    return alpha


def speculative_speedup_with_costs(
    acceptance_rate, draft_tokens, draft_step_time, verify_step_time, target_step_time
):
    """Speedup of speculative decoding from measured or modelled step times.

    Parameters
    ----------
    acceptance_rate : number or array
        Per-token acceptance probability α [1].
    draft_tokens : int or array
        Draft tokens per pass, γ.
    draft_step_time : number or array
        One draft-model decode step [s].
    verify_step_time : number or array
        One target pass over γ + 1 tokens per sequence [s].
    target_step_time : number or array
        One plain target decode step [s].

    Returns
    -------
    Speedup [1] = E × target step / (γ × draft step + verify step).
    """
    expected = speculative_expected_tokens(acceptance_rate, draft_tokens)
    check.positive("draft_step_time", draft_step_time, check.MAX_SECONDS)
    check.positive("verify_step_time", verify_step_time, check.MAX_SECONDS)
    check.positive("target_step_time", target_step_time, check.MAX_SECONDS)
    cycle = draft_tokens * draft_step_time + verify_step_time
    return expected * target_step_time / cycle


def speculative_verify_step_time(
    target_model,
    gpu,
    weight_format,
    kv_format,
    batch_size,
    context_tokens,
    draft_tokens,
    tensor_parallel=1,
    compute_format=BF16,
    other_format=None,
):
    """Roofline time of a target pass verifying γ draft tokens (plus one) for every sequence.

    Parameters
    ----------
    target_model : Model
    gpu : GPU
    weight_format, kv_format : NumberFormat
    batch_size : number or array
        Sequences decoding together, B [sequences].
    context_tokens : number or array
        Tokens cached per sequence [tokens].
    draft_tokens : int or array
        Draft tokens per sequence, γ.
    tensor_parallel : int or array, default 1
    compute_format : NumberFormat, default bf16
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts (gpt-oss: bf16 around MXFP4 experts);
        default: ``weight_format``.

    Returns
    -------
    Time [s] = max((weights for B(γ + 1) tokens / p + KV of B sequences per GPU) / bandwidth,
    FLOPs of B(γ + 1) tokens / (peak × p)) + all-reduces of B(γ + 1) tokens. The KV cache is
    read once per sequence, the weights once; only the compute grows with γ.
    """
    check.entry("target_model", target_model, Model, "MODELS")
    check.entry("gpu", gpu, GPU, "GPUS")
    check.entry("weight_format", weight_format, NumberFormat, "FORMATS")
    check.entry("kv_format", kv_format, NumberFormat, "FORMATS")
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    check.positive("context_tokens", context_tokens, check.MAX_TOKENS)
    check.positive_integer("draft_tokens", draft_tokens, _MAX_DRAFT)
    check.positive_integer("tensor_parallel", tensor_parallel, check.MAX_DEVICES)
    peak = peak_flops(gpu, compute_format)
    tokens = batch_size * (draft_tokens + 1)
    weights = decode_weight_bytes(target_model, weight_format, tokens, other_format)
    weights = weights / tensor_parallel
    kv = kv_cache_bytes_per_gpu(
        target_model, kv_format, context_tokens, batch_size, tensor_parallel
    )
    memory = (weights + kv) / gpu.hbm_bandwidth
    compute = decode_flops(target_model, tokens, context_tokens) / (peak * tensor_parallel)
    communication = tensor_parallel_allreduce_time(target_model, gpu, tokens, tensor_parallel)
    return np.maximum(memory, compute) + communication


def speculative_speedup_at_batch(
    target_model,
    draft_model,
    gpu,
    weight_format,
    kv_format,
    batch_size,
    context_tokens,
    acceptance_rate,
    draft_tokens,
    tensor_parallel=1,
    compute_format=BF16,
    other_format=None,
):
    """Speculative decoding speedup at a given batch size, from the roofline of both models.

    Parameters
    ----------
    target_model, draft_model : Model
        E.g. Llama-3-70B verified, Llama-3-8B drafting.
    gpu : GPU
    weight_format, kv_format : NumberFormat
        Used for both models.
    batch_size : number or array
        Sequences decoding together, B [sequences].
    context_tokens : number or array
        Tokens cached per sequence [tokens].
    acceptance_rate : number or array
        Per-token acceptance probability α [1].
    draft_tokens : int or array
        Draft tokens per pass, γ.
    tensor_parallel : int or array, default 1
        Tensor parallelism of the target; the draft runs on one GPU.
    compute_format : NumberFormat, default bf16
    other_format : NumberFormat, optional
        Format of the weights outside the routed experts, for both models (a dense draft is
        then entirely in it, as :func:`memory.weight_bytes_mixed` counts a dense model);
        default: ``weight_format``.

    Returns
    -------
    Speedup [1] = E × target step / (γ × draft step + verify step), all at batch B. Near
    E / (γc + 1) at small batch; below 1 once the target is compute-bound and verification
    costs about γ + 1 steps.
    """
    check.entry("draft_model", draft_model, Model, "MODELS")
    check.fraction("acceptance_rate", acceptance_rate)
    verify = speculative_verify_step_time(
        target_model,
        gpu,
        weight_format,
        kv_format,
        batch_size,
        context_tokens,
        draft_tokens,
        tensor_parallel,
        compute_format,
        other_format,
    )
    target = decode_step_time(
        target_model,
        gpu,
        weight_format,
        kv_format,
        batch_size,
        context_tokens,
        tensor_parallel,
        compute_format,
        other_format=other_format,
    )
    draft = decode_step_time(
        draft_model,
        gpu,
        weight_format,
        kv_format,
        batch_size,
        context_tokens,
        1,
        compute_format,
        other_format=other_format,
    )
    expected = _expected(acceptance_rate, draft_tokens)
    return expected * target / (draft_tokens * draft + verify)
