"""A learner's 24-hour plan: when it started, and which goals of its blocks are ticked.

Everything else the plan shows (pages done, block states, time spent) is computed from the
practice records, so it cannot drift from them.
"""

from django.conf import settings
from django.db import models


class PlanStart(models.Model):
    """The moment a learner pressed "Start the plan" (its problems went into practice then)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plan_start"
    )
    started_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"plan of {self.user_id} from {self.started_at:%Y-%m-%d %H:%M}"


class GoalTick(models.Model):
    """One ticked goal of the checklist, stored against the goal's stable key in the
    curriculum (``trainer/plan/curriculum.yaml``), so rewording a goal keeps the tick."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="goal_ticks"
    )
    goal_key = models.SlugField(max_length=60)
    ticked_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "goal_key"], name="unique_goal_tick")
        ]

    def __str__(self) -> str:
        return f"{self.goal_key} ticked by {self.user_id}"
