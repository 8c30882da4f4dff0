"""Time the scenario engine (problems/engine) on the real estimator.

Run: .venv/bin/python bench/engine.py

Targets (issue 4): drawing a variant and grading all its parts under 2 ms median; validating a
scenario over 1,000 seeds under 1 s. The scenario is the engine's Problem 3 example
(tests/engine/problem3.yaml: four parts, a given value, a constraint, misconceptions on every
part), run against problems.estimator's catalogues and registered functions.

The unit tests assert no wall-clock times (a shared machine makes them flaky) except the attack
corpus's 100 ms per payload; the speeds they used to assert are measured here instead: formula
evaluation, a 1,000-seed check, the refusal of an unsatisfiable constraint space, and the YAML
loader's refusal of an alias bomb, deep nesting and an over-long list.
"""

import dataclasses
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from problems.engine import (  # noqa: E402
    FormulaError,
    SamplingError,
    ScenarioError,
    check_scenario,
    compile_formula,
    default_catalogue,
    draw_variant,
    grade_answers,
    load_problem_yaml,
    load_scenario,
    load_yaml,
)
from problems.engine.catalogue import NUMBER  # noqa: E402
from problems.engine.solution import Solution  # noqa: E402
from problems.estimator import catalogue as estimator  # noqa: E402

EXAMPLE = ROOT / "tests" / "engine" / "problem3.yaml"
ATTACKS = [
    "9**9**9",
    "'x' * 10 ** 9",
    "(" * 1000 + "1" + ")" * 1000,
    "1" + "+1" * 100_000,
    "().__class__.__bases__[0].__subclasses__()",
    "[x for x in range(10 ** 9)]",
    "kv_bytes_per_token(gpu, dtype)",
    "gpus_needed(1e300, gpu)",
]


_BOMB = "a: &a [x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(20)
)
YAML_ATTACKS = {
    "alias bomb": _BOMB,
    "10,000-deep nesting": "[" * 10_000 + "]" * 10_000,
    "100-deep nesting": "[" * 100 + "]" * 100,
    "30,000 values": "[" + "1, " * 30_000 + "]",
}


def slowest_refusal(function, cases, error):
    """The longest time `function` takes to refuse any of `cases` (each the best of 5 runs)."""
    worst = 0.0
    for case in cases:
        best = float("inf")
        for _ in range(5):
            start = time.perf_counter()
            try:
                function(case)
            except error:
                pass
            else:
                raise AssertionError(f"not refused: {str(case)[:40]}")
            best = min(best, time.perf_counter() - start)
        worst = max(worst, best)
    return worst


def answers_for(variant, round_trip: bool) -> dict[str, str]:
    """Typed answers: each key in its unit (`round_trip`), or a wrong value for every part."""
    answers = {}
    for part in variant.parts:
        value = part.answer if round_trip else part.answer * 1.5
        answers[part.key] = f"{value:.4g} {part.unit}"
    return answers


def main():
    problem = load_problem_yaml(EXAMPLE.read_text())
    scenario = problem.scenario()

    # Draw + grade every part, a fresh seed each time, right answers and wrong ones alternating.
    for seed in range(200):  # warm caches (units, regexes)
        grade_answers(draw_variant(scenario, seed), answers_for(draw_variant(scenario, seed), True))
    samples = []
    for seed in range(5000):
        start = time.perf_counter()
        variant = draw_variant(scenario, seed)
        results = grade_answers(variant, answers_for(variant, seed % 2 == 0))
        samples.append(time.perf_counter() - start)
        assert len(results) == len(scenario.parts)
    samples.sort()
    draw_only = []
    for seed in range(5000):
        start = time.perf_counter()
        draw_variant(scenario, seed)
        draw_only.append(time.perf_counter() - start)

    # The same check without the model answer and follow-ups, interleaved so that both see the
    # same load: the difference is what rendering and checking the solution's numbers costs.
    textless = dataclasses.replace(scenario, solution=Solution())
    checks, textless_checks = [], []
    for _ in range(5):
        start = time.perf_counter()
        report = check_scenario(scenario, seeds=1000)
        checks.append(time.perf_counter() - start)
        assert report["ok"], report["errors"]
        start = time.perf_counter()
        check_scenario(textless, seeds=1000)
        textless_checks.append(time.perf_counter() - start)

    start = time.perf_counter()
    for _ in range(20):
        load_problem_yaml(EXAMPLE.read_text())
    load_time = (time.perf_counter() - start) / 20

    names = {
        "model": estimator.Model,
        "gpu": estimator.GPU,
        "dtype": estimator.NumberFormat,
        "context": NUMBER,
        "users": NUMBER,
    }
    env = {
        "model": estimator.MODELS["llama-3-70b"],
        "gpu": estimator.GPUS["h100-sxm"],
        "dtype": estimator.FORMATS["bf16"],
        "context": 32768,
        "users": 100,
    }
    catalogue = default_catalogue()
    arithmetic = compile_formula(
        "2 * model.layers * model.kv_heads * model.head_dim * dtype.bytes_per_element"
        " * context * users",
        names,
        catalogue,
    )
    registered = compile_formula(
        "kv_bytes_per_token(model, dtype) * context * users", names, catalogue
    )
    evaluations = []
    for formula in (arithmetic, registered):
        runs = []
        for _ in range(7):
            start = time.perf_counter()
            for _ in range(20_000):
                formula.evaluate(env)
            runs.append((time.perf_counter() - start) / 20_000)
        evaluations.append(statistics.median(runs))

    worst_attack = 0.0
    for payload in ATTACKS:
        start = time.perf_counter()
        try:
            compile_formula(payload, names, catalogue, result="any").evaluate(env)
        except FormulaError:
            pass
        else:
            raise AssertionError(f"not refused: {payload[:40]}")
        worst_attack = max(worst_attack, time.perf_counter() - start)

    # An unsatisfiable space: every one of the 100 attempts drawn and rejected, then refused.
    empty = load_scenario(
        {
            "key": "empty",
            "title": "No variant",
            "params": {"users": {"int": [1, 10]}},
            "constraints": [{"formula": "users > 10", "message": "more than ten users"}],
            "text": "x",
            "parts": [{"key": "p", "prompt": "?", "answer": "1"}],
        }
    )
    empty_space = slowest_refusal(lambda seed: draw_variant(empty, seed), range(20), SamplingError)
    yaml_refusal = slowest_refusal(load_yaml, YAML_ATTACKS.values(), ScenarioError)

    def ms(seconds):
        return f"{seconds * 1000:9.3f} ms"

    print(
        f"scenario: {problem.number} / {scenario.key} ({len(scenario.parts)} parts), "
        f"real estimator, Python {sys.version.split()[0]}"
    )
    print(
        f"draw a variant + grade all parts, median of 5,000   {ms(statistics.median(samples))}"
        f"   (target < 2 ms)"
    )
    print(f"draw a variant + grade all parts, 95th percentile   {ms(samples[4750])}")
    print(f"draw a variant alone, median                        {ms(statistics.median(draw_only))}")
    print(
        f"check_scenario over 1,000 seeds, median of 5        {ms(statistics.median(checks))}"
        f"   (target < 1 s)"
    )
    print(
        f"  the same without its solution texts, median of 5  "
        f"{ms(statistics.median(textless_checks))}"
    )
    print(f"load and compile the problem file                   {ms(load_time)}")
    print(f"evaluate a compiled formula: arithmetic             {evaluations[0] * 1e6:9.2f} µs")
    print(f"evaluate a compiled formula: registered function    {evaluations[1] * 1e6:9.2f} µs")
    print(f"slowest refusal of {len(ATTACKS)} attack payloads             {ms(worst_attack)}")
    print(f"refuse an empty constraint space (100 attempts)     {ms(empty_space)}")
    print(
        f"slowest refusal of {len(YAML_ATTACKS)} YAML attacks (bomb, nesting)   {ms(yaml_refusal)}"
    )


if __name__ == "__main__":
    main()
