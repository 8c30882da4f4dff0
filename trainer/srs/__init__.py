"""Spaced-repetition scheduling: SM-2 and FSRS behind one interface, answer quality, the
practice queue, interview-date mode and the dashboard's numbers; FSRS parameters fitted to
review logs, and the workload a desired retention costs. Pure Python: no Django, no
clock reads (every ``now`` and ``today`` is passed in). See HELP.md for the learner-facing text.
"""

from trainer.srs.dashboard import recent_score, reviews_per_day, streak, weakest
from trainer.srs.days import day_start, learner_day, next_day_start, require_utc
from trainer.srs.fsrs_fitting import (
    PERSONAL_MINIMUM_REVIEWS,
    Evaluation,
    Fit,
    evaluate_parameters,
    fit_parameters,
    judge_fit,
    parameters_for_learner,
)
from trainer.srs.fsrs_items import CardReview, TrainingItem, sort_by_time, training_items
from trainer.srs.fsrs_scheduler import (
    DEFAULT_PARAMETERS,
    RATING_FOR_QUALITY,
    FsrsScheduler,
    FsrsState,
    rating_for_quality,
)
from trainer.srs.fsrs_simulation import (
    DEFAULT_DESIRED_RETENTION,
    RETENTION_RANGE,
    RetentionWorkloads,
    Workload,
    WorkloadCard,
    check_retention,
    optimal_retention,
    retention_workloads,
    simulate_workload,
    workload_days,
)
from trainer.srs.interface import CardState, Mastery, ReviewOutcome, ReviewRecord, Scheduler
from trainer.srs.intervals import interval_text
from trainer.srs.interview import (
    CardPlan,
    InterviewCard,
    forecast_reviews,
    plan_card,
    plan_interview,
    plans_for,
    successful_streak,
)
from trainer.srs.quality import (
    SelfRating,
    default_rating,
    easy_allowed,
    rated_quality,
    review_quality,
)
from trainer.srs.queue import PracticeQueue, QueueCard, build_queue, queue_card
from trainer.srs.schedulers import SCHEDULER_NAMES, make_scheduler
from trainer.srs.sm2 import Sm2Scheduler, Sm2State

__all__ = [
    "DEFAULT_DESIRED_RETENTION",
    "DEFAULT_PARAMETERS",
    "PERSONAL_MINIMUM_REVIEWS",
    "RETENTION_RANGE",
    "CardReview",
    "Evaluation",
    "Fit",
    "RetentionWorkloads",
    "TrainingItem",
    "Workload",
    "WorkloadCard",
    "check_retention",
    "evaluate_parameters",
    "fit_parameters",
    "judge_fit",
    "optimal_retention",
    "parameters_for_learner",
    "rating_for_quality",
    "retention_workloads",
    "simulate_workload",
    "sort_by_time",
    "training_items",
    "workload_days",
    "RATING_FOR_QUALITY",
    "SCHEDULER_NAMES",
    "CardPlan",
    "CardState",
    "FsrsScheduler",
    "FsrsState",
    "InterviewCard",
    "Mastery",
    "PracticeQueue",
    "QueueCard",
    "ReviewOutcome",
    "ReviewRecord",
    "Scheduler",
    "SelfRating",
    "Sm2Scheduler",
    "Sm2State",
    "build_queue",
    "day_start",
    "default_rating",
    "easy_allowed",
    "forecast_reviews",
    "interval_text",
    "learner_day",
    "make_scheduler",
    "next_day_start",
    "plan_card",
    "plan_interview",
    "plans_for",
    "queue_card",
    "rated_quality",
    "recent_score",
    "require_utc",
    "review_quality",
    "reviews_per_day",
    "streak",
    "successful_streak",
    "weakest",
]
