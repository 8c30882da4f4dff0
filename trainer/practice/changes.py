"""One number per learner that moves whenever their records change.

Pages computed from a learner's reviews, cards, mocks or plan (the dashboard) keep their numbers
in the cache under this version: a write service calls `learner_changed` in its transaction, and
the next page sees a new version and computes afresh. The number lives in the database, so every
process sees the same one whatever cache it has.
"""

from django.db.models import F

from trainer.practice.models import LearnerProfile


def learner_changed(user_id: int) -> None:
    """Move the learner's version on: what was kept under the old one is out of date."""
    LearnerProfile.objects.filter(user_id=user_id).update(data_version=F("data_version") + 1)


def learner_version(user_id: int) -> int:
    """The learner's current version (0 for a learner with no profile yet)."""
    found = (
        LearnerProfile.objects.filter(user_id=user_id)
        .values_list("data_version", flat=True)
        .first()
    )
    return found or 0
