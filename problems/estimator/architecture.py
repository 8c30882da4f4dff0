"""Parameter counts computed from a transformer's architecture (its config.json).

The catalogue derives every model's total and active parameters from these functions instead of
copying the published figure, and the tests compare the two: a wrong layer count, a forgotten
shared expert or a tied embedding shows up as a mismatch.

Conventions, the same for every model:

- Linear layers are counted as ``inputs × outputs`` weights (plus ``outputs`` when the config
  says the layer has a bias).
- Gated MLPs (SwiGLU) have three matrices: gate and up (hidden → width) and down (width → hidden).
- Each decoder layer has two RMSNorm weight vectors (before attention and before the MLP), and
  the model one final norm; MLA adds the norms of its two low-rank latents, Qwen3 the per-head
  query and key norms.
- ``embedding_params`` is the input embedding table (``vocab × hidden``). An untied LM head adds
  another ``vocab × hidden``; a tied head reuses the table.
- Active parameters are those a token's forward pass uses: everything except the routed experts
  it is not sent to. The input embedding table counts as active (the convention of the Mixtral,
  Qwen3 and DeepSeek-V3 reports); OpenAI's gpt-oss model card instead leaves the input embedding
  out of its "active" figure.

References
----------
Meta Llama 3 / 3.1, Mistral Mixtral-8x7B-v0.1, Qwen3-235B-A22B, DeepSeek-V3 and openai/gpt-oss-120b
config.json files and modelling code on Hugging Face; DeepSeek-AI, "DeepSeek-V2" (arXiv 2405.04434)
section 2.1 for the MLA projections.
"""


def uses_mla(model):
    """True when the model caches a compressed latent (multi-head latent attention)."""
    return model.kv_lora_rank > 0


def attention_params(model):
    """Weights of one attention block [parameters]: projections, biases, norms and sinks."""
    hidden = model.hidden_size
    heads = model.attention_heads
    if uses_mla(model):
        qk_dim = model.qk_nope_head_dim + model.qk_rope_head_dim
        if model.q_lora_rank:
            # q_a_proj, its norm, then q_b_proj up to every head's query.
            query = hidden * model.q_lora_rank + model.q_lora_rank
            query += model.q_lora_rank * heads * qk_dim
        else:
            query = hidden * heads * qk_dim
        # kv_a_proj_with_mqa emits the latent and the shared rope key; kv_b_proj expands the
        # latent to every head's no-rope key and value.
        key_value = hidden * (model.kv_lora_rank + model.qk_rope_head_dim) + model.kv_lora_rank
        key_value += model.kv_lora_rank * heads * (model.qk_nope_head_dim + model.v_head_dim)
        output = heads * model.v_head_dim * hidden
        total = query + key_value + output
    else:
        query_width = heads * model.head_dim
        kv_width = model.kv_heads * model.head_dim
        total = hidden * query_width + 2 * hidden * kv_width + query_width * hidden
        if model.attention_bias:
            total += query_width + 2 * kv_width + hidden
        if model.qk_norm:
            total += 2 * model.head_dim
    if model.attention_sinks:
        total += heads  # one learned logit per head
    return total


def gated_mlp_params(hidden_size, width):
    """Weights of one SwiGLU MLP [parameters]: gate, up and down projections."""
    return 3 * hidden_size * width


def params_per_expert(model):
    """Weights of one routed (or shared) expert [parameters], biases included if it has them."""
    if not model.experts:
        return 0
    total = gated_mlp_params(model.hidden_size, model.moe_intermediate_size)
    if model.expert_bias:
        total += 2 * model.moe_intermediate_size + model.hidden_size
    return total


def router_params(model):
    """Weights of one MoE router [parameters]: a hidden → experts projection (and its bias)."""
    return model.hidden_size * model.experts + (model.experts if model.router_bias else 0)


def moe_layers(model):
    """Number of decoder layers whose MLP is a mixture of experts."""
    return model.layers - model.dense_layers if model.experts else 0


def embedding_params(model):
    """The input embedding table [parameters]: vocabulary × hidden size."""
    return model.vocab_size * model.hidden_size


def total_params(model):
    """Every stored parameter of the model [parameters]."""
    layer_norms = 2 * model.hidden_size
    per_layer_common = attention_params(model) + layer_norms
    dense = model.dense_layers * gated_mlp_params(model.hidden_size, model.intermediate_size)
    experts_per_layer = (model.experts + model.shared_experts) * params_per_expert(model)
    moe = moe_layers(model) * (experts_per_layer + router_params(model))
    head = 0 if model.tie_word_embeddings else embedding_params(model)
    final_norm = model.hidden_size
    return (
        model.layers * per_layer_common + dense + moe + embedding_params(model) + head + final_norm
    )


def routed_expert_params(model):
    """All routed experts of all MoE layers [parameters] (shared experts excluded)."""
    return moe_layers(model) * model.experts * params_per_expert(model)


def active_params(model):
    """Parameters one token uses [parameters]: all but the routed experts it is not sent to."""
    unused = model.experts - model.experts_per_token
    return total_params(model) - moe_layers(model) * unused * params_per_expert(model)
