"""A draw reads which versions are published from the database every time (one statement with
the learner's last version), and takes the version itself from those the process has loaded: a
version published since is drawn from at once, in every process, and loaded the first time."""

import pytest
from django.db import transaction
from django.utils import timezone

from problems.models import ScenarioVersion, publish_version
from problems.variants import attempt_variant
from tests.practice.helpers import open_attempt_of, right_answers
from trainer.practice import services


def _new_version(old):
    definition = dict(old.definition)
    definition["title"] = "A corrected version"
    return ScenarioVersion.objects.create(
        scenario=old.scenario,
        number=old.number + 1,
        definition=definition,
        content_hash="c" * 64,  # another definition, another hash
    )


def test_a_version_published_later_is_drawn_from_at_once(practising, carded):
    attempt = open_attempt_of(practising)  # this process now holds the version drawn from
    old = attempt.version
    new = _new_version(old)
    with transaction.atomic():
        publish_version(new)
    practising.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    problem = old.scenario.problem
    published = set(
        ScenarioVersion.objects.published()
        .filter(scenario__problem=problem)
        .values_list("pk", flat=True)
    )
    assert new.pk in published and old.pk not in published
    for _ in range(5):
        assert services.pick_version(problem).pk in published
    card = services.practice_now(carded, problem.number, timezone.now())
    drawn = card.open_attempt
    assert drawn.pk != attempt.pk and drawn.version_id in published
    assert attempt_variant(drawn).parts  # drawn and compiled from the version as published


def test_a_problem_without_a_published_version_cannot_be_drawn(practising, carded):
    attempt = open_attempt_of(practising)
    problem = attempt.version.scenario.problem
    ScenarioVersion.objects.filter(scenario__problem=problem).update(
        status=ScenarioVersion.Status.RETIRED
    )
    with pytest.raises(services.PracticeError, match="no published scenario"):
        services.pick_version(problem)
