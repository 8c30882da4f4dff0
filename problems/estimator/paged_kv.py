"""Paged KV cache: blocks, internal fragmentation, the waste of contiguous max-length reservation.

A paged cache (vLLM's PagedAttention) allocates fixed-size blocks of ``block_size`` tokens as a
sequence grows, so only the last block of each sequence is partly empty. A contiguous allocator
reserves the maximum length up front, wasting everything the sequence never uses.

Units: tokens (multiply by :func:`memory.kv_bytes_per_token` for bytes).

Reference
---------
W. Kwon et al., "Efficient Memory Management for Large Language Model Serving with
PagedAttention", SOSP 2023 (arXiv 2309.06180): 60-80 % of KV memory wasted by contiguous
reservation in earlier systems, under 4 % with paging; block size 16 by default.
"""

import numpy as np

from . import _validate as check


def _block_size(value):
    return check.positive_integer("block_size", value, 1e6)


def kv_blocks(tokens, block_size):
    """Blocks a sequence of a given length occupies in a paged KV cache.

    Parameters
    ----------
    tokens : number or array
        Tokens in the sequence [tokens].
    block_size : int or array
        Tokens per block [tokens/block] (vLLM default 16).

    Returns
    -------
    Blocks [blocks] = ceil(tokens / block size).
    """
    check.positive("tokens", tokens, check.MAX_TOKENS)
    _block_size(block_size)
    return np.ceil(tokens / block_size)


def paged_waste_tokens(tokens, block_size):
    """Empty slots in the last, partly filled block of a sequence (internal fragmentation).

    Parameters
    ----------
    tokens : number or array
        Tokens in the sequence [tokens].
    block_size : int or array
        Tokens per block [tokens/block].

    Returns
    -------
    Wasted slots [tokens] = blocks × block size − tokens, from 0 to block size − 1.
    """
    return kv_blocks(tokens, block_size) * block_size - tokens


def paged_fragmentation(tokens, block_size):
    """Share of a sequence's allocated KV slots that stay empty in a paged cache.

    Parameters
    ----------
    tokens : number or array
        Tokens in the sequence [tokens].
    block_size : int or array
        Tokens per block [tokens/block].

    Returns
    -------
    Wasted fraction [1] = wasted slots / (blocks × block size).
    """
    allocated = kv_blocks(tokens, block_size) * block_size
    return (allocated - tokens) / allocated


def expected_paged_waste_tokens(block_size):
    """Average empty slots per sequence in a paged cache, over many sequence lengths.

    Parameters
    ----------
    block_size : int or array
        Tokens per block [tokens/block].

    Returns
    -------
    Mean waste [tokens] = (block size − 1) / 2, assuming the length modulo the block size is
    uniformly distributed (true for lengths spread over many blocks).
    """
    _block_size(block_size)
    return (block_size - 1) / 2


def contiguous_waste_fraction(max_tokens, used_tokens):
    """Share of a max-length contiguous reservation that a sequence never uses.

    Parameters
    ----------
    max_tokens : number or array
        Tokens reserved per sequence (the maximum length) [tokens].
    used_tokens : number or array
        Tokens the sequence actually reaches (or the mean over sequences) [tokens].

    Returns
    -------
    Wasted fraction [1] = 1 − used / max.
    """
    check.positive("max_tokens", max_tokens, check.MAX_TOKENS)
    check.positive("used_tokens", used_tokens, check.MAX_TOKENS)
    if check.any_true(used_tokens > max_tokens):
        check.refuse("used_tokens", "must not exceed max_tokens", used_tokens)
    return 1 - used_tokens / max_tokens


def contiguous_sequences(kv_budget_tokens, max_tokens):
    """Sequences that fit when each reserves its maximum length contiguously.

    Parameters
    ----------
    kv_budget_tokens : number or array
        KV cache capacity [tokens].
    max_tokens : number or array
        Reservation per sequence [tokens].

    Returns
    -------
    Sequences [sequences] = floor(budget / max tokens).
    """
    check.positive("kv_budget_tokens", kv_budget_tokens, check.MAX_TOKENS)
    check.positive("max_tokens", max_tokens, check.MAX_TOKENS)
    return np.floor(kv_budget_tokens / max_tokens)


def paged_sequences(kv_budget_tokens, mean_tokens, block_size):
    """Sequences that fit in a paged cache when each holds only the blocks it uses.

    Parameters
    ----------
    kv_budget_tokens : number or array
        KV cache capacity [tokens].
    mean_tokens : number or array
        Mean tokens per sequence [tokens].
    block_size : int or array
        Tokens per block [tokens/block].

    Returns
    -------
    Sequences [sequences] = floor(budget / (mean tokens + (block size − 1) / 2)), a steady-state
    average that assumes lengths spread over many blocks.
    """
    check.positive("kv_budget_tokens", kv_budget_tokens, check.MAX_TOKENS)
    check.positive("mean_tokens", mean_tokens, check.MAX_TOKENS)
    waste = expected_paged_waste_tokens(block_size)
    return np.floor(kv_budget_tokens / (mean_tokens + waste))


def paged_concurrency_gain(max_tokens, mean_tokens, block_size):
    """How many times more sequences a paged cache holds than max-length reservation.

    Parameters
    ----------
    max_tokens : number or array
        Contiguous reservation per sequence [tokens].
    mean_tokens : number or array
        Mean tokens a sequence actually uses [tokens], at most ``max_tokens``.
    block_size : int or array
        Tokens per block [tokens/block].

    Returns
    -------
    Gain [1] = max tokens / (mean tokens + (block size − 1) / 2), before rounding to whole
    sequences.
    """
    check.positive("max_tokens", max_tokens, check.MAX_TOKENS)
    check.positive("mean_tokens", mean_tokens, check.MAX_TOKENS)
    if check.any_true(mean_tokens > max_tokens):
        check.refuse("mean_tokens", "must not exceed max_tokens", mean_tokens)
    return max_tokens / (mean_tokens + expected_paged_waste_tokens(block_size))
