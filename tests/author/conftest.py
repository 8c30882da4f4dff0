import copy
from pathlib import Path

import pytest
from django.utils import timezone

from problems import authoring, jobs
from problems.engine import load_yaml

EXAMPLE = Path(__file__).resolve().parent.parent / "engine" / "problem3.yaml"


def example_problem():
    """The engine's tested example problem (problem 3) as a dict."""
    return load_yaml(EXAMPLE.read_text())


def example_scenario():
    return copy.deepcopy(example_problem()["scenarios"][0])


def editor_body(definition):
    return authoring.editor_yaml(definition)


@pytest.fixture
def author(client, instructor):
    client.force_login(instructor)
    return client


@pytest.fixture
def problem26(db, instructor):
    return authoring.create_problem(
        instructor,
        {
            "number": 26,
            "page": 2,
            "title": "Size the KV cache of an authored problem",
            "concepts": "",
            "tradeoffs": ["Less cache, more users."],
            "model_answer": "",
            "self_check": [],
            "expected_minutes": 6,
        },
        timezone.now(),
    )


@pytest.fixture
def draft26(problem26, instructor):
    """Problem 26 with one scenario: the author's draft v1 of the example scenario."""
    return authoring.create_scenario(
        instructor, problem26, example_scenario(), "first", timezone.now()
    )


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    """Run what is enqueued with delay_on_commit (tasks are eager without Redis)."""

    def run(function, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return function(*args, **kwargs)

    return run


def publish_validated(version, actor, run_on_commit, corrects=()):
    """Validate `version` over 1,000 seeds (eagerly) and publish it."""
    run = run_on_commit(jobs.validate, actor, version, 1000, timezone.now())
    run.refresh_from_db()
    assert run.status == "passed", run.report
    return run_on_commit(jobs.publish, actor, version, timezone.now(), corrects)
