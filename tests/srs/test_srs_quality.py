"""Quality 0–5 from grade, time and self-rating: the documented table and its monotonicity."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trainer.srs.fsrs_scheduler import RATING_FOR_QUALITY
from trainer.srs.quality import (
    SELF_RATING_CAP,
    SelfRating,
    default_rating,
    rated_quality,
    review_quality,
)

EXPECTED = 100.0  # [s]


@pytest.mark.parametrize(
    ("score", "incomplete", "time_taken", "self_rating", "quality"),
    [
        (1.0, False, 60, None, 5),  # all right, in time
        (1.0, False, 100, None, 5),  # exactly the expected time is still in time
        (1.0, False, 150, None, 4),  # up to twice: "after a hesitation"
        (1.0, False, 200, None, 4),
        (1.0, False, 201, None, 3),  # beyond twice: "with serious difficulty"
        (1.0, False, 60, SelfRating.HARD, 3),
        (1.0, False, 60, SelfRating.AGAIN, 2),
        (1.0, False, 60, SelfRating.EASY, 5),
        (1.0, False, 60, SelfRating.GOOD, 5),  # Good after a perfect answer costs nothing
        (1.0, False, 150, SelfRating.GOOD, 4),  # Good keeps the automatic grade
        (1.0, False, 150, SelfRating.EASY, 5),  # Easy takes back the time mark-down
        (1.0, False, 900, SelfRating.EASY, 5),
        (1.0, True, 60, SelfRating.EASY, 2),  # a blank part is never Easy
        (2 / 3, False, 60, SelfRating.EASY, 3),  # nor a wrong part: it is re-drilled today
        (2 / 3, False, 60, SelfRating.AGAIN, 2),
        (2 / 3, False, 60, None, 3),  # two of three parts
        (2 / 3, False, 900, None, 3),  # slowness never fails a passing answer
        (2 / 3, True, 60, None, 2),  # two right, one blank
        (0.5, False, 60, None, 2),
        (1 / 3, False, 60, None, 2),
        (0.2, False, 60, None, 1),
        (0.0, False, 60, None, 1),  # everything answered, everything wrong
        (0.0, True, 60, None, 0),  # blank: blackout
        (0.2, True, 60, None, 1),
        (0.5, False, 900, SelfRating.EASY, 2),  # wrong stays wrong; Easy does not lift it
        (0.999_999_999_99, False, 60, None, 5),  # float mean of all-correct parts
    ],
)
def test_documented_mapping(score, incomplete, time_taken, self_rating, quality):
    result = review_quality(
        score,
        incomplete=incomplete,
        time_taken=time_taken,
        expected_time=EXPECTED,
        self_rating=self_rating,
    )
    assert result == quality


def test_unknown_time_costs_nothing():
    assert review_quality(1.0) == 5
    assert review_quality(1.0, time_taken=500) == 5


@pytest.mark.parametrize(
    "kwargs",
    [
        {"score": 1.1},
        {"score": -0.1},
        {"score": float("nan")},
        {"score": 1.0, "time_taken": -1, "expected_time": 10},
        {"score": 1.0, "time_taken": 1, "expected_time": 0},
        {"score": 0.0, "time_taken": float("nan"), "expected_time": 10},
    ],
)
def test_invalid_inputs_refused(kwargs):
    score = kwargs.pop("score")
    with pytest.raises(ValueError):
        review_quality(score, **kwargs)


def test_self_rating_caps_agree_with_the_fsrs_mapping():
    # Pressing a button never yields a quality that FSRS would read as a better rating.
    for rating, cap in SELF_RATING_CAP.items():
        assert RATING_FOR_QUALITY[cap] == int(rating)


scores = st.floats(0, 1, allow_nan=False)
times = st.one_of(st.none(), st.floats(0, 10_000, allow_nan=False))
ratings = st.one_of(st.none(), st.sampled_from(SelfRating))


@given(scores, scores, st.booleans(), times, ratings)
def test_more_correct_never_lowers_quality(score_a, score_b, incomplete, time_taken, rating):
    low, high = sorted((score_a, score_b))
    common = {"time_taken": time_taken, "expected_time": EXPECTED, "self_rating": rating}
    assert review_quality(low, incomplete=incomplete, **common) <= review_quality(
        high, incomplete=incomplete, **common
    )
    # Filling in a blank part (with at least the same score) never lowers it either.
    assert review_quality(low, incomplete=True, **common) <= review_quality(
        high, incomplete=False, **common
    )


@given(scores, st.booleans(), st.floats(0, 10_000), st.floats(0, 10_000), ratings)
def test_slower_never_raises_quality(score, incomplete, time_a, time_b, rating):
    fast, slow = sorted((time_a, time_b))
    common = {"incomplete": incomplete, "expected_time": EXPECTED, "self_rating": rating}
    assert review_quality(score, time_taken=slow, **common) <= review_quality(
        score, time_taken=fast, **common
    )


@given(scores, st.booleans(), times)
def test_good_keeps_the_automatic_quality(score, incomplete, time_taken):
    common = {"incomplete": incomplete, "time_taken": time_taken, "expected_time": EXPECTED}
    assert review_quality(score, self_rating=SelfRating.GOOD, **common) == review_quality(
        score, **common
    )


@given(scores, st.booleans(), times, st.sampled_from([SelfRating.AGAIN, SelfRating.HARD]))
def test_again_and_hard_never_raise_quality(score, incomplete, time_taken, rating):
    common = {"incomplete": incomplete, "time_taken": time_taken, "expected_time": EXPECTED}
    rated = review_quality(score, self_rating=rating, **common)
    assert 0 <= rated <= min(review_quality(score, **common), SELF_RATING_CAP[rating])


@given(scores, st.booleans(), times)
def test_easy_lifts_only_a_fully_correct_answer(score, incomplete, time_taken):
    common = {"incomplete": incomplete, "time_taken": time_taken, "expected_time": EXPECTED}
    automatic = review_quality(score, **common)
    easy = review_quality(score, self_rating=SelfRating.EASY, **common)
    if score >= 1 - 1e-9 and not incomplete:
        assert easy == 5
    else:
        assert easy == automatic


@given(st.integers(0, 5), st.booleans())
def test_the_default_button_gives_the_automatic_quality(automatic, fully_correct):
    rating = default_rating(automatic)
    assert rated_quality(automatic, rating, fully_correct=fully_correct) == automatic
    assert rated_quality(automatic, SelfRating.GOOD, fully_correct=fully_correct) == automatic


def test_the_default_button_names_the_automatic_grade():
    assert [default_rating(quality) for quality in range(6)] == [
        SelfRating.AGAIN,
        SelfRating.AGAIN,
        SelfRating.AGAIN,
        SelfRating.HARD,
        SelfRating.GOOD,
        SelfRating.GOOD,
    ]


@given(scores, st.booleans(), times, ratings)
def test_only_a_fully_correct_complete_answer_avoids_the_same_day_redrill(
    score, incomplete, time_taken, rating
):
    quality = review_quality(
        score,
        incomplete=incomplete,
        time_taken=time_taken,
        expected_time=EXPECTED,
        self_rating=rating,
    )
    if quality >= 4:
        assert score >= 1 - 1e-9 and not incomplete
