"""Instructors' text is text: markup in a title, concept, question, prompt, worked step, trade-off,
model answer or self-check renders escaped wherever it is shown: the author's pages and preview,
practice (question and result), the dashboard, the mock (question, report, worked solution)."""

import copy
import html

import pytest
from django.utils import timezone

from problems import authoring, jobs
from problems.models import Attempt
from problems.variants import attempt_variant
from tests.author.conftest import example_scenario
from tests.mock.helpers import answer, start

pytestmark = pytest.mark.django_db

SCRIPT = '<script>alert("owned")</script>'
IMAGE = '"><img src=x onerror=alert(1)>'
BAD = (SCRIPT, IMAGE)


def _marked(label):
    return f"{label} {SCRIPT} {IMAGE}"


@pytest.fixture
def hostile_version(instructor, django_capture_on_commit_callbacks):
    """A published problem whose every instructor-written text carries markup."""
    now = timezone.now()
    problem = authoring.create_problem(
        instructor,
        {
            "number": 26,
            "page": 9,
            "title": _marked("Title"),
            "concepts": _marked("Concepts"),
            "tradeoffs": [_marked("Trade-off")],
            "model_answer": _marked("Model answer"),
            "self_check": [_marked("Self-check")],
            "expected_minutes": 5,
        },
        now,
    )
    definition = copy.deepcopy(example_scenario())
    definition["title"] = _marked("Scenario")
    definition["text"] = _marked("Question") + "\n\n" + definition["text"]
    for part in definition["parts"]:
        part["prompt"] = _marked("Prompt") + " " + part["prompt"]
    definition["steps"] = [_marked("Step") + " " + step for step in definition["steps"]]
    version = authoring.create_scenario(instructor, problem, definition, "", now)
    with django_capture_on_commit_callbacks(execute=True):
        jobs.validate(instructor, version, 1000, now)
    jobs.publish(instructor, version, now)
    return version


def _assert_escaped(response, labels, where):
    assert response.status_code == 200, where
    page = response.content.decode()
    for bad in BAD:
        assert bad not in page, f"{where} shows raw {bad}"
    text = html.unescape(page)
    for label in labels:
        assert _marked(label) in text, f"{where} does not show the {label.lower()}"


def test_the_authors_pages_escape_it(client, instructor, hostile_version):
    client.force_login(instructor)
    version = hostile_version
    _assert_escaped(client.get("/author/problems/26/"), ["Title", "Concepts"], "problem page")
    _assert_escaped(
        client.get(f"/author/versions/{version.pk}/preview/"),
        ["Title", "Question", "Prompt", "Step", "Trade-off", "Model answer"],
        "preview",
    )
    _assert_escaped(
        client.get(f"/author/versions/{version.pk}/"), ["Question", "Prompt"], "version page"
    )
    _assert_escaped(client.get("/author/"), ["Title"], "problem list")


def test_practice_escapes_it(client, learner, hostile_version):
    client.force_login(learner)
    client.post("/practice/start/", {"what": "all"})
    _assert_escaped(client.get("/practice/"), ["Title", "Question", "Prompt"], "question")
    attempt = Attempt.objects.get(user=learner)
    variant = attempt_variant(attempt)
    answers = {f"part-{part.key}": variant.key_text(part.key) for part in variant.parts}
    result = client.post(f"/practice/attempts/{attempt.pk}/answer/", answers)
    everything = ["Title", "Question", "Prompt", "Step", "Trade-off", "Model answer", "Self-check"]
    _assert_escaped(result, everything, "result")
    _assert_escaped(client.get(f"/practice/attempts/{attempt.pk}/"), everything, "attempt page")
    _assert_escaped(client.get("/"), ["Title"], "dashboard")


def test_the_mock_escapes_it(client, learner, hostile_version):
    client.force_login(learner)
    mock = start(client, "drill", page=9)
    item = mock.items.get()
    _assert_escaped(
        client.get(f"/mock/{mock.pk}/problems/1/"), ["Title", "Question", "Prompt"], "mock page"
    )
    part = attempt_variant(item.attempt).parts[0]
    recorded = answer(client, mock, 1, part.key, "1", HTTP_HX_REQUEST="true")
    assert recorded.status_code == 200 and SCRIPT not in recorded.content.decode()
    client.post(f"/mock/{mock.pk}/finish/")
    _assert_escaped(client.get(f"/mock/{mock.pk}/report/"), ["Title", "Prompt"], "report")
    _assert_escaped(
        client.get(f"/mock/{mock.pk}/report/1/"),
        ["Title", "Question", "Prompt", "Step", "Trade-off", "Model answer", "Self-check"],
        "worked solution",
    )
