"""Learner days: which calendar day an instant falls on, and when a day starts.

Every instant in this package is a timezone-aware datetime, normalised to UTC. Schedules that
count in whole days (SM-2 intervals, daily limits, streaks) count the learner's calendar days, so
"today" is decided by the learner's timezone, passed in as a ``tzinfo``: a fixed offset
(``datetime.timezone(timedelta(hours=-5))``) or a named zone (``zoneinfo.ZoneInfo("Asia/Tokyo")``,
which follows daylight-saving changes). A learner day runs from local midnight to local midnight.

No function here reads the clock: the caller passes ``now``.
"""

from datetime import UTC, date, datetime, time, timedelta, tzinfo

PLANNING_TIME = time(12, 0)
"""Local time of day at which simulated (planned or forecast) reviews happen: noon keeps every
simulated review a whole number of days after the previous one and far from DST changes at
night."""


def require_utc(moment: datetime) -> datetime:
    """Return ``moment`` as a UTC datetime; refuse a naive datetime.

    A naive datetime has no defined instant, so guessing its zone would shift reviews by hours.
    """
    if moment.tzinfo is None or moment.tzinfo.utcoffset(moment) is None:
        raise ValueError(f"datetime must be timezone-aware, got naive {moment!r}")
    return moment.astimezone(UTC)


def learner_day(moment: datetime, learner_tz: tzinfo) -> date:
    """The learner's calendar day on which the instant ``moment`` falls."""
    return require_utc(moment).astimezone(learner_tz).date()


def day_start(day: date, learner_tz: tzinfo) -> datetime:
    """The UTC instant at which the learner's calendar day ``day`` begins (local midnight)."""
    return datetime.combine(day, time(0), tzinfo=learner_tz).astimezone(UTC)


def next_day_start(moment: datetime, learner_tz: tzinfo) -> datetime:
    """The UTC instant at which the learner day after the one containing ``moment`` begins."""
    return day_start(learner_day(moment, learner_tz) + timedelta(days=1), learner_tz)


def planning_instant(day: date, learner_tz: tzinfo) -> datetime:
    """The UTC instant of a simulated review on ``day`` (local noon, see ``PLANNING_TIME``)."""
    return datetime.combine(day, PLANNING_TIME, tzinfo=learner_tz).astimezone(UTC)
