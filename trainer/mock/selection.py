"""Which problems a standard mock asks: weighted towards the weakest, spread over the pages.

Pure Python (no Django): the service passes one `Candidate` per problem and a random generator.

Weights come from predicted recall (the scheduler's probability that the learner still knows the
problem now): a problem at recall 0 weighs ten times one at recall 1. A problem the learner has
never reviewed is unknown rather than weak, so it weighs as much as one at recall 0.5. Learners
without cards therefore get every problem with the same weight, and the page spread still holds.

Sampling is weighted sampling without replacement (Efraimidis & Spirakis, "Weighted random
sampling with a reservoir", Information Processing Letters 97(5), 2006): each candidate gets the
key u ** (1 / weight), u uniform in (0, 1), and the largest keys win; the first pick is candidate
i with probability weight_i / sum(weights). Pages are filled in rounds: no page gets a second
problem before every page that has one left has had its first.
"""

import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

LOWEST_WEIGHT = 0.2  # recall 1: still asked now and then, an interview can ask anything
HIGHEST_WEIGHT = 2.0  # recall 0
UNREVIEWED_RECALL = 0.5


@dataclass(frozen=True)
class Candidate:
    number: int  # problem number
    page: int  # course page 1..10
    weight: float  # > 0


def weakness_weight(recall: float | None) -> float:
    """Sampling weight of a problem from its predicted recall in [0, 1] (None: never reviewed)."""
    if recall is None:
        recall = UNREVIEWED_RECALL
    if not 0 <= recall <= 1:  # also refuses NaN
        raise ValueError(f"recall must be in [0, 1], got {recall}")
    return LOWEST_WEIGHT + (HIGHEST_WEIGHT - LOWEST_WEIGHT) * (1 - recall)


def pick_spread(candidates: Sequence[Candidate], count: int, rng: random.Random) -> list[int]:
    """`count` distinct problem numbers (all of them if there are fewer), weighted by
    `Candidate.weight`, at most one more from any page than from any other page that still had
    problems left; returned in (page, number) order. `rng` is a `random.Random`."""
    if count < 0:
        raise ValueError(f"count must be >= 0, got {count}")
    for candidate in candidates:
        if not (candidate.weight > 0 and math.isfinite(candidate.weight)):
            raise ValueError(f"weight of problem {candidate.number} must be > 0, got {candidate}")
    keyed = sorted(
        candidates,
        key=lambda candidate: _key(1.0 - rng.random(), candidate.weight),
        reverse=True,
    )
    chosen: list[Candidate] = []
    per_page: Counter[int] = Counter()
    round_number = 0
    while len(chosen) < min(count, len(keyed)):
        for candidate in keyed:
            if len(chosen) == count:
                break
            if candidate not in chosen and per_page[candidate.page] == round_number:
                chosen.append(candidate)
                per_page[candidate.page] += 1
        round_number += 1
    return [candidate.number for candidate in sorted(chosen, key=lambda c: (c.page, c.number))]


def _key(uniform: float, weight: float) -> float:
    # log(u) / w orders exactly as u ** (1 / w) and does not underflow for small weights.
    return math.log(uniform) / weight
