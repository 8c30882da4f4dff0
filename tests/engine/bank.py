"""The problem bank as the engine loads it, for engine tests that run on the real problems."""

from functools import cache
from pathlib import Path

from problems.engine import Problem, Variant, draw_variant, load_problem_yaml

BANK = Path(__file__).resolve().parents[2] / "problems" / "bank"


@cache
def bank_problems() -> dict[int, Problem]:
    problems = (load_problem_yaml(path.read_text()) for path in sorted(BANK.glob("*.yaml")))
    return {problem.number: problem for problem in problems}


def bank_variant(number: int, scenario: str, seed: int) -> Variant:
    return draw_variant(bank_problems()[number].scenario(scenario), seed)


def bank_parts():
    """(problem number, scenario key, part) of every part of the bank."""
    return [
        (problem.number, scenario.key, part)
        for problem in bank_problems().values()
        for scenario in problem.scenarios
        for part in scenario.parts
    ]
