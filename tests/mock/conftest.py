import pytest


@pytest.fixture
def mocking(client, loaded_bank, learner):
    """The learner, logged in, with the engine's problem 3 in the bank (and no cards)."""
    client.force_login(learner)
    return client


@pytest.fixture
def capstone_bank(bank_dir, loaded_bank):
    """Problem 25 added to the bank with two scenarios (problem 3's settings under two keys)."""
    from tests.mock.helpers import add_problem

    add_problem(bank_dir, 25, page=10, scenario_keys=("chat-fleet", "agentic"), minutes=20)


@pytest.fixture
def wide_bank(bank_dir, loaded_bank):
    """Problem 3 plus nine problems over pages 1-10 (page 2 gets a second one), all built from
    problem 3's definition: enough problems for a standard mock to choose from."""
    from tests.mock.helpers import add_problem

    for number, page in [
        (1, 1),
        (4, 2),
        (6, 3),
        (8, 4),
        (9, 5),
        (11, 6),
        (13, 7),
        (16, 8),
        (19, 9),
    ]:
        add_problem(bank_dir, number, page=page, minutes=5 + number % 7)
