from django.utils import timezone

from problems.models import Attempt, PartAnswer, ScenarioVersion
from trainer.practice import services as practice
from trainer.practice.models import Card, Review


def record_attempt(user, number, statuses, *, purpose="practice", submitted=True, now=None):
    """A graded attempt at a problem with one part answer per status, as practice or a mock
    would store it."""
    now = now or timezone.now()
    version = ScenarioVersion.objects.filter(scenario__problem__number=number).first()
    attempt = Attempt.objects.create(
        user=user,
        version=version,
        seed=len(statuses),
        purpose=purpose,
        started_at=now,
        submitted_at=now if submitted else None,
        score=sum(status == "correct" for status in statuses) / max(len(statuses), 1),
    )
    PartAnswer.objects.bulk_create(
        [
            PartAnswer(
                attempt=attempt,
                part_key=f"part{index}",
                status=status,
                score=1.0 if status == "correct" else 0.0,
            )
            for index, status in enumerate(statuses)
        ]
    )
    return attempt


def solve(user, *numbers):
    for number in numbers:
        record_attempt(user, number, ["correct", "correct"])


def record_review(user, number, elapsed_seconds, now=None):
    """A review of the learner's card for a problem that took ``elapsed_seconds``."""
    now = now or timezone.now()
    practice.introduce(user, [number], now)
    card = Card.objects.get(user=user, problem__number=number)
    attempt = record_attempt(user, number, ["correct"], now=now)
    return Review.objects.create(
        card=card,
        user=user,
        attempt=attempt,
        kind=Review.Kind.NEW,
        reviewed_at=now,
        score=1.0,
        elapsed_seconds=elapsed_seconds,
        automatic_quality=5,
        quality=5,
        state_before=card.state,
        scheduler="sm2",
    )
