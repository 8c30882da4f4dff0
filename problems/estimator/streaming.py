"""Streaming over server-sent events: framing overhead, and the cost of an undetected disconnect.

An SSE event is a block of ``field: value`` lines ended by a blank line: a token streamed as
``data: <payload>\\n\\n`` carries 8 bytes of framing ("data: " and two newlines), plus
``event: <name>\\n`` (8 + name bytes) and ``id: <id>\\n`` (5 + id bytes) when those fields are
used. OpenAI-style APIs wrap each token in a JSON envelope inside ``data:``, which is usually the
bigger overhead; pass its size as ``envelope_bytes``.

If a client disconnects and the server notices only at its next check, the GPU keeps decoding that
sequence for the whole undetected interval: one slot of the batch, producing tokens nobody reads.

References
----------
WHATWG HTML Living Standard, section 9.2 "Server-sent events" (event stream format).
"""

import numpy as np

from . import _validate as check

_DATA_FRAMING = len(b"data: ") + len(b"\n\n")
_EVENT_FRAMING = len(b"event: ") + len(b"\n")
_ID_FRAMING = len(b"id: ") + len(b"\n")


def sse_framing_bytes(event_name_bytes=0, id_bytes=0):
    """Bytes of SSE syntax around one event's data (field names, colons, spaces, newlines).

    Parameters
    ----------
    event_name_bytes : number or array, default 0
        Length of the ``event:`` field's value; 0 leaves the field out [bytes].
    id_bytes : number or array, default 0
        Length of the ``id:`` field's value; 0 leaves the field out [bytes].

    Returns
    -------
    Framing [bytes] = 8 ("data: " + blank line) + (8 + name if named) + (5 + id if id'd); the
    name and id values themselves are counted as overhead too.
    """
    check.non_negative_integer("event_name_bytes", event_name_bytes, 1e6)
    check.non_negative_integer("id_bytes", id_bytes, 1e6)
    # A boolean factor keeps an absent field's framing out without a per-element branch.
    named = (event_name_bytes > 0) * (_EVENT_FRAMING + event_name_bytes)
    identified = (id_bytes > 0) * (_ID_FRAMING + id_bytes)
    return _DATA_FRAMING + named + identified + 0.0


def sse_overhead_bytes_per_token(
    tokens_per_event, envelope_bytes=0, event_name_bytes=0, id_bytes=0
):
    """Bytes sent per streamed token beyond the token's own text.

    Parameters
    ----------
    tokens_per_event : number or array
        Tokens batched into one event (1 for token-by-token streaming) [tokens].
    envelope_bytes : number or array, default 0
        Bytes of the payload that are not token text, e.g. a JSON chunk envelope [bytes].
    event_name_bytes, id_bytes : number or array, default 0
        Optional ``event:`` and ``id:`` field values [bytes].

    Returns
    -------
    Overhead [bytes/token] = (SSE framing + envelope) / tokens per event.
    """
    check.positive("tokens_per_event", tokens_per_event, check.MAX_TOKENS)
    check.non_negative("envelope_bytes", envelope_bytes, 1e9)
    framing = sse_framing_bytes(event_name_bytes, id_bytes)
    return (framing + envelope_bytes) / tokens_per_event


def sse_overhead_fraction(
    token_bytes, tokens_per_event, envelope_bytes=0, event_name_bytes=0, id_bytes=0
):
    """Share of the streamed bytes that is framing rather than token text.

    Parameters
    ----------
    token_bytes : number or array
        Mean UTF-8 bytes of one token's text (about 4 for English) [bytes].
    tokens_per_event : number or array
        Tokens per event [tokens].
    envelope_bytes, event_name_bytes, id_bytes : number or array, default 0
        As in :func:`sse_overhead_bytes_per_token`.

    Returns
    -------
    Overhead share [1] = overhead per token / (overhead per token + token bytes).
    """
    check.positive("token_bytes", token_bytes, 1e6)
    overhead = sse_overhead_bytes_per_token(
        tokens_per_event, envelope_bytes, event_name_bytes, id_bytes
    )
    return overhead / (overhead + token_bytes)


def wasted_tokens_after_disconnect(undetected_time, time_per_output_token, remaining_tokens=None):
    """Tokens generated for a client that has already gone, before the server notices.

    Parameters
    ----------
    undetected_time : number or array
        Time from the disconnect to its detection [s] (the whole check interval in the worst
        case, half of it on average).
    time_per_output_token : number or array
        TPOT [s].
    remaining_tokens : number or array, optional
        Tokens the response still had to generate when the client left [tokens]: a response that
        ends before the disconnect is detected wastes only these. Default: no cap (the response
        is still generating at detection).

    Returns
    -------
    Tokens [tokens] = min(undetected time / TPOT, remaining tokens).
    """
    check.non_negative("undetected_time", undetected_time, check.MAX_SECONDS)
    check.positive("time_per_output_token", time_per_output_token, check.MAX_SECONDS)
    generated = undetected_time / time_per_output_token
    if remaining_tokens is None:
        return generated
    check.non_negative("remaining_tokens", remaining_tokens, check.MAX_TOKENS)
    return np.minimum(generated, remaining_tokens)


def wasted_gpu_seconds_after_disconnect(undetected_time, batch_size, gpus=1):
    """GPU time spent on a disconnected sequence before the server notices.

    Parameters
    ----------
    undetected_time : number or array
        Time from the disconnect to its detection [s].
    batch_size : number or array
        Sequences sharing the replica's decode steps [sequences].
    gpus : int or array, default 1
        GPUs in the replica.

    Returns
    -------
    GPU time [GPU·s] = undetected time × GPUs / batch size: the sequence's share of the replica.
    """
    check.non_negative("undetected_time", undetected_time, check.MAX_SECONDS)
    check.positive("batch_size", batch_size, check.MAX_COUNT)
    check.positive_integer("gpus", gpus, check.MAX_DEVICES)
    return undetected_time * gpus / batch_size
