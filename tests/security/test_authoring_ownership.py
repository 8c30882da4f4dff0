"""The bank is shared: any instructor reads every scenario and starts a draft of their own from
it. A draft belongs to its author: only they edit, validate, publish or discard it. Publishing
records who published."""

import pytest
from django.utils import timezone

from problems import authoring, jobs
from problems.models import ScenarioVersion, ValidationRun
from tests.author.conftest import example_scenario
from trainer.accounts.roles import make_instructor

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft26(db, instructor):
    values = {"number": 26, "page": 2, "title": "Authored", "concepts": "", "tradeoffs": []}
    values.update(model_answer="", self_check=[], expected_minutes=6)
    problem = authoring.create_problem(instructor, values, timezone.now())
    return authoring.create_scenario(instructor, problem, example_scenario(), "", timezone.now())


@pytest.fixture
def colleague(django_user_model):
    user = django_user_model.objects.create_user("colleague", password="correct horse 4")
    make_instructor(user)
    return user


def _validated(draft, instructor, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        run = jobs.validate(instructor, draft, 1000, timezone.now())
    run.refresh_from_db()
    assert run.status == ValidationRun.Status.PASSED, run.report
    return run


def test_it_refuses_every_action_on_another_instructors_draft(
    client, draft26, instructor, colleague, django_capture_on_commit_callbacks
):
    _validated(draft26, instructor, django_capture_on_commit_callbacks)
    client.force_login(colleague)
    runs = ValidationRun.objects.count()
    page = client.get(f"/author/versions/{draft26.pk}/").content.decode()
    assert f"/author/versions/{draft26.pk}/validate/" not in page
    assert f"/author/versions/{draft26.pk}/publish/" not in page

    for action, data in [("validate", {"seeds": 1000}), ("publish", {}), ("discard", {})]:
        response = client.post(f"/author/versions/{draft26.pk}/{action}/", data, follow=True)
        assert "another instructor" in response.content.decode(), action
    draft26.refresh_from_db()
    assert draft26.status == ScenarioVersion.Status.DRAFT
    assert ValidationRun.objects.count() == runs


def test_it_records_who_published(client, draft26, instructor, django_capture_on_commit_callbacks):
    _validated(draft26, instructor, django_capture_on_commit_callbacks)
    client.force_login(instructor)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/author/versions/{draft26.pk}/publish/", follow=True)
    assert "is published" in response.content.decode()
    draft26.refresh_from_db()
    assert draft26.status == ScenarioVersion.Status.PUBLISHED
    assert draft26.published_by == instructor
    page = client.get(f"/author/versions/{draft26.pk}/").content.decode()
    assert "published by instructor" in page
