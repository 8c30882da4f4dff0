"""The authoring pages and the YAML round trip on every problem of the real bank (whatever the
bank holds when the test runs: only its format is relied on)."""

import pytest
from django.utils import timezone

from problems import authoring
from problems.engine import content_hash, load_problem, load_yaml
from problems.loader import load_bank
from problems.models import Problem, ScenarioVersion

pytestmark = pytest.mark.django_db


@pytest.fixture
def real_bank():
    load_bank()
    return list(Problem.objects.order_by("number"))


def test_every_problem_exports_as_a_bank_file_and_imports_unchanged(real_bank, instructor):
    assert real_bank
    for problem in real_bank:
        text = authoring.export_problem(instructor, problem, timezone.now())
        document = load_yaml(text)
        load_problem(document)
        current = {
            version.scenario.key: version.content_hash
            for version in ScenarioVersion.objects.published()
            .filter(scenario__problem=problem)
            .select_related("scenario")
        }
        assert {s["key"]: content_hash(s) for s in document["scenarios"]} == current
        before = ScenarioVersion.objects.count()
        report = authoring.import_yaml(instructor, text, timezone.now(), seeds=20)
        assert report.drafts == [] and report.updated_fields == []
        assert ScenarioVersion.objects.count() == before


def test_every_current_version_previews(author, real_bank):
    versions = ScenarioVersion.objects.filter(status="published").select_related("scenario")
    for version in versions:
        response = author.get(f"/author/versions/{version.pk}/preview/?seed=0")
        html = response.content.decode()
        assert response.status_code == 200
        assert "This seed has no variant" not in html, version
        assert "Worked solution" in html
    assert author.get("/author/").status_code == 200
    for problem in real_bank:
        assert author.get(f"/author/problems/{problem.number}/").status_code == 200
