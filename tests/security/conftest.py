from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.utils import timezone

from problems import authoring, variants
from problems.models import (
    Attempt,
    Regrade,
    Scenario,
    ScenarioVersion,
    ValidationRun,
    VariantReport,
)
from tests.author.conftest import example_scenario
from tests.practice.helpers import right_answers
from trainer.mock import services as mock_services
from trainer.mock.models import Mock
from trainer.practice import services
from trainer.practice.models import Card


@pytest.fixture(autouse=True)
def fresh_compiled_cache():
    """Compiled versions are cached per process by id, and ids repeat between test databases."""
    yield
    variants._compiled.clear()


@dataclass
class World:
    """One of everything a URL can name, owned by `learner` (or authored by `instructor`)."""

    attempt: Attempt  # submitted, with a review
    open_attempt: Attempt
    review_id: int
    running_mock: Mock
    ended_mock: Mock
    part_key: str
    problem_number: int  # a built-in problem (3)
    authored_number: int  # the instructor's problem (26)
    scenario: Scenario
    draft: ScenarioVersion
    published: ScenarioVersion
    run: ValidationRun
    regrade: Regrade
    learner_id: int
    group_id: int
    report: VariantReport


@pytest.fixture
def world(loaded_bank, learner, other_learner, instructor):
    now = timezone.now()
    services.introduce_all(learner, now)
    card = Card.objects.get(user=learner)
    attempt = services.open_attempt(card, now - timedelta(minutes=30))
    answers = {key[len("part-") :]: text for key, text in right_answers(attempt).items()}
    review = services.submit(learner, attempt.pk, answers, now - timedelta(minutes=29)).review
    card.refresh_from_db()
    open_attempt = services.open_attempt(card, now)

    # A drill that ran out an hour ago, ended (and graded) when the running one started.
    ended, _ = mock_services.start(learner, "drill", now - timedelta(hours=1), page=2)
    running, _ = mock_services.start(learner, "drill", now, page=2)
    ended.refresh_from_db()
    assert ended.ended_at is not None and running.ended_at is None

    problem = authoring.create_problem(
        instructor,
        {
            "number": 26,
            "page": 2,
            "title": "An authored problem",
            "concepts": "",
            "tradeoffs": [],
            "model_answer": "",
            "self_check": [],
            "expected_minutes": 6,
        },
        now,
    )
    draft = authoring.create_scenario(instructor, problem, example_scenario(), "", now)
    run = ValidationRun.objects.create(
        version=draft, content_hash=draft.content_hash, seeds=1000, created_at=now
    )
    published = ScenarioVersion.objects.get(status="published")
    regrade = Regrade.objects.create(corrected=published, key_version=published, created_at=now)
    return World(
        attempt=attempt,
        open_attempt=open_attempt,
        review_id=review.pk,
        running_mock=running,
        ended_mock=ended,
        part_key=mock_services.variants.attempt_variant(running.items.get(position=1).attempt)
        .parts[0]
        .key,
        problem_number=3,
        authored_number=problem.number,
        scenario=draft.scenario,
        draft=draft,
        published=published,
        run=run,
        regrade=regrade,
        learner_id=learner.pk,
        group_id=instructor.groups.get().pk,
        report=VariantReport.objects.create(
            attempt=attempt, user=learner, message="The key looks wrong.", created_at=now
        ),
    )
