"""How long until a card comes back, in the words the rating buttons show ("10 min", "1 d",
"17 d", "2.5 mo"), as Anki labels its buttons.

Day-scale intervals count the learner's calendar days (a card due from tomorrow's local midnight
is "1 d" whatever the hour of the review); same-day intervals (FSRS learning steps) count minutes.
An SM-2 card that must be re-drilled today says so first: "today, then 6 d".
"""

import math
from datetime import datetime, tzinfo

from trainer.srs.days import learner_day, require_utc

DAYS_PER_MONTH = 30.44
DAYS_PER_YEAR = 365.25
MONTHS_FROM_DAYS = 31
YEARS_FROM_DAYS = 365


def _one_decimal(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def interval_text(
    reviewed_at: datetime, due: datetime | None, learner_tz: tzinfo, *, repeat_today: bool = False
) -> str:
    """The interval from a review to the card's next due instant, in words.

    Args:
        reviewed_at: when the review happened (timezone-aware).
        due: when the card is next due (timezone-aware); ``None`` shows a dash.
        learner_tz: the learner's timezone, which decides the calendar days.
        repeat_today: the card also comes back today (an SM-2 re-drill), before ``due``.
    """
    if due is None:
        return "—"
    start, end = require_utc(reviewed_at), require_utc(due)
    days = (learner_day(end, learner_tz) - learner_day(start, learner_tz)).days
    if days <= 0:
        minutes = math.ceil((end - start).total_seconds() / 60)
        if minutes <= 0:
            return "now"
        return f"{minutes} min" if minutes < 60 else f"{_one_decimal(minutes / 60)} h"
    if days < MONTHS_FROM_DAYS:
        text = f"{days} d"
    elif days < YEARS_FROM_DAYS:
        text = f"{_one_decimal(days / DAYS_PER_MONTH)} mo"
    else:
        text = f"{_one_decimal(days / DAYS_PER_YEAR)} y"
    return f"today, then {text}" if repeat_today else text
