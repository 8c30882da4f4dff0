import pytest
import yaml

from tests.conftest import EXAMPLE_PROBLEM
from trainer.curriculum import load_curriculum

# Problems whose plan order differs from their numeric order: block 2 reaches 21 before 8, and
# block 3 reaches 17 before 11.
PLAN_SAMPLE = (8, 11, 17, 21)


def write_bank(directory, numbers):
    """A bank directory with the engine's example problem renumbered as each given problem, on
    the page the course puts it."""
    curriculum = load_curriculum()
    example = yaml.safe_load(EXAMPLE_PROBLEM.read_text())
    directory.mkdir(exist_ok=True)
    for number in numbers:
        data = dict(example, number=number, page=curriculum.page_of_problem(number).number)
        data["title"] = f"Example problem {number}"
        (directory / f"{number:02d}-example.yaml").write_text(yaml.safe_dump(data))
    return directory


@pytest.fixture
def course_bank(db, tmp_path):
    """Loads example problems as problems 1, 2 (page 01), 3 (page 02) and PLAN_SAMPLE."""
    from problems.loader import load_bank

    load_bank(write_bank(tmp_path / "course-bank", (1, 2, 3, *PLAN_SAMPLE)))


@pytest.fixture
def learner_client(client, learner):
    client.force_login(learner)
    return client
