"""The learner's profile (settings, scheduler, time zone) and the running-mock mark, which every
practice service reads; and the errors practice reports to the learner."""

from datetime import datetime
from typing import Any

from django.contrib.auth.models import User

from trainer.practice.models import LearnerProfile
from trainer.srs import Scheduler, day_start, learner_day, make_scheduler


class PracticeError(Exception):
    """A request that cannot be carried out; the message is for the learner."""


class NotFound(PracticeError):
    """Not the learner's, or not there at all: the two look the same (a 404)."""


def get_profile(user: User) -> LearnerProfile:
    """The learner's profile: usually already loaded with the user by the auth backend."""
    try:
        return user.learner_profile
    except LearnerProfile.DoesNotExist:
        profile, _ = LearnerProfile.objects.get_or_create(user=user)
        user.learner_profile = profile
        return profile


def create_profile(sender: object, user: User, time_zone: str, **kwargs: Any) -> LearnerProfile:
    """A new account's profile, in the time zone its browser reported at sign-up."""
    profile, _ = LearnerProfile.objects.update_or_create(
        user=user, defaults={"timezone": time_zone}
    )
    user.learner_profile = profile
    return profile


def mark_mock(user: User | int, until: datetime | None) -> None:
    """Set (a mock interview started, running until `until`, its deadline with the grace) or
    clear (None: it ended) the learner's running-mock mark. The mock's start and end call it in
    their transaction; nothing else writes the column (a settings save writes only its own
    fields), so no other write can reopen practice during a mock."""
    if not LearnerProfile.objects.filter(user=user).update(mock_until=until) and until:
        LearnerProfile.objects.get_or_create(user=user, defaults={"mock_until": until})


def mock_running(user: User, now: datetime) -> bool:
    """The learner's mock interview may be running now: False means certainly not. Read from
    the profile loaded with the user, so the common answer costs no query."""
    try:
        until = user.learner_profile.mock_until
    except LearnerProfile.DoesNotExist:
        return True  # no profile loaded: the caller asks the mocks themselves
    return until is not None and now <= until


def scheduler_for(profile: LearnerProfile) -> Scheduler:
    return make_scheduler(profile.scheduler, learner_tz=profile.tz)


def today_start(profile: LearnerProfile, now: datetime) -> datetime:
    return day_start(learner_day(now, profile.tz), profile.tz)
