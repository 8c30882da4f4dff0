"""Parallelism: tensor-parallel all-reduce, pipeline bubble, expert-parallel memory and all-to-all.

Tensor parallelism (Megatron-LM) splits every layer over p GPUs and all-reduces the activations
twice per layer (after attention and after the MLP). A ring all-reduce of S bytes makes each GPU
send, and receive, 2(p − 1)/p · S bytes, at the link's one-direction bandwidth.

Pipeline parallelism splits the layers into p stages; with m micro-batches the schedule idles
for p − 1 micro-batch slots at fill and drain. Two conventions are in use, both here under their
own names: the bubble as a share of the total time, (p − 1)/(m + p − 1), and Megatron-LM's bubble
over the ideal time, (p − 1)/m.

Expert parallelism places the routed experts of each MoE layer on different GPUs and sends each
token's hidden state to the GPUs of its top-k experts and back (all-to-all dispatch and combine).

References
----------
Shoeybi et al., "Megatron-LM", arXiv 1909.08053 (two all-reduces per layer); Patarasuk and Yuan,
"Bandwidth optimal all-reduce algorithms", JPDC 2009 (ring all-reduce 2(p − 1)/p); Narayanan et
al., "Efficient Large-Scale Language Model Training on GPU Clusters Using Megatron-LM", SC 2021,
section 2.2 (bubble (p − 1)/m over ideal time); Huang et al., "GPipe", arXiv 1811.06965 (bubble
(p − 1)/(m + p − 1)); Lepikhin et al., "GShard", arXiv 2006.16668 (expert all-to-all).
"""

import numpy as np

from . import _validate as check
from .catalogue import FORMATS, GPU, Model, NumberFormat

BF16 = FORMATS["bf16"]


def _model(value):
    return check.entry("model", value, Model, "MODELS")


def _format(name, value):
    return check.entry(name, value, NumberFormat, "FORMATS")


def _moe_model(value):
    _model(value)
    if not value.experts:
        raise ValueError(f"model must be a mixture of experts, got dense {value.name}")
    return value


def ring_allreduce_bytes(message_bytes, gpus):
    """Bytes each GPU sends (and receives) in a ring all-reduce of one message.

    Parameters
    ----------
    message_bytes : number or array
        Size of the tensor being all-reduced [bytes].
    gpus : int or array
        GPUs in the ring, p.

    Returns
    -------
    Bytes per GPU [bytes] = 2 (p − 1) / p × message bytes (reduce-scatter then all-gather); 0 for
    a single GPU.
    """
    check.positive("message_bytes", message_bytes, check.MAX_BYTES)
    check.positive_integer("gpus", gpus, check.MAX_DEVICES)
    return 2 * (gpus - 1) / gpus * message_bytes


def tensor_parallel_allreduce_bytes(model, tokens, tensor_parallel, activation_format=BF16):
    """Bytes each GPU sends for the tensor-parallel all-reduces of a forward pass.

    Parameters
    ----------
    model : Model
    tokens : number or array
        Tokens in the forward pass (1 per sequence in a decode step; the prompt in prefill)
        [tokens]. Use 1 for the per-token figure.
    tensor_parallel : int or array
        Tensor-parallel degree, p.
    activation_format : NumberFormat, default bf16
        Format of the all-reduced activations.

    Returns
    -------
    Bytes per GPU [bytes] = layers × 2 all-reduces × 2 (p − 1)/p × tokens × hidden × bytes per
    element.
    """
    _model(model)
    check.positive("tokens", tokens, check.MAX_TOKENS)
    check.positive_integer("tensor_parallel", tensor_parallel, check.MAX_DEVICES)
    _format("activation_format", activation_format)
    message = tokens * model.hidden_size * activation_format.bytes_per_element
    return model.layers * 2 * 2 * (tensor_parallel - 1) / tensor_parallel * message


def collective_bandwidth_per_direction(gpu, gpus):
    """One-direction link bandwidth a GPU has for a collective among ``gpus`` GPUs of a node.

    Parameters
    ----------
    gpu : GPU
    gpus : int or array
        GPUs taking part, p (2 to 8 within a node).

    Returns
    -------
    Bandwidth [B/s]. Behind a switch (NVSwitch) any group gets the datasheet figure's one
    direction, half of ``interconnect_bandwidth``. A GPU with one dedicated link per peer and no
    switch (MI300X: 7 links of 128 GB/s) uses only the p − 1 links to the others: a pair shares
    one link, 64 GB/s each way, and only all 8 GPUs reach the 448 GB/s of the sum. 0 for p = 1.
    """
    check.entry("gpu", gpu, GPU, "GPUS")
    check.positive_integer("gpus", gpus, check.MAX_DEVICES)
    per_direction = gpu.interconnect_bandwidth_per_direction
    links = gpu.interconnect_links
    if check.is_scalar(gpus):
        if gpus == 1:
            return 0.0
        return per_direction * (min(gpus - 1, links) / links if links else 1.0)
    share = np.minimum(gpus - 1, links) / links if links else np.ones(np.shape(gpus))
    return np.where(gpus > 1, per_direction * share, 0.0)


def tensor_parallel_allreduce_time(
    model, gpu, tokens, tensor_parallel, activation_format=BF16, allreduce_latency=0.0
):
    """Time of the tensor-parallel all-reduces of a forward pass over the GPUs' link.

    Parameters
    ----------
    model : Model
    gpu : GPU
        Its one-direction link bandwidth for p GPUs is used
        (:func:`collective_bandwidth_per_direction`: half the datasheet's bidirectional figure
        behind a switch, only the p − 1 peer links of a GPU without one).
    tokens : number or array
        Tokens in the forward pass [tokens].
    tensor_parallel : int or array
        Tensor-parallel degree, p.
    activation_format : NumberFormat, default bf16
    allreduce_latency : number or array, default 0
        Fixed cost of one all-reduce [s] (launch and synchronisation, a few µs on NVLink); it
        dominates decode at small batch, so set it to see that effect.

    Returns
    -------
    Time [s] = all-reduce bytes / one-direction bandwidth + 2 × layers × latency, and 0 for p = 1.
    Assumes no overlap with compute.
    """
    check.entry("gpu", gpu, GPU, "GPUS")
    check.non_negative("allreduce_latency", allreduce_latency, 1.0)
    sent = tensor_parallel_allreduce_bytes(model, tokens, tensor_parallel, activation_format)
    if check.any_true(tensor_parallel > 1) and not gpu.interconnect_bandwidth:
        message = f"must be 1 on the {gpu.name}, which has no GPU link"
        check.refuse("tensor_parallel", message, tensor_parallel)
    if not gpu.interconnect_bandwidth:
        return sent * 0.0
    fixed = (tensor_parallel > 1) * (2 * model.layers * allreduce_latency)
    bandwidth = collective_bandwidth_per_direction(gpu, tensor_parallel)
    return sent / np.maximum(bandwidth, 1.0) + fixed


def pipeline_bubble_fraction(stages, microbatches):
    """Pipeline bubble as a share of the total time (GPipe convention).

    Parameters
    ----------
    stages : int or array
        Pipeline stages, p.
    microbatches : int or array
        Micro-batches per batch, m.

    Returns
    -------
    Idle share [1] = (p − 1) / (m + p − 1).
    """
    check.positive_integer("stages", stages, check.MAX_DEVICES)
    check.positive_integer("microbatches", microbatches, check.MAX_COUNT)
    return (stages - 1) / (microbatches + stages - 1)


def pipeline_bubble_over_ideal(stages, microbatches):
    """Pipeline bubble relative to the ideal (bubble-free) time (Megatron-LM convention).

    Parameters
    ----------
    stages : int or array
        Pipeline stages, p.
    microbatches : int or array
        Micro-batches per batch, m.

    Returns
    -------
    Bubble over ideal time [1] = (p − 1) / m; f over ideal equals f/(1 + f) of the total.
    """
    check.positive_integer("stages", stages, check.MAX_DEVICES)
    check.positive_integer("microbatches", microbatches, check.MAX_COUNT)
    return (stages - 1) / microbatches


def expert_parallel_weight_bytes_per_gpu(model, weight_format, expert_parallel):
    """Weights on the fullest GPU when routed experts are spread over expert-parallel GPUs.

    Parameters
    ----------
    model : Model
        A mixture of experts.
    weight_format : NumberFormat
    expert_parallel : int or array
        GPUs the routed experts are spread over (each MoE layer split the same way).

    Returns
    -------
    Bytes [bytes] = (everything but the routed experts) + ceil(E / EP) / E × routed experts, all
    × bytes per element.

    Notes
    -----
    Attention, dense layers, shared experts and embeddings are replicated on every GPU (the
    data-parallel attention + expert-parallel MoE layout of DeepSeek-V3 serving); a GPU holds
    whole experts, so an uneven split leaves some GPUs one expert heavier.
    """
    _moe_model(model)
    _format("weight_format", weight_format)
    check.positive_integer("expert_parallel", expert_parallel, check.MAX_DEVICES)
    if check.any_true(expert_parallel > model.experts):
        check.refuse("expert_parallel", "must not exceed the model's experts", expert_parallel)
    replicated = model.total_params - model.routed_expert_params
    share = np.ceil(model.experts / expert_parallel) / model.experts
    return (replicated + share * model.routed_expert_params) * weight_format.bytes_per_element


def all_to_all_bytes_per_token(model, expert_parallel, activation_format=BF16):
    """Bytes one token sends to other GPUs for expert-parallel dispatch and combine.

    Parameters
    ----------
    model : Model
        A mixture of experts.
    expert_parallel : int or array
        GPUs the experts are spread over, EP.
    activation_format : NumberFormat, default bf16
        Format of the hidden states sent (DeepSeek-V3 dispatches in FP8 and combines in BF16).

    Returns
    -------
    Bytes per token [bytes] = MoE layers × 2 (dispatch and combine) × top-k × hidden × bytes per
    element × (EP − 1)/EP, the share of experts expected on other GPUs under uniform routing.

    Notes
    -----
    Counts one copy per selected expert; dispatchers that send one copy per destination GPU
    (DeepEP with node-limited routing) move less.
    """
    _moe_model(model)
    check.positive_integer("expert_parallel", expert_parallel, check.MAX_DEVICES)
    _format("activation_format", activation_format)
    per_layer = 2 * model.experts_per_token * model.hidden_size
    remote = (expert_parallel - 1) / expert_parallel
    return model.moe_layers * per_layer * activation_format.bytes_per_element * remote
