"""Anki's suspend and bury: a card taken out of the queue, until it is unsuspended or until the
learner's next day begins. Its schedule is kept; the question on screen, if any, is put away (a
graded one keeps its automatic grade)."""

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from trainer.practice.changes import learner_changed
from trainer.practice.models import Card
from trainer.practice.services.profiles import PracticeError, get_profile
from trainer.practice.services.queue import introduce, own_problem
from trainer.srs import next_day_start


def _own_card_for_update(user: User, number: int, now: datetime) -> Card:
    """The learner's card of problem `number`, locked, created if the problem has none yet
    (suspending a problem not yet introduced keeps it out of the plan)."""
    problem = own_problem(number)
    introduce(user, [number], now)
    card = Card.objects.select_for_update().filter(user=user, problem=problem).first()
    if card is None:
        raise PracticeError(f"Problem {number} has no published scenario, so it has no card.")
    return card


def suspend(user: User, number: int, now: datetime, suspended: bool = True) -> Card:
    """The card leaves the queue until it is unsuspended (or comes back, `suspended` False)."""
    with transaction.atomic():
        card = _own_card_for_update(user, number, now)
        card.suspended = suspended
        fields = ["suspended"]
        if suspended:
            card.open_attempt = None
            fields.append("open_attempt")
        card.save(update_fields=fields)
        learner_changed(user.pk)
        return card


def bury(user: User, number: int, now: datetime, buried: bool = True) -> Card:
    """The card leaves the queue until the learner's next day begins (or comes back today,
    `buried` False)."""
    with transaction.atomic():
        card = _own_card_for_update(user, number, now)
        if buried:
            card.buried_until = next_day_start(now, get_profile(user).tz)
            card.open_attempt = None
        else:
            card.buried_until = None
        card.save(update_fields=["buried_until", "open_attempt"])
        learner_changed(user.pk)
        return card


def held_cards(user: User, now: datetime) -> list[Card]:
    """The learner's suspended cards and those buried until a later time, by problem number."""
    return list(
        Card.objects.filter(Q(suspended=True) | Q(buried_until__gt=now), user=user)
        .select_related("problem")
        .only("id", "suspended", "buried_until", "problem__number", "problem__title")
        .order_by("problem__number")
    )
