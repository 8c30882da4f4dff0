"""Daily practice: the rules the views and the apps above call, one module per job.

- `profiles`: the learner's profile, scheduler and running-mock mark; the errors for the learner.
- `queue`: introducing cards, the queue, the card on screen, drawing its question.
- `answering`: grading and recording an answer, the review it makes, another variant.
- `rating`: rating a graded answer, moving on from it, undoing the latest rating.
- `scheduling`: moving a card's schedule from a review, or from its whole log (settings).
- `holds`: suspend and bury.
- `history`: a problem's page of earlier attempts.

Every write runs in one transaction and moves the learner's data version
(`trainer.practice.changes.learner_changed`), so pages computed from their records see it.
"""

from trainer.practice.services.answering import (
    PRACTISED,
    Submission,
    another_variant,
    answers_from_post,
    apply_review,
    get_own_attempt,
    submit,
)
from trainer.practice.services.history import HISTORY_PAGE, HistoryEntry, problem_page
from trainer.practice.services.holds import bury, held_cards, suspend
from trainer.practice.services.profiles import (
    NotFound,
    PracticeError,
    create_profile,
    get_profile,
    mark_mock,
    mock_running,
    scheduler_for,
    today_start,
)
from trainer.practice.services.queue import (
    PracticeScreen,
    UndoOffer,
    introduce,
    introduce_all,
    learner_queue,
    open_attempt,
    pick_version,
    plan_order,
    practice_now,
    practice_queue,
)
from trainer.practice.services.rating import (
    RatingChoice,
    awaiting_rating,
    rate,
    rating_choices,
    skip,
    undo,
)
from trainer.practice.services.scheduling import recompute_cards, save_settings

__all__ = [
    "HISTORY_PAGE",
    "PRACTISED",
    "HistoryEntry",
    "NotFound",
    "PracticeError",
    "PracticeScreen",
    "RatingChoice",
    "Submission",
    "UndoOffer",
    "answers_from_post",
    "another_variant",
    "apply_review",
    "awaiting_rating",
    "bury",
    "create_profile",
    "get_own_attempt",
    "get_profile",
    "held_cards",
    "introduce",
    "introduce_all",
    "learner_queue",
    "mark_mock",
    "mock_running",
    "open_attempt",
    "pick_version",
    "plan_order",
    "practice_now",
    "practice_queue",
    "problem_page",
    "rate",
    "rating_choices",
    "recompute_cards",
    "save_settings",
    "scheduler_for",
    "skip",
    "submit",
    "suspend",
    "today_start",
    "undo",
]
