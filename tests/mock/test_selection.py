"""The choice of problems for a standard mock (trainer/mock/selection.py): pure, no database."""

import math
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.mock.selection import Candidate, pick_spread, weakness_weight


def test_it_weighs_a_forgotten_problem_ten_times_a_known_one():
    assert weakness_weight(0.0) == pytest.approx(10 * weakness_weight(1.0))
    # Never reviewed is unknown, not weak: it weighs as a problem at recall one half.
    assert weakness_weight(None) == weakness_weight(0.5)


@given(st.floats(0, 1), st.floats(0, 1))
def test_it_weighs_lower_recall_more(low, high):
    low, high = sorted((low, high))
    assert weakness_weight(low) >= weakness_weight(high) > 0


@pytest.mark.parametrize("recall", [-0.1, 1.1, math.nan])
def test_it_refuses_a_recall_outside_0_to_1(recall):
    with pytest.raises(ValueError, match="recall"):
        weakness_weight(recall)


candidates = st.lists(
    st.tuples(st.integers(1, 10), st.floats(0.01, 10)), min_size=0, max_size=25
).map(
    lambda rows: [
        Candidate(number, page, weight) for number, (page, weight) in enumerate(rows, start=1)
    ]
)


@given(candidates, st.integers(0, 30), st.integers(0, 2**32))
def test_it_picks_distinct_problems_spread_over_the_pages(pool, count, seed):
    picked = pick_spread(pool, count, random.Random(seed))
    by_number = {candidate.number: candidate for candidate in pool}
    assert len(picked) == len(set(picked)) == min(count, len(pool))
    assert set(picked) <= set(by_number)
    assert picked == sorted(picked, key=lambda n: (by_number[n].page, n))
    per_page = Counter(by_number[n].page for n in picked)
    available = Counter(candidate.page for candidate in pool)
    for page in available:
        for other in available:
            # A page has at most one more than any page that still had problems to give.
            if per_page[other] < available[other]:
                assert per_page[page] <= per_page[other] + 1


def test_it_draws_the_first_problem_in_proportion_to_its_weight():
    # Efraimidis-Spirakis: the first pick is i with probability w_i / sum(w) = 2 / 3.8.
    pool = [Candidate(1, 1, 2.0)] + [Candidate(n, n, 0.2) for n in range(2, 11)]
    rng = random.Random(20261130)
    draws = 4000
    share = sum(pick_spread(pool, 1, rng) == [1] for _ in range(draws)) / draws
    standard_error = math.sqrt(0.526 * 0.474 / draws)
    assert share == pytest.approx(2 / 3.8, abs=5 * standard_error)


def test_it_almost_always_asks_the_weak_problem_in_a_mock_of_five():
    pool = [Candidate(1, 1, weakness_weight(0.0))] + [
        Candidate(n, n, weakness_weight(1.0)) for n in range(2, 11)
    ]
    rng = random.Random(7)
    counts = Counter(number for _ in range(2000) for number in pick_spread(pool, 5, rng))
    # Uniform sampling would ask each problem in half the mocks.
    assert counts[1] / 2000 > 0.95
    assert all(counts[n] / 2000 < 0.5 for n in range(2, 11))


def test_it_refuses_a_weight_that_is_not_positive():
    with pytest.raises(ValueError, match="weight"):
        pick_spread([Candidate(1, 1, 0.0)], 1, random.Random(0))
