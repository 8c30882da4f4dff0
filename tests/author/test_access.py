"""Every URL of /author/: anonymous users are sent to log in, learners refused, instructors
served; unsafe methods need a CSRF token."""

import pytest
from django.test import Client

from problems.models import Regrade, ScenarioVersion, ValidationRun

pytestmark = pytest.mark.django_db


def _urls(problem, version, run, published, regrade):
    scenario = version.scenario
    gets = [
        "/author/",
        "/author/problems/new/",
        f"/author/problems/{problem.number}/",
        f"/author/problems/{problem.number}/edit/",
        f"/author/problems/{problem.number}/scenarios/new/",
        f"/author/problems/{problem.number}/stats/",
        f"/author/versions/{version.pk}/",
        f"/author/versions/{version.pk}/edit/",
        f"/author/versions/{version.pk}/preview/",
        f"/author/validations/{run.pk}/",
        "/author/import/",
        "/author/stats/",
        "/author/reference/",
        f"/author/problems/{published.scenario.problem.number}/export/",
        f"/author/scenarios/{published.scenario.pk}/export/",
        f"/author/regrades/{regrade.pk}/",
    ]
    posts = [
        f"/author/scenarios/{scenario.pk}/draft/",
        f"/author/versions/{version.pk}/validate/",
        f"/author/versions/{version.pk}/publish/",
        f"/author/versions/{version.pk}/discard/",
        "/author/check/",
        "/author/import/",
        "/author/stats/refresh/",
    ]
    return gets, posts


@pytest.fixture
def urls(draft26, instructor, loaded_bank):
    run = ValidationRun.objects.create(
        version=draft26,
        content_hash=draft26.content_hash,
        seeds=1000,
        created_at=draft26.created_at,
    )
    published = ScenarioVersion.objects.get(status="published")
    regrade = Regrade.objects.create(
        corrected=published, key_version=published, created_at=published.created_at
    )
    return _urls(draft26.scenario.problem, draft26, run, published, regrade)


def test_it_sends_anonymous_users_to_log_in(client, urls):
    gets, posts = urls
    for url in gets:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/accounts/login/?next="), url
    for url in posts:
        response = client.post(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_it_refuses_learners(client, learner, urls):
    client.force_login(learner)
    gets, posts = urls
    for url in gets:
        assert client.get(url).status_code == 403, url
    for url in posts:
        assert client.post(url).status_code == 403, url
    assert ScenarioVersion.objects.count() == 2


def test_it_serves_instructors(author, urls):
    gets, _ = urls
    for url in gets:
        assert author.get(url).status_code == 200, url


def test_it_needs_a_csrf_token_for_every_post(instructor, urls):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(instructor)
    _, posts = urls
    for url in posts:
        assert strict.post(url).status_code == 403, url
    assert ScenarioVersion.objects.count() == 2


def test_it_refuses_other_methods(author, urls):
    _, posts = urls
    assert author.get(posts[0]).status_code == 405
    assert author.put("/author/").status_code == 405


def test_it_shows_the_author_link_only_to_instructors(client, learner, instructor):
    client.force_login(learner)
    assert 'href="/author/"' not in client.get("/plan/").content.decode()
    client.force_login(instructor)
    assert 'href="/author/"' in client.get("/plan/").content.decode()
