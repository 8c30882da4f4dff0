"""Server time of the practice loop on SQLite with 1,000 reviews of history (issue 6).

Run: .venv/bin/python bench/practice.py

Builds a fresh SQLite database in var/bench-practice.sqlite3 (WAL, as `make run` uses), loads the
real bank, gives one learner a card for every problem and 1,000 past reviews, then times, through
Django's test client in this process (the whole request/response cycle minus the network):
the practice page, submitting an answer, rating, and the dashboard. Prints medians and 95th
percentiles in milliseconds.
"""

import os
import re
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
DATABASE = ROOT / "var" / "bench-practice.sqlite3"
for suffix in ("", "-wal", "-shm"):
    Path(f"{DATABASE}{suffix}").unlink(missing_ok=True)
os.environ.update(
    DJANGO_SETTINGS_MODULE="trainer.settings",
    DEBUG="0",
    SECRET_KEY="bench-" + "x" * 50,
    DATABASE_URL=f"sqlite:///{DATABASE}",
    SECURE_SSL_REDIRECT="0",
    ALLOWED_HOSTS="testserver",
    ANSWER_RATE_LIMIT="100000000",  # one bench client stands for many learners
)
os.environ.pop("REDIS_URL", None)

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from problems.loader import load_bank  # noqa: E402
from problems.models import Attempt, ScenarioVersion  # noqa: E402
from problems.variants import attempt_variant  # noqa: E402
from trainer.practice import services  # noqa: E402
from trainer.practice.models import Card, Review  # noqa: E402

settings.STORAGES["staticfiles"] = {
    "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
}
ROUNDS = 200
HISTORY = 1000


def build():
    call_command("migrate", verbosity=0)
    load_bank()
    user = User.objects.create_user("bench", password="bench pass phrase")
    now = timezone.now()
    services.introduce_all(user, now)
    cards = list(Card.objects.filter(user=user).select_related("problem"))
    versions = {
        v.scenario.problem_id: v
        for v in ScenarioVersion.objects.filter(status="published").select_related("scenario")
    }
    attempts = Attempt.objects.bulk_create(
        [
            Attempt(
                user=user,
                version=versions[cards[n % len(cards)].problem_id],
                seed=n,
                started_at=now - timedelta(days=n + 1, minutes=5),
                submitted_at=now - timedelta(days=n + 1),
                score=1.0,
            )
            for n in range(HISTORY)
        ]
    )
    Review.objects.bulk_create(
        [
            Review(
                card=cards[n % len(cards)],
                user=user,
                attempt=attempt,
                kind=Review.Kind.DUE,
                reviewed_at=attempt.submitted_at,
                score=1.0,
                automatic_quality=5,
                quality=5,
                state_before=cards[n % len(cards)].state,
                scheduler="sm2",
            )
            for n, attempt in enumerate(attempts)
        ]
    )
    profile = services.get_profile(user)
    profile.daily_review_cap = 500
    profile.save()
    # Every card due, so each round has a question to answer.
    Card.objects.filter(user=user).update(
        due_at=now - timedelta(days=1), last_reviewed_at=now - timedelta(days=1)
    )
    return user


def timed(function, *args):
    start = time.perf_counter()
    response = function(*args)
    elapsed = (time.perf_counter() - start) * 1000
    assert response.status_code in (200, 302), response.status_code
    return elapsed, response


def main():
    user = build()
    client = Client()
    client.force_login(user)
    samples = {"GET /practice/": [], "POST answer": [], "POST rate": [], "GET / (dashboard)": []}
    for _ in range(3):  # warm: compile scenarios, fill caches
        client.get("/practice/")
        client.get("/")
    for _ in range(ROUNDS):
        elapsed, response = timed(client.get, "/practice/")
        samples["GET /practice/"].append(elapsed)
        attempt_id = re.search(r"/practice/attempts/(\d+)/answer/", response.content.decode())
        attempt = Attempt.objects.get(pk=int(attempt_id.group(1)))
        variant = attempt_variant(attempt)
        data = {f"part-{part.key}": variant.key_text(part.key) for part in variant.parts}
        elapsed, _ = timed(client.post, f"/practice/attempts/{attempt.pk}/answer/", data)
        samples["POST answer"].append(elapsed)
        review = Review.objects.get(attempt=attempt)
        elapsed, _ = timed(client.post, f"/practice/reviews/{review.pk}/rate/", {"rating": "3"})
        samples["POST rate"].append(elapsed)
        elapsed, _ = timed(client.get, "/")
        samples["GET / (dashboard)"].append(elapsed)
        # Keep the card due for the next round.
        Card.objects.filter(pk=review.card_id).update(
            due_at=timezone.now() - timedelta(days=1), redrill_until=None
        )
    print(f"SQLite, {HISTORY} reviews of history, {ROUNDS} rounds, Python {sys.version.split()[0]}")
    for name, values in samples.items():
        values.sort()
        p95 = values[int(0.95 * len(values)) - 1]
        print(f"{name:<22} median {statistics.median(values):6.2f} ms   p95 {p95:6.2f} ms")


if __name__ == "__main__":
    main()
