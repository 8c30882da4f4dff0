"""Pages for a logged-in user carry their answers, keys and drafts: no shared cache may keep
them, and the browser must not keep them on disk (a shared computer's back button)."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/", "/practice/", "/plan/", "/mock/", "/practice/settings/"])
def test_it_marks_a_learners_pages_private_and_not_stored(client, loaded_bank, learner, url):
    client.force_login(learner)
    response = client.get(url)
    assert response.status_code == 200
    directives = {d.strip() for d in response["Cache-Control"].split(",")}
    assert {"private", "no-store"} <= directives


def test_it_marks_the_authoring_pages_too(client, loaded_bank, instructor):
    client.force_login(instructor)
    directives = client.get("/author/")["Cache-Control"]
    assert "private" in directives and "no-store" in directives


def test_it_leaves_public_pages_alone(client, db):
    response = client.get("/help/")
    assert "no-store" not in response.get("Cache-Control", "")
