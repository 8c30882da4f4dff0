"""Export a problem or a scenario as YAML in the bank's format; import it back; a failing
import is rejected whole and changes nothing."""

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from problems import authoring
from problems.engine import content_hash, load_problem, load_yaml, with_problem_texts
from problems.models import AuthoringLog, Problem, Scenario, ScenarioVersion
from tests.author.conftest import example_problem, example_scenario

pytestmark = pytest.mark.django_db


def _state():
    return (
        list(Problem.objects.order_by("pk").values()),
        list(Scenario.objects.order_by("pk").values()),
        list(ScenarioVersion.objects.order_by("pk").values()),
        AuthoringLog.objects.count(),
    )


def _folded_example():
    return with_problem_texts(example_problem(), example_scenario())


def test_it_exports_a_problem_in_the_banks_format(author, loaded_bank):
    response = author.get("/author/problems/3/export/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/yaml")
    assert 'attachment; filename="03-problem.yaml"' == response["Content-Disposition"]
    exported = load_yaml(response.content)
    original = example_problem()
    load_problem(exported)  # the engine reads it as a bank file
    assert exported["number"] == 3 and exported["title"] == original["title"]
    assert exported["tradeoffs"] == original["tradeoffs"]
    # Each version carries the problem's texts it shows, folded in by the loader.
    assert [content_hash(s) for s in exported["scenarios"]] == [
        content_hash(with_problem_texts(original, s)) for s in original["scenarios"]
    ]
    assert list(exported)[:3] == ["number", "page", "title"]
    assert AuthoringLog.objects.filter(action="export").count() == 1


def test_it_exports_one_scenario(author, loaded_bank):
    scenario = Scenario.objects.get()
    response = author.get(f"/author/scenarios/{scenario.pk}/export/")
    exported = load_yaml(response.content)
    assert content_hash(exported) == content_hash(_folded_example())
    assert list(exported)[:2] == ["key", "title"]


def test_export_then_import_round_trips(author, loaded_bank, instructor):
    text = author.get("/author/problems/3/export/").content.decode()
    # Into the same problem: everything equals the current versions, so nothing changes.
    before = _state()[:3]
    report = authoring.import_yaml(instructor, text, timezone.now())
    assert report.unchanged == ["dense-gqa"] and report.drafts == []
    assert _state()[:3] == before
    # As a new problem: the same content, as the importer's drafts.
    document = load_yaml(text)
    document["number"] = 27
    response = author.post("/author/import/", {"text": yaml.safe_dump(document)})
    assert response.status_code == 302 and response["Location"] == "/author/problems/27/"
    problem = Problem.objects.get(number=27)
    assert problem.title == Problem.objects.get(number=3).title and not problem.is_builtin
    draft = ScenarioVersion.objects.get(scenario__problem=problem)
    assert draft.status == "draft" and draft.created_by == instructor
    assert draft.content_hash == content_hash(_folded_example())
    # And the new problem exports once published as the same file, but for its number.
    assert authoring.problem_document(Problem.objects.get(number=3))["scenarios"] == [
        authoring.scenario_document(draft)
    ]


def test_an_import_that_fails_is_rejected_whole_and_changes_nothing(author, loaded_bank):
    document = example_problem()
    document["number"] = 28
    good = example_scenario()
    good["key"] = "another"
    bad = example_scenario()
    bad["key"] = "broken"
    bad["parts"][0]["answer"] = "kv_bytes_per_token(model, kv_format) * layerz"
    document["scenarios"] = [example_scenario(), good, bad]
    before = _state()
    response = author.post("/author/import/", {"text": yaml.safe_dump(document)})
    html = response.content.decode().replace("&#x27;", "'")
    assert response.status_code == 400
    assert "nothing was changed" in html
    assert "scenarios[2].parts[0].answer: unknown name 'layerz'" in html
    assert _state() == before


def test_an_import_failing_on_seeds_is_rejected_with_the_seed(author, loaded_bank):
    document = example_problem()
    document["number"] = 28
    document["scenarios"][0]["parts"][1]["range"] = [0, 0.5]
    before = _state()
    response = author.post("/author/import/", {"text": yaml.safe_dump(document)})
    html = response.content.decode()
    assert response.status_code == 400
    assert "scenarios[0] (dense-gqa) (seed " in html and "outside the part" in html
    assert _state() == before


def test_it_refuses_new_builtin_numbers_and_changes_to_builtin_fields(author, loaded_bank):
    document = example_problem()
    document["number"] = 7
    html = author.post("/author/import/", {"text": yaml.safe_dump(document)}).content.decode()
    assert "built-in problems" in html
    document["number"] = 3
    document["title"] = "Something else"
    before = _state()
    html = author.post("/author/import/", {"text": yaml.safe_dump(document)}).content.decode()
    assert "is built in" in html and "title" in html
    assert _state() == before


def test_it_imports_one_scenario_into_a_problem_from_an_upload(author, problem26, instructor):
    upload = SimpleUploadedFile(
        "scenario.yaml", yaml.safe_dump(example_scenario()).encode(), "application/yaml"
    )
    response = author.post("/author/import/", {"file": upload, "problem": 26})
    assert response.status_code == 302
    version = ScenarioVersion.objects.get()
    assert version.scenario.problem == problem26 and version.status == "draft"
    assert AuthoringLog.objects.filter(action="import", problem=problem26).exists()
    # Importing it again leaves the draft alone; a changed one updates the importer's draft.
    authoring.import_yaml(
        instructor, yaml.safe_dump(example_scenario()), timezone.now(), into_problem=problem26
    )
    changed = example_scenario()
    changed["params"]["users"] = {"int": [30, 300], "step": 10}
    report = authoring.import_yaml(
        instructor, yaml.safe_dump(changed), timezone.now(), into_problem=problem26
    )
    assert report.drafts == [("dense-gqa", 1, "updated")]
    assert ScenarioVersion.objects.get().content_hash == content_hash(changed)


def test_a_single_scenario_needs_a_problem(author):
    response = author.post("/author/import/", {"text": yaml.safe_dump(example_scenario())})
    assert "choose the problem" in response.content.decode()
    response = author.post(
        "/author/import/", {"text": yaml.safe_dump(example_scenario()), "problem": 40}
    )
    assert "There is no problem 40" in response.content.decode()
    assert Scenario.objects.count() == 0


def test_it_caps_the_size_and_refuses_unsafe_yaml(author, problem26):
    huge = "text: " + "x" * (authoring.MAX_IMPORT_BYTES + 10)
    upload = SimpleUploadedFile("big.yaml", huge.encode(), "application/yaml")
    response = author.post("/author/import/", {"file": upload, "problem": 26})
    assert "larger than" in response.content.decode()
    anchors = "a: &x [1, 2]\nb: *x\n"
    html = author.post("/author/import/", {"text": anchors, "problem": 26}).content.decode()
    assert "anchors and aliases" in html
    python = "!!python/object/apply:os.system ['true']"
    html = author.post("/author/import/", {"text": python, "problem": 26}).content.decode()
    assert "not valid YAML" in html
    assert Scenario.objects.count() == 0


def test_a_problem_with_nothing_published_cannot_be_exported(author, draft26):
    response = author.get("/author/problems/26/export/")
    assert response.status_code == 302
    assert "no published scenario" in author.get("/author/problems/26/").content.decode()
