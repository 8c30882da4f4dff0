"""The learner's home page: the numbers and charts of practice (with the interview-day prediction)
and the mock interviews, in a constant number of queries. It sits above the learner apps.

Four statements (`rows`): every problem with the learner's card of it; the review log's state at
the start of today with today's reviews and the two latest; the latest answers with the unopened
regrades; the latest mocks. Everything else is computed from those, and what does not depend on
the instant is kept in the cache (one entry per learner, `Derived`), each part beside the values
it was computed from, so that any change of those values recomputes it and nothing else:

- the reviews before today (the heatmap's and the streak's past days, each card's latest scores
  and its review days for interview mode), while the learner day, the time zone and the count,
  greatest id and qualities of those reviews (`rows.Reviews.before`) are the same: read again
  once a day, or after an undo or a rating of a review of an earlier day;
- per card, its forecast, its mastery cells and its interview plan, while its stored state (and
  due date, review days and interview date) are the same: a review recomputes its card only;
- the two charts, while their numbers are the same.

What depends on the instant (recall now, the queue, the weakest problems) is computed on every
view. The tables are written in Python, as the charts are, exactly as the template's loops wrote
them: the page is the one the template-only version rendered, byte for byte (compared over a
scripted learner's weeks of practice, both schedulers, interview mode, a change of time zone,
mocks, suspend and bury, when this was written). tests/dashboard checks the page drawn from the
kept entry against the page drawn from nothing after each kind of change, and the tables'
numbers against the schedulers' from the whole log.
"""

import json
import logging
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.template.defaultfilters import capfirst, floatformat
from django.template.defaultfilters import date as date_filter
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from trainer import charts
from trainer.dashboard import rows
from trainer.mock.services import GRACE, dashboard_mocks
from trainer.practice.models import LearnerProfile
from trainer.practice.services import learner_queue, scheduler_for
from trainer.srs import (
    CardPlan,
    CardState,
    InterviewCard,
    PracticeQueue,
    QueueCard,
    ReviewRecord,
    Scheduler,
    day_start,
    forecast_reviews,
    learner_day,
    plan_card,
    plans_for,
    require_utc,
    streak,
    weakest,
)
from trainer.srs.dashboard import RECENT_REVIEWS

FORECAST_DAYS = 30
HEATMAP_DAYS = 371
RECENT_MOCKS = 5
CACHE_KEY = "dashboard:1:{}"
"""One entry per learner; the number changes with `Derived`'s shape, so a deployment never
reads an entry an older version wrote."""

logger = logging.getLogger(__name__)


@dataclass
class History:
    """The learner's reviews before today, as the page uses them, in plain values (the entry is
    read on every view: unpickling a thousand objects would cost more than the page saves).

    `days`: reviews on each learner day from the heatmap's first day to yesterday; `streak`:
    consecutive days with a review ending yesterday (in that window); `total`: all reviews
    before today; `scores`: each card's latest scores, oldest first; `firsts`, in interview mode
    only: each card's first review of every learner day it was reviewed on, (quality, instant),
    oldest first. Interview mode reads nothing else of the log: which days had a review, and
    whether each day's first one passed."""

    key: tuple[Any, ...]
    days: tuple[int, ...]
    streak: int
    total: int
    scores: dict[int, tuple[float, ...]]
    firsts: dict[int, tuple[tuple[int, datetime], ...]] | None


@dataclass
class CardNumbers:
    """What a card's stored state gives the page, whatever the instant: the scheduler's due
    instant and re-drill end (the queue's), the forecast, and the cells of its row in "Every
    problem" but the recall now."""

    key: tuple[Any, ...]
    due: datetime | None
    redrill_until: datetime | None
    forecast: tuple[int, ...]
    cells: str
    due_cell: str
    plan: tuple[tuple[Any, ...], float, str] | None = None
    """Interview mode: (what it was planned from, recall on the day, its table row)."""


@dataclass
class Derived:
    """The cache entry of one learner (module docstring)."""

    context: tuple[Any, ...] = ()
    history: History | None = None
    cards: dict[int, CardNumbers] = field(default_factory=dict)
    forecast: tuple[tuple[Any, ...], str] | None = None
    heatmap: tuple[tuple[Any, ...], str] | None = None


def dashboard(user: User, profile: LearnerProfile, now: datetime) -> dict[str, Any]:
    """The template's context. A mock whose time is up is ended first, so that the reviews its
    end records are on the page."""
    tz = profile.tz
    today = learner_day(now, tz)
    today_start = day_start(today, tz)
    mocks = _mocks(user, now)
    cards, problems = rows.cards(user.pk)
    cards.sort(key=lambda card: card.number)
    log = rows.reviews(user.pk, today_start)
    recent_answers, regraded = rows.answers(user.pk, problems)
    scheduler = scheduler_for(profile)
    interview_mode = profile.interview_date is not None and plans_for(profile.interview_date, today)

    derived = _load(user.pk)
    stored = _snapshot(derived)
    context = (scheduler.name, profile.timezone, timezone.get_current_timezone_name(), today)
    if derived.context != context:
        derived.context, derived.cards = context, {}
    history = _history(derived, user.pk, profile, today, today_start, log.before, interview_mode)

    tomorrow_start = day_start(today + timedelta(days=1), tz)
    done_today = sum(1 for review in log.today if review.reviewed_at < tomorrow_start)
    scores = {card_id: list(values) for card_id, values in history.scores.items()}
    for review in log.today:
        scores.setdefault(review.card_id, []).append(review.score)

    numbers = {card.id: _card_numbers(derived, scheduler, card, today, now) for card in cards}
    derived.cards = numbers
    states = {card.id: scheduler.state_from_dict(json.loads(card.state)) for card in cards}
    recall = {card.id: scheduler.predicted_recall(states[card.id], now) for card in cards}
    queue = _queue(profile, cards, numbers, recall, log, now)

    recent = {card.id: scores.get(card.id, [])[-RECENT_REVIEWS:] for card in cards}
    by_number: dict[Hashable, rows.CardRow] = {card.number: card for card in cards}
    weakest_numbers = weakest(
        {card.number: recall[card.id] for card in cards if card.last_reviewed_at is not None},
        {card.number: recent[card.id] for card in cards},
        count=5,
    )
    forecast = [
        sum(day) for day in zip(*(numbers[card.id].forecast for card in cards), strict=True)
    ]
    if not forecast:
        forecast = [0] * FORECAST_DAYS
    interview = None
    if interview_mode:
        firsts = _firsts(history, log, tz)
        interview = _interview(profile, scheduler, cards, numbers, states, firsts, today)
    context_dict = {
        "profile": profile,
        "due_now": queue.due_total + len(queue.redrill_keys),
        "new_left": len(queue.new_keys),
        "next_at": queue.next_at,
        "done_today": done_today,
        # `streak` of the window's days with a review: today's, if any, adds one to yesterday's.
        "streak": history.streak + 1 if done_today else history.streak,
        "mastery_rows": _mastery_rows(cards, numbers, recall),
        "weakest": _weakest_items(
            [by_number[number] for number in weakest_numbers], recall, recent
        ),
        "cards_total": len(cards),
        # Nothing practised yet: the page says what to do first instead of drawing empty charts.
        "first_steps": not cards and not history.total and not log.today,
        "forecast_chart": _forecast_chart(derived, today, forecast),
        "forecast_total": sum(forecast),
        "heatmap_chart": _heatmap_chart(derived, today, history, done_today),
        "reviews_last_year": sum(history.days) + done_today,
        "interview": interview,
        "recent_answers": _answer_rows(recent_answers),
        "regraded": regraded,
        "mocks": mocks,
    }
    if _snapshot(derived) != stored:
        _store(user.pk, derived)
    return context_dict


def _firsts(history: History, log: rows.Reviews, tz: tzinfo) -> dict[int, tuple[ReviewRecord, ...]]:
    """Each card's first review of every learner day, before today and since (`History`)."""
    firsts = {
        card_id: [ReviewRecord(quality, at) for quality, at in records]
        for card_id, records in (history.firsts or {}).items()
    }
    seen: set[tuple[int, date]] = set()
    for review in log.today:
        day = learner_day(review.reviewed_at, tz)
        if (review.card_id, day) not in seen:
            seen.add((review.card_id, day))
            firsts.setdefault(review.card_id, []).append(
                ReviewRecord(review.quality, review.reviewed_at)
            )
    return {card_id: tuple(records) for card_id, records in firsts.items()}


# The cache entry.


def _load(user_id: int) -> Derived:
    try:
        found = cache.get(CACHE_KEY.format(user_id))
    except Exception:  # the page is computed without the cache when it is down
        logger.warning("dashboard cache unavailable", exc_info=True)
        return Derived()
    return found if isinstance(found, Derived) else Derived()


def _store(user_id: int, derived: Derived) -> None:
    try:
        cache.set(CACHE_KEY.format(user_id), derived, timeout=7 * 24 * 3600)
    except Exception:
        logger.warning("dashboard cache unavailable", exc_info=True)


def _snapshot(derived: Derived) -> tuple[Any, ...]:
    """What tells whether the entry changed during a view (identities: parts are replaced,
    never changed in place)."""
    return (
        derived.context,
        id(derived.history),
        tuple((key, id(numbers), id(numbers.plan)) for key, numbers in derived.cards.items()),
        id(derived.forecast),
        id(derived.heatmap),
    )


# The reviews before today.


def _history(
    derived: Derived,
    user_id: int,
    profile: LearnerProfile,
    today: date,
    today_start: datetime,
    before: tuple[int, int, int],
    interview_mode: bool,
) -> History:
    key = (profile.timezone, today, before, interview_mode)
    if derived.history is not None and derived.history.key == key:
        return derived.history
    tz = profile.tz
    first_day = today - timedelta(days=HEATMAP_DAYS - 1)
    days = [0] * (HEATMAP_DAYS - 1)
    scores: dict[int, list[float]] = {}
    firsts: dict[int, list[tuple[int, datetime]]] = {}
    seen: set[tuple[int, date]] = set()
    log = rows.history(user_id, today_start)
    for card_id, reviewed_at, score, quality in log:
        day = learner_day(reviewed_at, tz)
        if day >= first_day:
            days[(day - first_day).days] += 1
        scores.setdefault(card_id, []).append(score)
        if interview_mode and (card_id, day) not in seen:
            seen.add((card_id, day))
            firsts.setdefault(card_id, []).append((quality, reviewed_at))
    history = History(
        key=key,
        days=tuple(days),
        streak=streak(
            [first_day + timedelta(days=index) for index, count in enumerate(days) if count],
            today,
        ),
        total=len(log),
        scores={card_id: tuple(values[-RECENT_REVIEWS:]) for card_id, values in scores.items()},
        firsts={card_id: tuple(records) for card_id, records in firsts.items()}
        if interview_mode
        else None,
    )
    derived.history = history
    return history


# Per card.


def _card_numbers(
    derived: Derived, scheduler: Scheduler, card: rows.CardRow, today: date, now: datetime
) -> CardNumbers:
    key = (card.state, card.due_at, card.last_reviewed_at is not None, card.number, card.title)
    found = derived.cards.get(card.id)
    if found is not None and found.key == key:
        return found
    state = scheduler.state_from_dict(json.loads(card.state))
    forecast = forecast_reviews(scheduler, [state], today=today, days=FORECAST_DAYS)
    outcome = scheduler.outcome(state)
    return CardNumbers(
        key=key,
        due=outcome.due,
        redrill_until=outcome.redrill_until,
        forecast=tuple(forecast[day] for day in sorted(forecast)),
        cells=_mastery_cells(scheduler, state, card, now),
        due_cell=date_filter(timezone.localtime(card.due_at), "j M") if card.due_at else "new",
    )


def _mastery_cells(
    scheduler: Scheduler, state: CardState, card: rows.CardRow, now: datetime
) -> str:
    numbers = scheduler.mastery(state, now)  # the instant changes the recall only, not shown here
    reviewed = card.last_reviewed_at is not None
    if scheduler.name == "sm2":
        interval = f"{numbers.interval_days} d" if reviewed else "new"
        cells = f"<td>{interval}</td><td>{floatformat(numbers.easiness, 2)}</td>"
    else:
        stability = (
            f"{floatformat(numbers.stability_days, 1)} d" if numbers.stability_days else "new"
        )
        cells = f"<td>{stability}</td><td>{floatformat(numbers.difficulty, 1) or '—'}</td>"
    return f"<tr><td>{card.number} · {escape(card.title)}</td>\n      \n        {cells}"


def _mastery_rows(
    cards: Sequence[rows.CardRow], numbers: Mapping[int, CardNumbers], recall: Mapping[int, float]
) -> SafeString:
    """The rows of "Every problem", as the template's loop wrote them."""
    parts = []
    for card in cards:
        shown = _percent(recall[card.id]) + "%" if card.last_reviewed_at is not None else "—"
        entry = numbers[card.id]
        parts.append(
            f"\n      {entry.cells}\n      \n        <td>{shown}</td>\n"
            f"        <td>{card.reviews_count}</td>\n        <td>{entry.due_cell}</td></tr>\n    "
        )
    return mark_safe("".join(parts))  # noqa: S308 - every text in it is escaped above


def _percent(value: float | None) -> str:
    """`{% widthratio value 1 100 %}`."""
    if value is None:
        return ""
    return str(round(float(value) / 1.0 * 100))


# Now.


def _queue(
    profile: LearnerProfile,
    cards: Sequence[rows.CardRow],
    numbers: Mapping[int, CardNumbers],
    recall: Mapping[int, float],
    log: rows.Reviews,
    now: datetime,
) -> PracticeQueue:
    """The practice queue now, ordered as the practice page orders it."""
    return learner_queue(
        profile,
        [
            QueueCard(
                key=card.id,
                due=numbers[card.id].due if card.due_at is None else require_utc(card.due_at),
                redrill_until=numbers[card.id].redrill_until,
                predicted_recall=recall[card.id],
                new_rank=card.rank,
                last_reviewed_at=card.last_reviewed_at,
                held_until=card.buried_until,
            )
            for card in cards
            if not card.suspended
        ],
        now,
        done_today=Counter(review.kind for review in log.today),
        recent_keys=log.latest,
    )


def _weakest_items(
    cards: Sequence[rows.CardRow], recall: Mapping[int, float], recent: Mapping[int, list[float]]
) -> SafeString:
    """The items of "Weakest problems", as the template's loop wrote them."""
    items = []
    for card in cards:
        scores = recent[card.id]
        latest = ", ".join(f"{_percent(score)}%" for score in reversed(scores))
        items.append(
            f"<li>{card.number} · {escape(card.title)} — predicted recall "
            f"{_percent(recall[card.id])}%, latest score{'' if len(scores) == 1 else 's'} "
            f"{latest}</li>"
        )
    return mark_safe("".join(items))  # noqa: S308 - every text in it is escaped above


def _answer_rows(answers: Sequence[rows.AnswerRow]) -> SafeString:
    """The rows of "Your latest answers", as the template's loop wrote them."""
    parts = []
    for attempt in answers:
        tag = ' <span class="tag">regraded</span>' if attempt.regraded else ""
        when = date_filter(timezone.localtime(attempt.submitted_at), "j M, H:i")
        parts.append(
            f'\n      <tr><td><a href="{reverse("attempt", args=[attempt.pk])}">{attempt.number} · '
            f"{escape(attempt.title)}</a>{tag}</td>\n        <td>{when}</td>"
            f"<td>{escape(capfirst(attempt.purpose))}</td>\n"
            f"        <td>{_percent(attempt.score)}%</td></tr>\n    "
        )
    return mark_safe("".join(parts))  # noqa: S308 - every text in it is escaped above


def _mocks(user: User, now: datetime) -> dict[str, Any]:
    """The running mock and the latest ended ones, in one statement unless the running one's
    time is up: then the mock app ends it first (`dashboard_mocks`). At most one mock runs, and
    it is the latest started."""
    latest = rows.mocks(user.pk, RECENT_MOCKS + 1)
    running = latest[0] if latest and latest[0].ended_at is None else None
    if running is not None and running.deadline is not None and running.deadline < now - GRACE:
        return dashboard_mocks(user, now, RECENT_MOCKS)
    return {"running": running, "recent": [mock for mock in latest if mock.ended_at][:RECENT_MOCKS]}


# Charts.


def _forecast_chart(derived: Derived, today: date, forecast: list[int]) -> SafeString:
    key = (today, tuple(forecast))
    if derived.forecast is not None and derived.forecast[0] == key:
        return mark_safe(derived.forecast[1])  # noqa: S308 - drawn by charts, escaped there
    days = [today + timedelta(days=index) for index in range(FORECAST_DAYS)]
    chart = charts.bar_chart(
        [
            (day.isoformat(), count, day.strftime("%d %b") if index % 7 == 0 else "")
            for index, (day, count) in enumerate(zip(days, forecast, strict=True))
        ],
        title=f"Reviews due each day for the next {FORECAST_DAYS} days",
        unit=" reviews",
    )
    derived.forecast = (key, str(chart))
    return chart


def _heatmap_chart(derived: Derived, today: date, history: History, done_today: int) -> SafeString:
    key = (today, history.key, done_today)
    if derived.heatmap is not None and derived.heatmap[0] == key:
        return mark_safe(derived.heatmap[1])  # noqa: S308 - drawn by charts, escaped there
    chart = charts.heatmap_days(
        (*history.days, done_today), title="Reviews per day, past year", last_day=today
    )
    derived.heatmap = (key, str(chart))
    return chart


# Interview mode.


def _interview(
    profile: LearnerProfile,
    scheduler: Scheduler,
    cards: Sequence[rows.CardRow],
    numbers: Mapping[int, CardNumbers],
    states: Mapping[int, CardState],
    firsts: Mapping[int, tuple[ReviewRecord, ...]],
    today: date,
) -> dict[str, Any] | None:
    """Predicted state of each problem on the interview day (interview-date mode). A problem
    never reviewed has no prediction: its plan assumes every review passes, which says nothing
    about a problem the learner has not tried. Those come first, then the weakest.

    Each card's plan reads its first review of each learner day only: the days that had a
    review, and whether each day's first one passed, are all `plan_card` takes from the log."""
    interview_day = profile.interview_date
    if interview_day is None or not plans_for(interview_day, today):
        return None
    planned = []
    for card in cards:
        entry = numbers[card.id]
        history = firsts.get(card.id, ())
        key = (interview_day, tuple((record.quality, record.reviewed_at) for record in history))
        if entry.plan is None or entry.plan[0] != key:
            plan = plan_card(
                scheduler,
                InterviewCard(states[card.id], history),
                today=today,
                interview_day=interview_day,
            )
            entry.plan = (key, plan.recall_on_day, _interview_row(card, plan, bool(history)))
        planned.append((bool(history), entry.plan[1], card.number, entry.plan[2]))
    planned.sort(key=lambda row: row[:3])
    return {
        "date": interview_day,
        "days_left": (interview_day - today).days,
        "rows": mark_safe("".join(row for *_, row in planned)),  # noqa: S308 - escaped
    }


def _interview_row(card: rows.CardRow, plan: CardPlan, seen: bool) -> str:
    """A row of the interview table, as the template's loop wrote it."""
    recall = _percent(plan.recall_on_day) + "%" if seen else "not tried yet"
    if plan.shortfall:
        note = f"{plan.shortfall} short of the minimum: start it now"
    elif not seen:
        note = "no prediction before your first answer"
    elif plan.compressed:
        note = "spacing compressed to fit"
    else:
        note = ""
    return (
        f"\n      <tr><td>{card.number} · {escape(card.title)}</td>\n"
        f"        <td>{recall}</td>\n"
        f"        <td>{date_filter(plan.next_review, 'D j M') or '—'}</td>\n"
        f"        <td>{len(plan.review_days)}</td>\n"
        f"        <td>{note}</td></tr>\n    "
    )
