import json

import pytest
from django.core.management import CommandError, call_command

from problems.loader import load_bank
from problems.models import ScenarioVersion

pytestmark = pytest.mark.django_db


@pytest.fixture
def loaded(bank_dir):
    load_bank(bank_dir)


def _json(capsys, *args):
    call_command("bank", *args)
    return json.loads(capsys.readouterr().out)


def test_it_samples_a_variant_as_json(loaded, capsys):
    data = _json(capsys, "sample", "3", "--seed", "7", "--json")
    assert {"problem", "scenario", "version", "seed", "params", "text", "parts", "steps"} <= set(
        data
    )
    assert data["problem"] == 3 and data["seed"] == 7 and data["version"] == 1
    assert [part["key"] for part in data["parts"]][:2] == ["kv_per_token", "kv_total"]
    assert {"key", "prompt", "unit", "answer", "tolerance"} <= set(data["parts"][0])
    assert data["params"]["model"]["key"] in {"llama-3-8b", "llama-3-70b"}


def test_it_samples_the_model_answer_and_follow_ups_rendered_for_the_variant(loaded, capsys):
    data = _json(capsys, "sample", "3", "--seed", "7", "--json")
    total = next(part for part in data["parts"] if part["key"] == "kv_total")
    assert f"{total['answer']:.3g} TB" in data["model_answer"]
    (question, answer), _ = [(f["question"], f["answer"]) for f in data["follow_ups"]]
    assert question == "What does an FP8 cache change here?"
    assert answer.startswith(f"It halves the {total['answer']:.3g} TB to ")


def test_a_version_stored_before_texts_were_folded_in_shows_its_problems(loaded, capsys):
    """Versions stored by an older loader carry no texts: the problem's row gives its model
    answer (rendered for the variant); the row has no follow-ups."""
    for version in ScenarioVersion.objects.all():
        for name in ("model_answer", "tradeoffs", "follow_ups", "self_check", "sources"):
            version.definition.pop(name, None)
        version.save(update_fields=["definition"])
    data = _json(capsys, "sample", "3", "--seed", "7", "--json")
    total = next(part for part in data["parts"] if part["key"] == "kv_total")
    assert f"{total['answer']:.3g} TB" in data["model_answer"]
    assert data["follow_ups"] == []


def test_it_draws_the_same_variant_for_the_same_seed(loaded, capsys):
    first = _json(capsys, "sample", "3", "--seed", "11", "--json")
    again = _json(capsys, "sample", "3", "--seed", "11", "--json")
    other = _json(capsys, "sample", "3", "--seed", "12", "--json")
    assert first == again
    assert first["text"] != other["text"] or first["parts"] != other["parts"]


def test_it_grades_the_key_as_correct(loaded, capsys):
    sample = _json(capsys, "sample", "3", "--seed", "7", "--json")
    total = next(part for part in sample["parts"] if part["key"] == "kv_total")
    answer = f"{total['answer']:.4g} TB"
    data = _json(
        capsys, "grade", "3", "--seed", "7", "--part", "kv_total", "--answer", answer, "--json"
    )
    assert data["status"] == "correct"
    assert data["score"] == 1
    assert set(data) == {"status", "score", "misconception", "message"}


def test_it_recognises_a_misconception(loaded, capsys):
    sample = _json(capsys, "sample", "3", "--seed", "7", "--json")
    per_token = next(part for part in sample["parts"] if part["key"] == "kv_per_token")
    half = f"{per_token['answer'] / 2:.5g} KiB"
    data = _json(
        capsys, "grade", "3", "--seed", "7", "--part", "kv_per_token", "--answer", half, "--json"
    )
    assert data["status"] == "incorrect"
    assert data["misconception"] == "kv-missing-factor-2"


def test_it_reports_a_parse_error(loaded, capsys):
    data = _json(
        capsys, "grade", "3", "--seed", "7", "--part", "kv_total", "--answer", "3.2 ms", "--json"
    )
    assert data["status"] == "parse_error"
    assert "time" in data["message"]


def test_it_checks_the_bank(loaded, capsys):
    data = _json(capsys, "check", "--json", "--seeds", "40")
    assert data["ok"] is True
    (problem,) = data["problems"]
    assert problem["number"] == 3 and problem["page"] == 2
    (scenario,) = problem["scenarios"]
    assert scenario["ok"] and scenario["seeds_checked"] == 40 and scenario["errors"] == []


def test_it_fails_the_check_on_an_empty_database(capsys):
    with pytest.raises(CommandError, match="bank check failed"):
        call_command("bank", "check", "--json", "--seeds", "5")
    assert json.loads(capsys.readouterr().out)["ok"] is False


def test_it_explains_an_unknown_problem(loaded):
    with pytest.raises(CommandError, match="There is no problem 99"):
        call_command("bank", "sample", "99", "--seed", "1")


def test_it_explains_an_unknown_part(loaded):
    with pytest.raises(CommandError, match="No part 'nope'"):
        call_command("bank", "grade", "3", "--seed", "1", "--part", "nope", "--answer", "1")


def test_it_checks_the_files_without_a_database(capsys, db):
    call_command("bank", "check", "--files", "--json", "--seeds", "3", "--problem", "3")
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True
    (problem,) = data["problems"]
    assert problem["number"] == 3 and problem["scenarios"]
