"""The dashboard's tables hold the numbers the schedulers give from the whole review log: the
page keeps only each card's first review of every day for interview mode, and draws the tables
in Python; here they are computed the long way and compared."""

import re
from datetime import timedelta

import pytest
from django.template.defaultfilters import date as date_filter
from django.template.defaultfilters import floatformat

from tests.dashboard.helpers import history, page, review
from trainer.practice import services
from trainer.practice.models import Card, Review
from trainer.srs import InterviewCard, ReviewRecord, learner_day, plan_interview


def _tables(html):
    interview = re.search(r"days to go.*?<tbody>(.*?)</tbody>", html, re.S).group(1)
    every = re.search(r"Every problem.*?<tbody>(.*?)</tbody>", html, re.S).group(1)
    cells = re.compile(r"<tr><td>(\d+) · [^<]*</td>(.*?)</tr>", re.S)
    return (
        {int(n): re.findall(r"<td>([^<]*)</td>", rest) for n, rest in cells.findall(interview)},
        {int(n): re.findall(r"<td>([^<]*)</td>", rest) for n, rest in cells.findall(every)},
    )


@pytest.mark.parametrize("scheduler", ["sm2", "fsrs"])
def test_the_tables_hold_the_numbers_of_the_whole_log(six, clock, learner, scheduler):
    history(six, clock, 5)
    review(six, clock, right=False, rating="1")  # today too, with a failure
    profile = services.get_profile(learner)
    profile.scheduler = scheduler
    profile.interview_date = (clock[0] + timedelta(days=6)).date()
    profile.save()
    services.recompute_cards(learner)
    interview, every = _tables(page(six))

    now = clock[0]
    today = learner_day(now, profile.tz)
    engine = services.scheduler_for(profile)
    cards = list(Card.objects.filter(user=learner).select_related("problem"))
    logs = {
        card.pk: tuple(
            ReviewRecord(quality, at)
            for quality, at in Review.objects.filter(card=card)
            .order_by("reviewed_at", "pk")
            .values_list("quality", "reviewed_at")
        )
        for card in cards
    }
    states = {card.pk: engine.state_from_dict(card.state) for card in cards}
    plans = plan_interview(
        engine,
        {card.pk: InterviewCard(states[card.pk], logs[card.pk]) for card in cards},
        today=today,
        interview_day=profile.interview_date,
    )
    assert len(interview) == len(every) == len(cards) == 6
    for card in cards:
        plan, seen = plans[card.pk], bool(logs[card.pk])
        recall, next_review, planned, _ = interview[card.problem.number]
        assert recall == (f"{round(plan.recall_on_day * 100)}%" if seen else "not tried yet")
        assert next_review == (date_filter(plan.next_review, "D j M") or "—")
        assert planned == str(len(plan.review_days))

        mastery = engine.mastery(states[card.pk], now)
        first, second, recall_now, count, _ = every[card.problem.number]
        reviewed = card.last_reviewed_at is not None
        assert recall_now == (f"{round(mastery.recall * 100)}%" if reviewed else "—")
        assert count == str(card.reviews_count)
        if scheduler == "sm2":
            assert first == (f"{mastery.interval_days} d" if reviewed else "new")
            assert second == floatformat(mastery.easiness, 2)
        else:
            stability = mastery.stability_days
            assert first == (f"{floatformat(stability, 1)} d" if stability else "new")
            assert second == (floatformat(mastery.difficulty, 1) or "—")
