"""docs/adding-a-problem.md, followed to the letter: its example file and its curriculum line,
taken from the page itself, make a problem 26 that the bank check passes, the loader loads, the
plan puts on its page and a learner practises through the web pages."""

import re
from pathlib import Path

import pytest

from problems.engine.check import check_scenario
from problems.loader import BankError, load_bank, read_bank
from problems.models import Problem
from problems.variants import variant_of
from tests.practice.helpers import open_attempt_of
from trainer import curriculum
from trainer.practice.models import Card, Review

ROOT = Path(__file__).resolve().parent.parent.parent
HOW_TO = ROOT / "docs" / "adding-a-problem.md"


def _examples():
    """The page's YAML blocks: the problem file, then the curriculum line."""
    problem_file, curriculum_line = re.findall(r"```yaml\n(.*?)```", HOW_TO.read_text(), re.S)
    return problem_file, curriculum_line


@pytest.fixture
def bank_with_26(bank_dir):
    problem_file, _ = _examples()
    (bank_dir / "26-how-fast-one-gpu-decodes.yaml").write_text(problem_file)
    return bank_dir


@pytest.fixture
def curriculum_with_26(tmp_path, monkeypatch):
    """trainer/curriculum.yaml with the page's one line changed, read in its place."""
    _, line = _examples()
    number = re.search(r"problems: \[(.*)\]", line).group(1).split(", ")
    before = f"problems: [{', '.join(number[:-1])}]"
    text = curriculum.CURRICULUM_PATH.read_text(encoding="utf-8")
    assert text.count(f"    {before}\n") == 1, "the line the page changes is in the curriculum"
    changed = tmp_path / "curriculum.yaml"
    changed.write_text(text.replace(f"    {before}\n", line), encoding="utf-8")
    monkeypatch.setattr(curriculum, "CURRICULUM_PATH", changed)
    curriculum.load_curriculum.cache_clear()
    yield
    curriculum.load_curriculum.cache_clear()


def test_the_example_passes_the_bank_check(bank_with_26):
    (_, _, problem) = next(item for item in read_bank(bank_with_26) if item[2].number == 26)
    for scenario in problem.scenarios:
        result = check_scenario(scenario, seeds=100)
        assert result["ok"], result["errors"][:3]


def test_a_learner_practises_the_new_problem(client, db, learner, bank_with_26, curriculum_with_26):
    load_bank(bank_with_26)
    assert Problem.objects.get(number=26).is_builtin
    client.force_login(learner)
    client.post("/practice/start/", {"what": "plan"})
    assert set(Card.objects.filter(user=learner).values_list("problem__number", flat=True)) == {
        3,
        26,
    }
    assert "How fast can one GPU decode a small model?" in client.get("/plan/pages/6/").text

    # Problem 3 out of the way, problem 26 is the question on screen.
    client.post("/practice/problems/3/hold/", {"action": "suspend"})
    attempt = open_attempt_of(client)
    assert attempt.version.scenario.problem.number == 26
    variant = variant_of(attempt.version, attempt.seed)
    answers = {f"part-{part.key}": variant.key_text(part.key) for part in variant.parts}
    html = client.post(f"/practice/attempts/{attempt.pk}/answer/", answers).text
    assert html.count('class="verdict correct"') == len(variant.parts) == 2
    review = Review.objects.get(attempt=attempt)
    assert client.post(f"/practice/reviews/{review.pk}/rate/", {"rating": "3"}).status_code == 302
    assert Card.objects.get(user=learner, problem__number=26).due_at is not None
    history = client.get("/practice/problems/26/").text
    assert f'<a href="/practice/attempts/{attempt.pk}/">Answer 1</a>' in history


def test_the_loader_leaves_an_instructors_problem_of_that_number_alone(
    db, instructor, bank_with_26
):
    Problem.objects.create(number=26, page=6, title="An instructor's own", created_by=instructor)
    with pytest.raises(BankError, match="problem 26 is an instructor's problem"):
        load_bank(bank_with_26)
    assert Problem.objects.get(number=26).title == "An instructor's own"
