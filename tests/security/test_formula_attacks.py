"""The engine's formula attack corpus sent through the authoring pages: the live check, saving a
new scenario, saving an existing draft and importing YAML. Each payload is refused with a clear
message and never a server error.

Most payloads do not compile. A few compile and are refused only when evaluated (a GPU passed
where a model is expected, a negative byte count, an exponent that overflows for some
parameters): the editor's check evaluates every formula on sampled seeds and refuses to save a
draft whose draws fail. Either way nothing is saved. Imports check 200 seeds first and refuse
both kinds.
"""

import html
import re

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from problems import authoring
from problems.models import AuthoringLog, Problem, Scenario, ScenarioVersion
from tests.engine.test_formula import ATTACKS

pytestmark = pytest.mark.django_db

# The names the corpus uses, with the types the engine's own attack tests give them.
PARAMS = {
    "model": {"model": ["llama-3-8b", "llama-3-70b"]},
    "gpu": {"gpu": ["h100-sxm", "h200"]},
    "dtype": {"format": ["bf16", "fp8"]},
    "context": {"values": [4096, 32768]},
    "users": {"int": [10, 200], "step": 10},
    "alpha": {"values": [0.5, 0.8]},
    "layers": {"values": [32, 80]},
}


def _body(answer):
    return yaml.safe_dump(
        {
            "params": PARAMS,
            "text": "You serve {model} to {users} users on {gpu}.",
            "parts": [
                {"key": "total", "prompt": "How much KV cache?", "unit": "GB", "answer": answer}
            ],
            "steps": ["Total: {total}"],
        },
        allow_unicode=True,
    )


GOOD = "kv_bytes_per_token(model, dtype) * context * users"


def _form(answer, action="save"):
    return {
        "problem": "26",
        "key": "attack",
        "title": "An attack",
        "note": "",
        "body": _body(answer),
        "action": action,
    }


@pytest.fixture
def authoring_client(client, instructor):
    client.force_login(instructor)
    return client


@pytest.fixture
def problem26(db, instructor):
    return authoring.create_problem(
        instructor,
        {
            "number": 26,
            "page": 2,
            "title": "Attacked",
            "concepts": "",
            "tradeoffs": [],
            "model_answer": "",
            "self_check": [],
            "expected_minutes": 5,
        },
        timezone.now(),
    )


def _messages(page):
    """The error messages the check panel shows, as text."""
    section = re.search(r'<section id="check".*?</section>', page, re.S).group(0)
    return [
        html.unescape(re.sub(r"<[^>]+>", "", item)).strip()
        for item in re.findall(r"<li>(.*?)</li>", section, re.S)
    ]


def _state():
    return (
        list(Scenario.objects.order_by("pk").values()),
        list(ScenarioVersion.objects.order_by("pk").values()),
        AuthoringLog.objects.count(),
    )


@pytest.mark.parametrize("payload", ATTACKS, ids=range(len(ATTACKS)))
def test_each_attack_is_refused_by_the_check_and_the_draft_save(
    payload, authoring_client, problem26, django_capture_on_commit_callbacks
):
    client = authoring_client
    checked = client.post("/author/check/", _form(payload, "check"), HTTP_HX_REQUEST="true")
    assert checked.status_code == 200
    page = checked.content.decode()
    assert "No errors" not in page
    messages = _messages(page)
    assert messages and all(0 < len(message) < 400 for message in messages)
    assert all("Traceback" not in message for message in messages)
    compiles = "fails on a sample of" in page
    assert compiles or "in the definition" in page

    before = _state()
    saved = client.post("/author/problems/26/scenarios/new/", _form(payload))
    assert saved.status_code == 200
    assert _state() == before
    if compiles:
        assert all(re.match(r"seed \d+: parts\[0\]\.answer: ", m) for m in messages)
        assert "Not saved: a formula fails when it is evaluated" in saved.content.decode()
    else:
        assert _messages(saved.content.decode()) == messages


def test_attacks_cannot_replace_a_good_draft(authoring_client, problem26, instructor):
    client = authoring_client
    assert client.post("/author/problems/26/scenarios/new/", _form(GOOD)).status_code == 302
    draft = ScenarioVersion.objects.get()
    for payload in ATTACKS:
        before = _state()
        response = client.post(f"/author/versions/{draft.pk}/edit/", _form(payload))
        assert response.status_code == 200, payload
        draft.refresh_from_db()
        assert draft.definition["parts"][0]["answer"] == GOOD, payload
        assert _state() == before, payload


def test_every_attack_is_refused_by_the_import(authoring_client, problem26):
    client = authoring_client
    before = (_state(), list(Problem.objects.values()))
    for payload in ATTACKS:
        document = {"key": "attack", "title": "An attack", **yaml.safe_load(_body(payload))}
        upload = SimpleUploadedFile(
            "attack.yaml", yaml.safe_dump(document).encode(), content_type="application/yaml"
        )
        response = client.post("/author/import/", {"problem": 26, "file": upload})
        page = response.content.decode()
        assert response.status_code == 400, payload
        assert "The import was rejected; nothing was changed." in page, payload
        reasons = re.search(r'<ul class="errors">(.*?)</ul>', page, re.S).group(1)
        assert "parts[0].answer" in html.unescape(reasons), payload
    assert (_state(), list(Problem.objects.values())) == before
