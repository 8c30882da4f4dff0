from datetime import timedelta

from django.utils import timezone

from problems.models import Attempt, ScenarioVersion
from trainer.practice.models import Card, Review


def add_history(user, count):
    """`count` past reviews of the user's first card, one a day back from yesterday."""
    card = Card.objects.filter(user=user).first()
    version = ScenarioVersion.objects.filter(scenario__problem=card.problem).first()
    now = timezone.now()
    attempts = Attempt.objects.bulk_create(
        [
            Attempt(
                user=user,
                version=version,
                seed=n,
                started_at=now - timedelta(days=n + 1),
                submitted_at=now - timedelta(days=n + 1),
                score=1.0,
            )
            for n in range(count)
        ]
    )
    Review.objects.bulk_create(
        [
            Review(
                card=card,
                user=user,
                attempt=attempt,
                kind=Review.Kind.DUE,
                reviewed_at=attempt.submitted_at,
                score=1.0,
                automatic_quality=5,
                quality=5,
                state_before=card.state,
                scheduler="sm2",
            )
            for attempt in attempts
        ]
    )
