"""The scenario engine: scenario format, safe formulas, reproducible variants, answer parsing with
units, grading with tolerance and misconceptions, worked steps. Pure Python (no Django).

Typical use::

    problem = load_problem_yaml(text)            # or load_problem(dict)
    scenario = problem.scenario("dense-gqa")
    variant = draw_variant(scenario, seed=42)     # same variant in every process
    variant.text, variant.prompts, variant.steps
    results = grade_answers(variant, {"kv_per_token": "320 KiB", "kv_total": "1.07 TB"})
    results["kv_total"].to_json()                 # {"status", "score", "misconception", "message"}
    check_scenario(scenario, seeds=1000)          # {"ok", "seeds_checked", "errors", ...}
    variant.model_answer, variant.follow_ups      # the solution's texts, with the variant's numbers

The format is documented in problems/engine/FORMAT.md.
"""

from .answers import parse_answer
from .catalogue import Catalogue, default_catalogue
from .check import check_problem, check_scenario
from .errors import (
    EngineError,
    FieldError,
    FormulaError,
    ParseError,
    SamplingError,
    ScenarioError,
)
from .formula import Formula, compile_formula, formula_reference
from .grading import GradeResult, grade_answers, grade_part
from .misconceptions import LIBRARY, library_reference
from .schema import (
    Part,
    Problem,
    Scenario,
    content_hash,
    load_problem,
    load_problem_yaml,
    load_scenario,
    load_scenario_yaml,
    load_yaml,
)
from .solution import CodeBlock, Solution, Source, solution_texts, with_problem_texts
from .tolerance import Partial, Tolerance
from .units import UNITS, UnitSpec, display_unit, parse_unit
from .variant import Variant, draw_variant

__all__ = [
    "LIBRARY",
    "UNITS",
    "Catalogue",
    "CodeBlock",
    "EngineError",
    "FieldError",
    "Formula",
    "FormulaError",
    "GradeResult",
    "ParseError",
    "Part",
    "Partial",
    "Problem",
    "SamplingError",
    "Scenario",
    "ScenarioError",
    "Solution",
    "Source",
    "Tolerance",
    "UnitSpec",
    "Variant",
    "check_problem",
    "check_scenario",
    "compile_formula",
    "content_hash",
    "default_catalogue",
    "display_unit",
    "draw_variant",
    "formula_reference",
    "grade_answers",
    "grade_part",
    "library_reference",
    "load_problem",
    "load_problem_yaml",
    "load_scenario",
    "load_scenario_yaml",
    "load_yaml",
    "parse_answer",
    "parse_unit",
    "solution_texts",
    "with_problem_texts",
]
