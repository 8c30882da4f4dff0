"""Which card is next: the learner's cards, the queue in their order, the card on screen and the
question drawn for it.

The practice page reads the cards as plain values (the queue needs a few columns of each) and
loads as model instances only the card on screen, with its problem (without the long texts the
question never shows) and its open attempt.
"""

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, F

from problems import attempts
from problems.models import Attempt, Problem, ScenarioVersion
from trainer.curriculum import load_curriculum
from trainer.practice.changes import learner_changed
from trainer.practice.models import Card, LearnerProfile, Review
from trainer.practice.services.profiles import (
    NotFound,
    PracticeError,
    get_profile,
    scheduler_for,
    today_start,
)
from trainer.srs import build_queue, queue_card
from trainer.srs.queue import PracticeQueue, QueueCard, QueueOrder

# What the queue and a question's header never show: left out of the card on screen.
PROBLEM_LONG_TEXTS = ("concepts", "tradeoffs", "model_answer", "self_check")


def own_problem(number: int) -> Problem:
    """The problem numbered `number` (every learner may practise every problem)."""
    problem = Problem.objects.filter(number=number).first()
    if problem is None:
        raise NotFound(f"There is no problem {number}.")
    return problem


# Introducing cards.


def plan_order() -> list[int]:
    """Problem numbers in the order the 24-hour plan reaches them; authored problems after."""
    return list(load_curriculum().problems_in_plan_order())


def introduce(user: User, numbers: Iterable[int], now: datetime) -> int:
    """Create the learner's cards for these problem numbers (those with a published scenario
    and no card yet), ranked in plan order. Returns how many were created."""
    order = {number: rank for rank, number in enumerate(plan_order())}
    existing = Card.objects.filter(user=user).values("problem_id")
    problems = (
        Problem.objects.filter(
            number__in=numbers, scenarios__versions__in=ScenarioVersion.objects.published()
        )
        .exclude(pk__in=existing)
        .distinct()
        .only("id", "number")
    )
    state = scheduler_for(get_profile(user)).new_state().to_dict()
    cards = [
        Card(
            user=user,
            problem=problem,
            rank=order.get(problem.number, 1000 + problem.number),
            state=state,
            introduced_at=now,
        )
        for problem in problems
    ]
    if cards:
        with transaction.atomic():
            Card.objects.bulk_create(cards, ignore_conflicts=True)
            learner_changed(user.pk)
    return len(cards)


def introduce_all(user: User, now: datetime) -> int:
    numbers = Problem.objects.values_list("number", flat=True)
    return introduce(user, list(numbers), now)


def practice_now(user: User, number: int, now: datetime) -> Card:
    """Open a question of problem `number` now, whatever the schedule says (the learner chose
    it): the card is created if needed, and practice shows this question next (a graded answer
    still waiting for its rating is left as it was rated: by the automatic grade)."""
    introduce(user, [number], now)
    with transaction.atomic():
        card = (
            Card.objects.filter(user=user, problem__number=number)
            .select_related("problem", "open_attempt")
            .first()
        )
        if card is None:
            raise PracticeError(
                f"Problem {number} is not in the bank yet, so it cannot be practised."
            )
        settle_pending(user)
        open_attempt(card, now)
        learner_changed(user.pk)
    return card


# The queue.


@dataclass
class UndoOffer:
    """The learner's latest review, which Undo would take back: its id and its problem."""

    pk: int
    problem_number: int


@dataclass
class PracticeScreen:
    """What the practice page shows: the card on screen and the day's numbers.

    `card` is a graded answer waiting for its rating (its `open_attempt` is submitted), else a
    question already drawn, else the queue's first card. `undo` is the learner's latest review
    when it can be undone (see `rating.undo`), else None."""

    card: Card | None
    due_total: int
    new_left: int
    redrills: int
    next_at: datetime | None
    done_today: int
    cards_total: int
    undo: UndoOffer | None = None


def learner_queue(
    profile: LearnerProfile,
    cards: Sequence[QueueCard],
    now: datetime,
    *,
    done_today: Mapping[str, int],
    recent_keys: Sequence[int],
) -> PracticeQueue:
    """The order of the learner's unsuspended `cards` now, under their daily limits and queue
    order: the practice page's and the home page's "due now" alike. `done_today` counts today's
    reviews by kind (re-drills count towards neither limit); `recent_keys`, the cards of the
    latest reviews, newest first."""
    return build_queue(
        cards,
        now,
        learner_tz=profile.tz,
        new_limit=profile.daily_new_limit,
        new_done_today=done_today.get(Review.Kind.NEW, 0),
        review_cap=profile.daily_review_cap,
        reviews_done_today=done_today.get(Review.Kind.DUE, 0),
        order=cast(QueueOrder, profile.queue_order),
        recent_keys=recent_keys,
    )


def practice_queue(user: User, profile: LearnerProfile, now: datetime) -> PracticeScreen:
    """The learner's queue now, and the card on screen."""
    scheduler = scheduler_for(profile)
    cards = list(
        Card.objects.filter(user=user).values(
            "id",
            "rank",
            "state",
            "due_at",
            "last_reviewed_at",
            "suspended",
            "buried_until",
            "open_attempt_id",
            number=F("problem__number"),
            started_at=F("open_attempt__started_at"),
            submitted_at=F("open_attempt__submitted_at"),
        )
    )
    counts = dict(
        Review.objects.filter(user=user, reviewed_at__gte=today_start(profile, now))
        .values_list("kind")
        .annotate(Count("id"))
        .order_by()
    )
    latest = list(
        Review.objects.filter(user=user)
        .order_by("-reviewed_at", "-id")
        .values("id", "kind", "card_id", "attempt_id")[:2]
    )
    active = [card for card in cards if not card["suspended"]]
    queue = learner_queue(
        profile,
        [
            queue_card(
                card["id"],
                scheduler,
                scheduler.state_from_dict(card["state"]),
                now,
                due=card["due_at"],
                new_rank=card["rank"],
                last_reviewed_at=card["last_reviewed_at"],
                held_until=card["buried_until"],
            )
            for card in active
        ],
        now,
        done_today=counts,
        recent_keys=[review["card_id"] for review in latest],
    )
    shown = _card_on_screen(active) or (cast(int, queue.keys[0]) if queue.keys else None)
    drawn = {card["id"] for card in active if card["open_attempt_id"] is not None}
    return PracticeScreen(
        card=_card_shown(shown, shown in drawn) if shown is not None else None,
        due_total=queue.due_total,
        new_left=len(queue.new_keys),
        redrills=len(queue.redrill_keys),
        next_at=queue.next_at,
        done_today=sum(counts.values()),
        cards_total=len(cards),
        undo=_undo_offer(latest[0] if latest else None, cards),
    )


def _undo_offer(
    latest: Mapping[str, Any] | None, cards: Sequence[Mapping[str, Any]]
) -> UndoOffer | None:
    """The latest review, when it can be undone: a practice review already rated or moved on
    from (its answer is no longer the one waiting on its card)."""
    if latest is None or latest["kind"] == Review.Kind.MOCK or latest["attempt_id"] is None:
        return None
    card = next((card for card in cards if card["id"] == latest["card_id"]), None)
    if card is None or card["open_attempt_id"] == latest["attempt_id"]:
        return None
    return UndoOffer(latest["id"], card["number"])


def _card_on_screen(cards: Sequence[Mapping[str, Any]]) -> int | None:
    """A graded answer waiting for its rating comes first, then a question already drawn, so a
    reload shows either again; that includes one the learner chose (practice_now) although the
    schedule did not ask for it yet. Returns the card's id, or None."""
    graded = [card for card in cards if card["submitted_at"] is not None]
    if graded:
        return cast(int, max(graded, key=lambda card: card["submitted_at"])["id"])
    drawn = [card for card in cards if card["open_attempt_id"] is not None]
    return cast(int, max(drawn, key=lambda card: card["started_at"])["id"]) if drawn else None


def _card_shown(card_id: int, drawn: bool) -> Card:
    """The card on screen with what the question needs: its problem (without its long texts)
    and, if a question is `drawn`, its open attempt with its version (without its definition,
    which only compiling a version the process has not compiled yet reads)."""
    cards = Card.objects.select_related("problem").defer(
        *(f"problem__{name}" for name in PROBLEM_LONG_TEXTS)
    )
    if drawn:
        cards = cards.select_related("open_attempt__version").defer(
            "open_attempt__version__definition"
        )
    return cards.get(pk=card_id)


# Drawing a variant for a card.


def pick_version(problem: Problem, last_version_id: int | None = None) -> ScenarioVersion:
    """A published version of one of the problem's scenarios, another than `last_version_id`
    (the card's last draw) when there is a choice, so a learner meets every setting of the
    problem. A version's definition is read only when the process has not compiled it yet
    (`problems.variants`)."""
    versions = list(
        ScenarioVersion.objects.published()
        .filter(scenario__problem_id=problem.pk)
        .only("id", "scenario_id", "number", "content_hash")
    )
    if not versions:
        raise PracticeError(f"Problem {problem.number} has no published scenario yet.")
    return random.choice([v for v in versions if v.pk != last_version_id] or versions)


def open_attempt(card: Card, now: datetime) -> Attempt:
    """The attempt on screen for this card: the open one, or a new draw."""
    attempt = card.open_attempt
    if attempt is not None and attempt.submitted_at is None:
        return attempt
    version = pick_version(card.problem, card.last_version_id)
    attempt = attempts.draw(card.user_id, version, Attempt.Purpose.PRACTICE, now)
    Card.objects.filter(pk=card.pk).update(open_attempt=attempt, last_version=version)
    card.open_attempt, card.last_version = attempt, version
    return attempt


def settle_pending(user: User, keep: int | None = None) -> None:
    """Graded answers still waiting for a rating keep their automatic grade: the learner moved
    on (answered another card, or chose one). At most one answer waits at a time; `keep` is a
    card whose answer stays."""
    waiting = Card.objects.filter(user=user, open_attempt__submitted_at__isnull=False)
    if keep is not None:
        waiting = waiting.exclude(pk=keep)
    waiting.update(open_attempt=None)
