import pytest

from problems.loader import BankError, load_bank, read_bank
from problems.models import Problem, Scenario, ScenarioVersion

pytestmark = pytest.mark.django_db


def test_it_loads_a_problem_with_its_scenarios(bank_dir):
    report = load_bank(bank_dir)
    problem = Problem.objects.get(number=3)
    assert problem.page == 2
    assert problem.is_builtin
    assert problem.title.startswith("Size the KV cache")
    scenario = problem.scenarios.get()
    assert scenario.published_version.number == 1
    assert scenario.published_version.status == ScenarioVersion.Status.PUBLISHED
    assert report.problems_created == [3]


def test_it_is_idempotent(bank_dir):
    load_bank(bank_dir)
    report = load_bank(bank_dir)
    assert report.versions_created == [] and report.problems_updated == []
    assert report.unchanged == 1
    assert ScenarioVersion.objects.count() == 1


def test_it_makes_a_changed_scenario_a_new_version_and_keeps_the_old(bank_dir):
    load_bank(bank_dir)
    path = bank_dir / "03-kv-cache.yaml"
    path.write_text(
        path.read_text().replace(
            "users: {int: [30, 200], step: 10}", "users: {int: [30, 300], step: 10}"
        )
    )
    report = load_bank(bank_dir)
    scenario = Scenario.objects.get()
    assert report.versions_created == ["3/dense-gqa v2"]
    assert scenario.published_version.number == 2
    old = scenario.versions.get(number=1)
    assert old.status == ScenarioVersion.Status.RETIRED
    assert old.definition["params"]["users"] == {"int": [30, 200], "step": 10}


def test_it_updates_problem_text_without_a_new_version(bank_dir):
    load_bank(bank_dir)
    path = bank_dir / "03-kv-cache.yaml"
    path.write_text(path.read_text().replace("expected_minutes: 8", "expected_minutes: 9"))
    report = load_bank(bank_dir)
    assert report.problems_updated == [3]
    assert report.versions_created == []
    assert Problem.objects.get().expected_minutes == 9


def test_a_changed_model_answer_is_a_new_version_and_old_attempts_keep_theirs(bank_dir, learner):
    """The problem's texts are folded into each version: an attempt drawn from the old version
    still reads the model answer it was shown."""
    from django.utils import timezone

    from problems.models import Attempt
    from problems.variants import attempt_variant

    load_bank(bank_dir)
    path = bank_dir / "03-kv-cache.yaml"
    old_version = ScenarioVersion.objects.get()
    attempt = Attempt.objects.create(
        user=learner, version=old_version, seed=7, started_at=timezone.now()
    )
    before = attempt_variant(attempt).model_answer
    path.write_text(
        path.read_text().replace("Per token the cache is", "Per token, the KV cache is")
    )
    report = load_bank(bank_dir)
    assert report.versions_created == ["3/dense-gqa v2"]
    new = ScenarioVersion.objects.published().get()
    assert new.definition["model_answer"].startswith("Per token, the KV cache is")
    assert attempt_variant(attempt).model_answer == before
    assert before.startswith("Per token the cache is")


def test_it_rejects_a_bad_file_whole_and_changes_nothing(bank_dir):
    load_bank(bank_dir)
    (bank_dir / "04-broken.yaml").write_text(
        (bank_dir / "03-kv-cache.yaml")
        .read_text()
        .replace("number: 3", "number: 4")
        .replace("kv_per_token * context * users", "kv_per_tokn * context * users")
    )
    path = bank_dir / "03-kv-cache.yaml"
    path.write_text(path.read_text().replace("expected_minutes: 8", "expected_minutes: 9"))
    with pytest.raises(BankError) as caught:
        load_bank(bank_dir)
    assert "04-broken.yaml" in str(caught.value)
    assert "kv_per_tokn" in str(caught.value)
    assert Problem.objects.get().expected_minutes == 8
    assert not Problem.objects.filter(number=4).exists()


def test_it_refuses_two_files_with_one_number(bank_dir):
    (bank_dir / "03-copy.yaml").write_text((bank_dir / "03-kv-cache.yaml").read_text())
    with pytest.raises(BankError, match=r"more than one file: \[3\]"):
        read_bank(bank_dir)


def test_it_retires_a_scenario_removed_from_the_file(bank_dir):
    path = bank_dir / "03-kv-cache.yaml"
    text = path.read_text()
    load_bank(bank_dir)
    path.write_text(text.replace("key: dense-gqa", "key: renamed"))
    report = load_bank(bank_dir)
    assert report.scenarios_retired == ["3/dense-gqa"]
    published = ScenarioVersion.objects.published().values_list("scenario__key", flat=True)
    assert list(published) == ["renamed"]
    # Back in the file unchanged: its last version from the bank is published again.
    path.write_text(text)
    report = load_bank(bank_dir)
    assert report.versions_created == [] and report.scenarios_retired == ["3/renamed"]
    assert list(published.all()) == ["dense-gqa"]


def test_the_bank_titles_name_no_scenario_sizes():
    """A title describes the problem, not one of its scenarios: a context size (32K), a model
    size (70B) or a count of users (× 100) belongs to a scenario's numbers."""
    import re

    from problems.engine import load_problem_yaml
    from problems.loader import BANK_DIR

    titles = {
        path.name: load_problem_yaml(path.read_text()).title
        for path in sorted(BANK_DIR.glob("*.yaml"))
    }
    assert titles["03-kv-cache-70b.yaml"] == "Size the KV cache for many long-context users"
    for name, title in titles.items():
        assert not re.search(r"\d+\s*[KB]\b|\d+\s*×|×\s*\d+", title), (name, title)
