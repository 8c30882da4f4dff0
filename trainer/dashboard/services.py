"""The learner's home page: the numbers and charts of practice (with the interview-day prediction)
and the mock interviews, in a constant number of queries. It sits above the learner apps.

Queries: the profile, the cards (with their problems), the queue's counts of today's reviews,
the review log, the learner's latest answers and regraded answers, and the latest mocks (after
ending any whose time is up). Everything else is computed from those.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import F

from problems.models import Attempt
from trainer import charts
from trainer.mock.services import dashboard_mocks
from trainer.practice import services
from trainer.practice.models import Review
from trainer.srs import (
    InterviewCard,
    ReviewRecord,
    forecast_reviews,
    learner_day,
    plan_interview,
    plans_for,
    reviews_per_day,
    streak,
    weakest,
)
from trainer.srs.dashboard import RECENT_REVIEWS

FORECAST_DAYS = 30
HEATMAP_DAYS = 371


def dashboard(user, profile, now):
    scheduler = services.scheduler_for(profile)
    cards = services.learner_cards(user)
    queue = services.practice_queue(user, profile, now, cards=cards)
    today = learner_day(now, profile.tz)
    log = _review_log(user)
    year_ago = now - timedelta(days=HEATMAP_DAYS)
    per_day = reviews_per_day(
        [review.reviewed_at for review in log if review.reviewed_at >= year_ago],
        profile.tz,
        first_day=today - timedelta(days=HEATMAP_DAYS - 1),
        last_day=today,
    )
    states = {card.pk: scheduler.state_from_dict(card.state) for card in cards}
    forecast = forecast_reviews(scheduler, states.values(), today=today, days=FORECAST_DAYS)
    mastery = []
    for card in sorted(cards, key=lambda card: card.problem.number):
        numbers = scheduler.mastery(states[card.pk], now)
        mastery.append(
            {
                "card": card,
                "problem": card.problem,
                "mastery": numbers,
                "reviewed": card.last_reviewed_at is not None,
            }
        )
    scores = {}
    for review in log:
        scores.setdefault(review.card_id, []).append(review.score)
    for row in mastery:
        row["recent_scores"] = scores.get(row["card"].pk, [])[-RECENT_REVIEWS:]
    recall = {row["problem"].number: row["mastery"].recall for row in mastery if row["reviewed"]}
    weakest_numbers = weakest(
        recall, {row["problem"].number: row["recent_scores"] for row in mastery}, count=5
    )
    by_number = {row["problem"].number: row for row in mastery}
    return {
        "profile": profile,
        "queue": queue,
        "due_now": queue.due_total + queue.redrills,
        "done_today": per_day.get(today, 0),
        "streak": streak([day for day, count in per_day.items() if count], today),
        "mastery": mastery,
        "weakest": [by_number[number] for number in weakest_numbers],
        "cards_total": len(cards),
        # Nothing practised yet: the page says what to do first instead of drawing empty charts.
        "first_steps": not cards and not log,
        "forecast_chart": charts.bar_chart(
            [
                (day.isoformat(), count, day.strftime("%d %b") if index % 7 == 0 else "")
                for index, (day, count) in enumerate(sorted(forecast.items()))
            ],
            title=f"Reviews due each day for the next {FORECAST_DAYS} days",
            unit=" reviews",
        ),
        "forecast_total": sum(forecast.values()),
        "heatmap_chart": charts.heatmap(
            per_day, title="Reviews per day, past year", last_day=today
        ),
        "reviews_last_year": sum(per_day.values()),
        "interview": _interview(profile, scheduler, cards, states, today, log),
        "recent_answers": _recent_answers(user),
        "regraded": _regraded(user),
        "mocks": _mocks(user, now),
    }


def _mocks(user, now):
    """The running mock and the latest ended ones (two queries when none has just expired)."""
    return dashboard_mocks(user, now)


@dataclass(frozen=True)
class LoggedReview:
    card_id: int
    reviewed_at: datetime
    score: float
    quality: int


def _review_log(user):
    """Every review of the learner, oldest first, in one query: the heatmap counts them, the
    weakest problems read their latest scores, interview mode replays them."""
    return [
        LoggedReview(*row)
        for row in Review.objects.filter(user=user)
        .order_by("reviewed_at", "pk")
        .values_list("card_id", "reviewed_at", "score", "quality")
    ]


def _interview(profile, scheduler, cards, states, today, log):
    """Predicted state of each problem on the interview day (interview-date mode). A problem
    never reviewed has no prediction: its plan assumes every review passes, which says nothing
    about a problem the learner has not tried. Those come first, then the weakest."""
    if not plans_for(profile.interview_date, today):
        return None
    history = {}
    for review in log:
        history.setdefault(review.card_id, []).append(
            ReviewRecord(review.quality, review.reviewed_at)
        )
    plans = plan_interview(
        scheduler,
        {
            card.pk: InterviewCard(states[card.pk], tuple(history.get(card.pk, ())))
            for card in cards
        },
        today=today,
        interview_day=profile.interview_date,
    )

    def order(card):
        return (card.pk in history, plans[card.pk].recall_on_day, card.problem.number)

    rows = [
        {"problem": card.problem, "plan": plans[card.pk], "seen": card.pk in history}
        for card in sorted(cards, key=order)
    ]
    return {
        "date": profile.interview_date,
        "days_left": (profile.interview_date - today).days,
        "rows": rows,
    }


RECENT_ANSWERS = 10


def _answers(user):
    # Plain rows, not model instances: the dashboard shows five fields of each.
    return Attempt.objects.filter(user=user, submitted_at__isnull=False).values(
        "pk",
        "submitted_at",
        "score",
        "purpose",
        "regrade_unseen",
        number=F("version__scenario__problem__number"),
        title=F("version__scenario__problem__title"),
        regraded=F("key_version_id"),
    )


def _recent_answers(user):
    """The learner's latest answers, each a link to its graded page."""
    return list(_answers(user).order_by("-submitted_at")[:RECENT_ANSWERS])


def _regraded(user):
    """Answers an instructor's corrected key has regraded, not yet opened by the learner."""
    return list(
        _answers(user).filter(regrade_unseen=True).order_by("-submitted_at")[:RECENT_ANSWERS]
    )
