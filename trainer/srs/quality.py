"""SM-2 quality 0–5 of a practice answer: automatic grade, then time, then the learner's rating.

SM-2's scale (Wozniak 1990): 5 perfect; 4 correct after a hesitation; 3 correct, recalled with
serious difficulty; 2 incorrect, but the correct one seemed easy to recall; 1 incorrect, the
correct one remembered; 0 complete blackout. q >= 3 continues the repetitions, q < 4 brings the
card back the same day with a new variant.

1. The automatic grade sets the starting quality (``grade_quality``):

   ============================================ ===
   every part correct (score 1)                  5
   score >= 2/3, nothing blank                   3
   score >= 1/3                                  2
   score > 0, or every part answered but wrong   1
   score 0 with a blank or unparsable part       0
   ============================================ ===

   A wrong part anywhere caps the answer at 3, so it is re-drilled today: getting a number wrong
   in an interview is not "correct after a hesitation". A blank or unparsable part (the learner
   gave up on it) caps the answer at 2: the problem was not recalled as a whole.
2. Time against the problem's expected time (``time_penalty``) only marks down a correct answer
   (q >= 3) and never below 3, because a slow correct answer is still a correct one: up to the
   expected time no change; up to twice the expected time -1 ("after a hesitation"); beyond
   twice -2 ("with serious difficulty"). A wrong answer is not made worse by being slow.
3. The learner's rating (``rated_quality``), pressed after seeing the solution, as in Anki:

   - **Good** keeps the automatic quality: pressing Good is the same as accepting the default,
     so a habitual Good after a perfect answer costs nothing.
   - **Hard** caps it at 3 and **Again** at 2 ("correct with serious difficulty", "incorrect"):
     the highest qualities FSRS reads as Hard and Again (``fsrs_scheduler.RATING_FOR_QUALITY``).
   - **Easy** gives 5, and only to an answer with every part correct and none blank: it takes
     back the time mark-down ("I was slow for another reason"). It never lifts a wrong, partial or
     blank answer, so a rating cannot skip the re-drill that a wrong number earns.

   The button that describes the automatic quality (``default_rating``: Again for 0–2, Hard for
   3, Good for 4–5) is pre-selected; it gives exactly the automatic quality, as Good does.
"""

from enum import IntEnum
from fractions import Fraction

SCORE_TOLERANCE = 1e-9
"""A mean of part scores computed in floating point lands a hair below its exact value (the mean
of 1, 1, 0 is 0.6666666666666666 < 2/3), so every threshold is compared with this slack."""
FULL_SCORE = Fraction(1)
PASS_SCORE = Fraction(2, 3)
CLOSE_SCORE = Fraction(1, 3)


class SelfRating(IntEnum):
    """The four buttons a learner may press after seeing the solution (keys 1–4)."""

    AGAIN = 1
    HARD = 2
    GOOD = 3
    EASY = 4


SELF_RATING_CAP = {SelfRating.AGAIN: 2, SelfRating.HARD: 3}
"""The highest quality Again and Hard leave; Good and Easy are not caps (``rated_quality``)."""
EASY_QUALITY = 5


def grade_quality(score: float, incomplete: bool) -> int:
    """Starting quality from the automatic grade (table in the module docstring).

    Args:
        score: mean part score in [0, 1] (1 = every part correct; partial credit allowed).
        incomplete: some part was left blank or could not be parsed.
    """
    if not 0 <= score <= 1:  # also refuses NaN
        raise ValueError(f"score must be in [0, 1], got {score}")
    reached = score + SCORE_TOLERANCE
    if reached >= FULL_SCORE and not incomplete:
        quality = 5
    elif reached >= PASS_SCORE:
        quality = 3
    elif reached >= CLOSE_SCORE:
        quality = 2
    elif score > 0 or not incomplete:
        quality = 1
    else:
        quality = 0
    return min(quality, 2) if incomplete else quality


def time_penalty(time_taken: float | None, expected_time: float | None) -> int:
    """Quality points lost for slowness: 0 up to the expected time, 1 up to twice it, else 2.

    Args:
        time_taken: time from showing the question to submitting [s]; ``None`` if unknown.
        expected_time: the problem's expected time [s]; ``None`` if the problem has none.
    """
    if time_taken is None or expected_time is None:
        return 0
    if not (expected_time > 0 and time_taken >= 0):  # also refuses NaN
        raise ValueError(
            f"need time_taken >= 0 and expected_time > 0, got {time_taken}, {expected_time}"
        )
    if time_taken <= expected_time:
        return 0
    if time_taken <= 2 * expected_time:
        return 1
    return 2


def review_quality(
    score: float,
    *,
    incomplete: bool = False,
    time_taken: float | None = None,
    expected_time: float | None = None,
    self_rating: SelfRating | None = None,
) -> int:
    """SM-2 quality 0..5 of one practice answer (the three steps of the module docstring).

    Args:
        score: mean part score in [0, 1].
        incomplete: some part was blank or unparsable in the submitted answer.
        time_taken: time to answer [s], or ``None``.
        expected_time: the problem's expected time [s], or ``None``.
        self_rating: the learner's rating, or ``None`` for the automatic quality.
    """
    graded = grade_quality(score, incomplete)
    quality = graded
    penalty = time_penalty(time_taken, expected_time)
    if quality >= 3:
        quality = max(3, quality - penalty)
    if self_rating is None:
        return quality
    return rated_quality(quality, self_rating, fully_correct=graded == 5)


def easy_allowed(score: float, incomplete: bool) -> bool:
    """Easy may be pressed: every part correct and none blank (the grade before time is 5)."""
    return grade_quality(score, incomplete) == 5


def rated_quality(automatic_quality: int, rating: SelfRating, *, fully_correct: bool) -> int:
    """The quality after the learner's rating (module docstring, step 3).

    Args:
        automatic_quality: the quality from grade and time, 0..5.
        rating: the button pressed.
        fully_correct: every part correct and none blank (``easy_allowed``); Easy changes
            nothing otherwise (the practice view refuses it before it gets here).
    """
    rating = SelfRating(rating)
    if rating == SelfRating.GOOD:
        return automatic_quality
    if rating == SelfRating.EASY:
        return EASY_QUALITY if fully_correct else automatic_quality
    return min(automatic_quality, SELF_RATING_CAP[rating])


def default_rating(automatic_quality: int) -> SelfRating:
    """The button that describes the automatic quality, pre-selected for Space and Enter: it
    gives exactly that quality (Again for 0–2, Hard for 3, Good for 4 and 5)."""
    if automatic_quality <= SELF_RATING_CAP[SelfRating.AGAIN]:
        return SelfRating.AGAIN
    if automatic_quality <= SELF_RATING_CAP[SelfRating.HARD]:
        return SelfRating.HARD
    return SelfRating.GOOD
