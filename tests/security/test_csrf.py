"""Every POST of the project needs the CSRF token: a client that sends none is refused with the
"form expired" page whoever it is, and nothing is written. With the token, as a form field or as
the header htmx sends, the same requests go through."""

import re

import pytest
from django.apps import apps
from django.test import Client

from tests.security.test_access_matrix import MATRIX, url_patterns

PERSONAS = ("anonymous", "learner", "instructor")


def _counts():
    """How many rows every model of the project has."""
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label not in {"contenttypes", "admin"}
    }


@pytest.fixture
def strict_clients(learner, instructor):
    clients = {}
    for persona in PERSONAS:
        client = Client(enforce_csrf_checks=True)
        if persona == "learner":
            client.force_login(learner)
        elif persona == "instructor":
            client.force_login(instructor)
        clients[persona] = client
    return clients


def test_every_post_without_a_token_is_refused_and_writes_nothing(world, strict_clients):
    assert set(MATRIX) == set(url_patterns())
    before = _counts()
    refused = []
    for row in MATRIX.values():
        path = row.url(world)
        for persona, client in strict_clients.items():
            response = client.post(path, row.data)
            if response.status_code != 403 or "This form has expired" not in (
                response.content.decode()
            ):
                refused.append(f"{persona} POST {path}: {response.status_code}")
    assert not refused, "POSTs that did not need a CSRF token:\n" + "\n".join(refused)
    # The clients logged in before the first count, so even the sessions are as they were.
    assert _counts() == before


def _token(client, path):
    html = client.get(path).content.decode()
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_the_token_as_a_form_field_or_as_htmx_sends_it_is_accepted(world, strict_clients):
    learner = strict_clients["learner"]
    token = _token(learner, "/practice/settings/")
    form = learner.post("/plan/blocks/1/goals/", {"csrfmiddlewaretoken": token})
    assert form.status_code == 302
    # htmx sends the token of <body hx-headers=...> as a header.
    html = learner.get(f"/mock/{world.running_mock.pk}/problems/1/").content.decode()
    header = re.search(r'hx-headers=\'\{"X-CSRFToken": "([^"]+)"\}\'', html).group(1)
    url = f"/mock/{world.running_mock.pk}/problems/1/parts/{world.part_key}/"
    recorded = learner.post(url, {"answer": "320"}, HTTP_X_CSRFTOKEN=header, HTTP_HX_REQUEST="true")
    assert recorded.status_code == 200 and "Recorded: " in recorded.content.decode()

    instructor = strict_clients["instructor"]
    token = _token(instructor, "/author/import/")
    check = instructor.post("/author/check/", {"csrfmiddlewaretoken": token, "body": ""})
    assert check.status_code == 200

    anonymous = strict_clients["anonymous"]
    token = _token(anonymous, "/accounts/login/")
    login = anonymous.post(
        "/accounts/login/",
        {"csrfmiddlewaretoken": token, "username": "learner", "password": "correct horse 1"},
    )
    assert login.status_code == 302 and login["Location"] == "/"


def test_a_token_from_another_session_is_refused(world, learner, other_learner):
    theirs = Client(enforce_csrf_checks=True)
    theirs.force_login(other_learner)
    token = _token(theirs, "/practice/settings/")
    mine = Client(enforce_csrf_checks=True)
    mine.force_login(learner)
    mine.get("/practice/settings/")  # my own CSRF cookie
    response = mine.post(f"/mock/{world.running_mock.pk}/finish/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 403
    world.running_mock.refresh_from_db()
    assert world.running_mock.ended_at is None
