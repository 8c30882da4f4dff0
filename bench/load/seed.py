"""Fill the load test's database: the real bank and learners with weeks of practice behind them.

Run by bench/load/run.py (which creates the empty database and sets DATABASE_URL), as
`.venv/bin/python bench/load/seed.py LEARNERS PASSWORD`; prints one summary line.

Each learner has a card for every problem of the bank and a review log made by playing their
past through the real SM-2 scheduler: cards are introduced in plan order, five a day, and each is
reviewed when it falls due (up to 8 hours late), a failed card re-drilled once or twice the same
day, until the learner has done their number of reviews (50 to 300); that past is placed so that
it ends 0 to 10 days ago. So the log, the cards' states and their due dates agree, and some cards
are due now, as after any break. Each review has its attempt (a published version of the
problem, a random seed) and an answer per part; the chance of getting a part right starts at
35-80 % and rises with each repetition, and four reviews in seven carry a self-rating. One learner
in four has an interview date, which sends their reviews through interview mode. Everything is
bulk-inserted; all learners share one password hash (hashing is slow on purpose).
"""

import math
import os
import random
import sys
import time
from datetime import UTC, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.load.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.hashers import make_password  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.utils import timezone  # noqa: E402

from problems.loader import load_bank  # noqa: E402
from problems.models import Attempt, PartAnswer, Problem, ScenarioVersion  # noqa: E402
from problems.variants import new_seed, variant_of  # noqa: E402
from trainer.practice import services  # noqa: E402
from trainer.practice.models import Card, LearnerProfile, Review  # noqa: E402
from trainer.srs import SelfRating, make_scheduler, review_quality  # noqa: E402

NEW_PER_DAY = 5
BATCH = 20  # learners per bulk insert


def published_versions():
    """{problem id: [(version, part keys)]} for every published scenario version."""
    versions = {}
    published = ScenarioVersion.objects.published().select_related("scenario__problem")
    for version in published:
        keys = [part.key for part in variant_of(version, 1).parts]
        versions.setdefault(version.scenario.problem_id, []).append((version, keys))
    return versions


def learner_past(rng, user, problems, versions, ranks, now):
    """Cards, and (attempt, review, part answers) rows, of one learner's past that ended 0 to 10
    days ago."""
    seed = rng.getrandbits(64)
    stopped = now - timedelta(days=rng.uniform(0, 10))
    # Play it once to see how long it took, then again from that many days earlier: the same
    # past (the scheduler counts whole days), ending when the learner stopped.
    early = stopped - timedelta(days=1000)
    _, history = play(seed, user, problems, versions, ranks, early, stopped)
    days = math.ceil((history[-1][1].reviewed_at - early) / timedelta(days=1))
    return play(seed, user, problems, versions, ranks, stopped - timedelta(days=days), stopped)


def play(seed, user, problems, versions, ranks, started, stopped):
    """Practice from `started` until the learner has done their number of reviews."""
    rng = random.Random(seed)
    scheduler = make_scheduler("sm2", learner_tz=UTC)
    target = rng.randint(50, 300)
    skill = rng.uniform(0.35, 0.8)
    ordered = sorted(problems, key=lambda problem: ranks[problem.pk])
    cards, events = {}, []
    for position, problem in enumerate(ordered):
        introduced = started + timedelta(days=position // NEW_PER_DAY, hours=rng.uniform(0, 12))
        cards[problem.pk] = Card(
            user=user,
            problem=problem,
            rank=ranks[problem.pk],
            state=scheduler.new_state().to_dict(),
            introduced_at=introduced,
        )
        events.append((introduced, problem.pk))
    states = {pk: scheduler.new_state() for pk in cards}
    history = []
    redrills = dict.fromkeys(cards, 0)
    while events and len(history) < target:
        events.sort(key=lambda event: event[0])
        at, problem_pk = events.pop(0)
        if at > stopped:
            break
        card = cards[problem_pk]
        expected = card.problem.expected_minutes * 60
        version, keys = rng.choice(versions[problem_pk])
        chance = min(0.95, skill + 0.08 * card.reviews_count)
        right = [rng.random() < chance for _ in keys]
        score = sum(right) / len(keys)
        elapsed = expected * rng.uniform(0.4, 1.6)
        self_rating = rng.choice([None, None, None, *SelfRating])
        automatic = review_quality(score, time_taken=elapsed, expected_time=expected)
        quality = review_quality(
            score, time_taken=elapsed, expected_time=expected, self_rating=self_rating
        )
        before = states[problem_pk]
        outcome_before = scheduler.outcome(before)
        if card.last_reviewed_at is None:
            kind = Review.Kind.NEW
        elif outcome_before.redrill_until is not None and at < outcome_before.redrill_until:
            kind = Review.Kind.REDRILL
        else:
            kind = Review.Kind.DUE
        outcome = scheduler.review(before, quality, at)
        states[problem_pk] = outcome.state
        attempt = Attempt(
            user=user,
            version=version,
            seed=new_seed(),
            started_at=at - timedelta(seconds=elapsed),
            submitted_at=at,
            score=score,
        )
        answers = [
            PartAnswer(
                attempt=attempt,
                part_key=key,
                text=f"{rng.uniform(1, 999):.3g}",
                status=PartAnswer.Status.CORRECT if ok else PartAnswer.Status.INCORRECT,
                score=1.0 if ok else 0.0,
                message="Correct." if ok else "Not within the tolerance of the key.",
            )
            for key, ok in zip(keys, right, strict=True)
        ]
        review = Review(
            card=card,
            user=user,
            attempt=attempt,
            kind=kind,
            reviewed_at=at,
            score=score,
            elapsed_seconds=elapsed,
            automatic_quality=automatic,
            self_rating=None if self_rating is None else int(self_rating),
            quality=quality,
            state_before=before.to_dict(),
            scheduler=scheduler.name,
        )
        history.append((attempt, review, answers))
        card.state = outcome.state.to_dict()
        card.due_at = outcome.due
        card.redrill_until = outcome.redrill_until
        card.last_reviewed_at = at
        card.reviews_count += 1
        card.lapses += int(quality < 3 and kind != Review.Kind.REDRILL)
        redrills[problem_pk] = redrills[problem_pk] + 1 if kind == Review.Kind.REDRILL else 0
        # A learner re-drills a failed card once or twice, then leaves it for another day.
        if (
            redrills[problem_pk] < 2
            and outcome.redrill_until is not None
            and at < outcome.redrill_until
        ):
            events.append((at + timedelta(minutes=rng.uniform(5, 30)), problem_pk))
        else:
            events.append((outcome.due + timedelta(hours=rng.uniform(0, 8)), problem_pk))
    return list(cards.values()), history


def profile_for(rng, user, today):
    interview = today + timedelta(days=rng.randint(7, 60)) if rng.random() < 0.25 else None
    return LearnerProfile(user=user, interview_date=interview)


def insert(batch):
    """Bulk-insert the cards, attempts, reviews and part answers of some learners."""
    Card.objects.bulk_create([card for cards, _ in batch for card in cards])
    rows = [row for _, history in batch for row in history]
    # Saved first, so the reviews and answers built around them pick up their new keys.
    Attempt.objects.bulk_create([attempt for attempt, _, _ in rows], batch_size=2000)
    Review.objects.bulk_create([review for _, review, _ in rows], batch_size=2000)
    PartAnswer.objects.bulk_create(
        [answer for _, _, answers in rows for answer in answers], batch_size=5000
    )
    return len(rows), sum(len(answers) for _, _, answers in rows)


def main(learners, password):
    began = time.perf_counter()
    call_command("migrate", verbosity=0)
    load_bank()
    rng = random.Random(20261130)
    now = timezone.now()
    problems = list(Problem.objects.all())
    versions = published_versions()
    problems = [problem for problem in problems if problem.pk in versions]
    plan = {number: rank for rank, number in enumerate(services.plan_order())}
    ranks = {problem.pk: plan.get(problem.number, 1000 + problem.number) for problem in problems}
    # One hash for everyone: hashing is deliberately slow (PBKDF2), and the learners share the
    # password anyway so that the load generator can log in as any of them.
    password_hash = make_password(password)
    users = User.objects.bulk_create(
        [
            User(username=f"learner{number:03d}", password=password_hash, date_joined=now)
            for number in range(learners)
        ]
    )
    LearnerProfile.objects.bulk_create([profile_for(rng, user, now.date()) for user in users])
    reviews = answers = 0
    for first in range(0, len(users), BATCH):
        batch = [
            learner_past(rng, user, problems, versions, ranks, now)
            for user in users[first : first + BATCH]
        ]
        with transaction.atomic():
            added_reviews, added_answers = insert(batch)
        reviews += added_reviews
        answers += added_answers
    due = Card.objects.filter(due_at__lte=now).count()
    new = Card.objects.filter(due_at__isnull=True).count()
    per_learner = sorted(Review.objects.values("user").annotate(n=Count("id")).values_list("n"))
    print(
        f"seeded {len(users)} learners, {len(problems)} problems, "
        f"{Card.objects.count()} cards ({due} due now, {new} new), {reviews} reviews "
        f"({per_learner[0][0]}-{per_learner[-1][0]} a learner), {reviews} attempts, "
        f"{answers} part answers in {time.perf_counter() - began:.0f} s"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
