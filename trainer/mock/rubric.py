"""What a strong answer to the capstone (problem 25, ChatGPT-style serving for 1M daily users)
covers, for the learner's self-assessment after a capstone rehearsal.

The order is the order a strong candidate talks through it: pin down the requirements, turn users
into load, load into hardware, hardware into money, then latency, the levers, and what breaks.
The numbers in the descriptions are common starting assumptions that an interviewer expects to
hear stated and justified; they prompt the self-assessment and are not answer keys (the
rehearsal's own parts are graded).
"""

from collections.abc import Mapping
from dataclasses import dataclass

LEVELS = ((2, "Covered"), (1, "Partly"), (0, "Missed"))
LEVEL_NAMES = dict(LEVELS)


@dataclass(frozen=True)
class RubricItem:
    key: str
    title: str
    description: str


CAPSTONE_RUBRIC = (
    RubricItem(
        "requirements",
        "Requirements and assumptions",
        "Stated before any arithmetic: daily users, requests per user per day, prompt and output "
        "lengths, the quality bar that fixes the model size, and which numbers are guesses to "
        "revisit.",
    ),
    RubricItem(
        "peak-rps",
        "Peak requests per second",
        "Daily requests divided by 86,400 s gives the average; a peak-to-average factor (2-4x "
        "for a consumer product with a daily cycle) gives the peak the fleet is sized for.",
    ),
    RubricItem(
        "tokens-per-second",
        "Tokens per second",
        "Peak requests/s times input and output tokens, kept separate: prefill tokens are "
        "compute-bound and cheap per token, decode tokens are bandwidth-bound and set the fleet.",
    ),
    RubricItem(
        "model-gpu-memory",
        "Model and GPU choice, with memory",
        "A named model and precision, its weight bytes (parameters x bytes per parameter), the "
        "KV cache per token and per sequence at the assumed context, and a GPU whose usable "
        "memory holds both with headroom; tensor parallelism if one GPU cannot.",
    ),
    RubricItem(
        "replicas",
        "Replicas",
        "Throughput of one replica at a batch size that still meets the latency target, peak "
        "tokens/s divided by it, rounded up, plus headroom for a failed node and for deploys.",
    ),
    RubricItem(
        "cost",
        "Cost per day",
        "GPUs x hours x price per GPU-hour, and the cost per million tokens or per user it "
        "implies; says whether the fleet scales down off-peak.",
    ),
    RubricItem(
        "latency-slos",
        "Latency SLOs: TTFT and TPOT",
        "Targets for time to first token and time per output token at p50 and p99 (for example "
        "TTFT under 1 s, TPOT under 50 ms, faster than reading speed), and how batch size trades "
        "TPOT for throughput.",
    ),
    RubricItem(
        "batching-caching",
        "Batching and caching",
        "Continuous batching, a paged KV cache, chunked prefill so long prompts do not stall "
        "decodes, prefix caching of the system prompt with cache-aware routing.",
    ),
    RubricItem(
        "failure-modes",
        "Failure modes and overload",
        "A GPU or node failing mid-stream, overload beyond the peak (admission control, queue "
        "limits, shedding low-priority traffic), client disconnects that must free their "
        "cache, retries that must not become a storm.",
    ),
    RubricItem(
        "monitoring",
        "Monitoring",
        "Dashboards and alerts on TTFT and TPOT percentiles, queue depth, KV-cache usage and "
        "preemptions, prefix-cache hit rate, GPU utilisation, error rate and cost per request.",
    ),
    RubricItem(
        "scaling-rollout",
        "Scaling and rollout",
        "Autoscaling on queue depth or KV usage with the cold-start time of a replica in mind "
        "(weights to load), and a canary with rollback for a new model or quantisation.",
    ),
    RubricItem(
        "tradeoffs",
        "Trade-offs and next steps",
        "The levers and what they cost: quantisation (memory and speed against quality), "
        "speculative decoding (helps at small batch), a smaller model for easy traffic, "
        "disaggregated prefill and decode; names what to measure first.",
    ),
)

RUBRIC_KEYS = tuple(item.key for item in CAPSTONE_RUBRIC)
MAX_POINTS = 2 * len(CAPSTONE_RUBRIC)


def rubric_points(marks: Mapping[str, int]) -> int:
    """Points of a self-assessment {item key: level}: the sum of the levels of known items."""
    return sum(level for key, level in marks.items() if key in RUBRIC_KEYS)
