"""Instructors cannot stall the server: the live check, the editor's save, the preview and an
import stop at AUTHORING_TIME_LIMIT with a message naming what was slow, and the costly
registered functions refuse costly arguments.

The draft found by the attack: a derived value of 30 `erlang_c` calls behind a constraint that
almost always fails (so each seed is drawn 100 times). With c = 4,096 its live check took 92 s.
"""

import time

import pytest
from django.utils import timezone

from problems import authoring
from problems.models import Problem, Scenario, ScenarioVersion, ValidationRun

pytestmark = pytest.mark.django_db


def slow_body(servers):
    calls = " + ".join([f"erlang_c(rate, 1, {servers})"] * 30)
    return f"""params:
  rate: {{int: [100, 1000]}}
  users: {{int: [1, 1000]}}
derived:
  wait: {calls}
  again: {calls}
  more: {calls}
constraints:
  - formula: wait + again + more > 0 and users == 7
    message: almost never
text: |
  {{users}} users at {{rate}} requests per second.
parts:
  - key: answer
    prompt: How many users?
    unit: ""
    answer: users
steps:
  - "Users: {{answer}}"
"""


@pytest.fixture
def author(client, loaded_bank, instructor, settings):
    settings.AUTHORING_TIME_LIMIT = 1
    client.force_login(instructor)
    return client


def _timed(call):
    started = time.monotonic()
    response = call()
    return response, time.monotonic() - started


def test_the_live_check_stops_at_the_deadline_and_names_what_was_slow(author):
    data = {"problem": "3", "key": "slow", "title": "Slow", "body": slow_body(1024)}
    response, seconds = _timed(lambda: author.post("/author/check/", data))
    assert response.status_code == 200
    page = response.content.decode()
    assert "took longer than 1 s" in page and "erlang_c(rate, 1, 1024)" in page
    assert seconds < 5  # the whole check takes several times longer


def test_the_editor_refuses_to_save_a_draft_too_slow_to_check(author):
    data = {"key": "slow", "title": "Slow", "body": slow_body(1024), "action": "save"}
    response = author.post("/author/problems/3/scenarios/new/", data)
    assert response.status_code == 200
    assert "took longer than 1 s" in response.content.decode()
    assert not Scenario.objects.filter(key="slow").exists()


def test_the_preview_stops_at_the_deadline(author, instructor, settings):
    settings.AUTHORING_TIME_LIMIT = 0.5  # three seeds, not twenty: less to evaluate
    problem = Problem.objects.get(number=3)
    scenario = Scenario.objects.create(problem=problem, key="slow", title="Slow")
    definition = authoring.definition_from_form("slow", "Slow", slow_body(1024))
    version = ScenarioVersion.objects.create(
        scenario=scenario, number=1, definition=definition, content_hash="x", created_by=instructor
    )
    response, seconds = _timed(lambda: author.get(f"/author/versions/{version.pk}/preview/"))
    assert response.status_code == 200
    assert "The preview took longer than 0.5 s" in response.content.decode()
    assert seconds < 5


def test_an_import_stops_at_the_deadline_and_writes_nothing(author):
    document = "key: slow\ntitle: Slow\n" + slow_body(1024)
    response = author.post("/author/import/", {"text": document, "problem": 3})
    assert response.status_code == 400
    assert "took longer than 1 s" in response.content.decode()
    assert not Scenario.objects.filter(key="slow").exists()


def test_the_draft_as_found_is_refused_at_once(author):
    """c = 4,096 is past the cost limit of erlang_c: every draw fails fast, naming it."""
    data = {"problem": "3", "key": "slow", "title": "Slow", "body": slow_body(4096)}
    response, seconds = _timed(lambda: author.post("/author/check/", data))
    page = response.content.decode()
    assert "servers must be a whole number from 1 to 1024" in page
    assert seconds < 5


def test_erlang_c_refuses_costly_server_counts():
    from problems.estimator import queueing

    with pytest.raises(ValueError, match="servers must be a whole number from 1 to 1024"):
        queueing.erlang_c(100.0, 1.0, 4096)


def test_erlang_c_stops_early_with_the_same_result():
    """The early exit changes nothing: the full sum, term by term, for loads across the range."""
    from problems.estimator import queueing

    def full(a, c):
        term = total = 1.0
        for j in range(1, c + 1):
            term *= (c + 1 - j) / a
            total += term
        blocking = 1.0 / total
        return blocking / (1 - a / c * (1 - blocking))

    for load in (0.5, 3.0, 100.0, 500.0, 700.0, 1000.0, 1023.5):
        assert queueing.erlang_c(load, 1.0, 1024) == full(load, 1024)
    import numpy as np

    loads = np.array([0.5, 3.0, 100.0, 500.0, 1023.5])
    expected = [full(float(load), 1024) for load in loads]
    assert list(queueing.erlang_c(loads, 1.0, np.full(5, 1024))) == expected


def test_a_validation_fails_a_version_too_slow_to_serve(
    draft_in_problem_3, instructor, monkeypatch
):
    """Seeds that each take more than MAX_SECONDS_PER_SEED to draw would make every learner's
    question wait: such a version cannot pass, even within the time limit."""
    monkeypatch.setattr(authoring, "MAX_SECONDS_PER_SEED", 0.0001)
    run = ValidationRun.objects.create(
        version=draft_in_problem_3,
        content_hash=draft_in_problem_3.content_hash,
        seeds=1000,
        created_at=timezone.now(),
    )
    authoring.run_validation(run.pk)
    run.refresh_from_db()
    assert run.status == ValidationRun.Status.FAILED
    assert "on average to draw and check" in run.report["errors"][-1]["message"]


@pytest.fixture
def draft_in_problem_3(loaded_bank, instructor):
    from tests.author.conftest import example_scenario

    definition = {**example_scenario(), "key": "copy"}
    problem = Problem.objects.get(number=3)
    return authoring.create_scenario(instructor, problem, definition, "", timezone.now())
