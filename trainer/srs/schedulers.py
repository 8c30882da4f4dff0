"""Choosing a scheduler by name."""

from datetime import UTC, tzinfo
from typing import Any

from trainer.srs.fsrs_scheduler import FsrsScheduler
from trainer.srs.interface import Scheduler
from trainer.srs.sm2 import Sm2Scheduler

SCHEDULER_NAMES = ("sm2", "fsrs")
"""Names a learner can choose; SM-2 is the default."""


def make_scheduler(name: str = "sm2", *, learner_tz: tzinfo = UTC, **options: Any) -> Scheduler:
    """The scheduler called ``name`` for a learner in ``learner_tz``.

    ``options`` go to ``FsrsScheduler`` (``desired_retention``, ``parameters``,
    ``learning_steps``, ``relearning_steps``, ``maximum_interval_days``); SM-2 takes none.
    """
    if name == "sm2":
        if options:
            raise TypeError(f"SM-2 takes no options, got {sorted(options)}")
        return Sm2Scheduler(learner_tz)
    if name == "fsrs":
        return FsrsScheduler(learner_tz, **options)
    raise ValueError(f"unknown scheduler {name!r}; choose one of {SCHEDULER_NAMES}")
