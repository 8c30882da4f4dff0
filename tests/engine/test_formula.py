"""The formula language: what it computes, what it refuses, and that nothing else escapes."""

import math
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from problems.engine import FormulaError, compile_formula
from problems.engine.catalogue import NUMBER, TEXT

from .fixtures import CATALOGUE, FORMATS, GPU, GPUS, MODELS, Model, NumberFormat

NAMES = {
    "model": Model,
    "gpu": GPU,
    "dtype": NumberFormat,
    "context": NUMBER,
    "users": NUMBER,
    "alpha": NUMBER,
    "layers": NUMBER,
}
ENV = {
    "model": MODELS["llama-3-70b"],
    "gpu": GPUS["h100-sxm"],
    "dtype": FORMATS["bf16"],
    "context": 32768,
    "users": 100,
    "alpha": 0.8,
    "layers": 3,
}


def value(source, env=ENV, result=NUMBER):
    return compile_formula(source, NAMES, CATALOGUE, result=result).evaluate(env)


def refusal(source, env=ENV) -> str:
    with pytest.raises(FormulaError) as caught:
        value(source, env, result="any")
    return caught.value.message


# What it computes.


def test_kv_cache_of_llama_3_70b_matches_the_published_figure():
    # Llama-3-70B's config.json: 2 x 80 x 8 x 128 x 2 B = 327,680 B per token; x 32,768 tokens
    # x 100 users = 1.07 TB.
    per_token = "2 * model.layers * model.kv_heads * model.head_dim * dtype.bytes_per_element"
    assert value(per_token) == 327_680
    assert value(f"{per_token} * context * users") == 1_073_741_824_000
    assert value("kv_bytes_per_token(model, dtype) * context * users") == 1_073_741_824_000


def test_speculative_decoding_expectation_from_the_reference():
    # Leviathan et al.: alpha 0.8, gamma 4 -> (1 - 0.8**5) / (1 - 0.8) = 3.3616 tokens per step.
    assert value("(1 - alpha ** 5) / (1 - alpha)") == pytest.approx(3.3616, rel=1e-12)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("7 // 2", 3),
        ("7 % 4", 3),
        ("-users + +3", -97),
        ("2 ** 10", 1024),
        ("min(3, users, 7)", 3),
        ("max(1, 2.5)", 2.5),
        ("abs(-4)", 4),
        ("ceil(1.2)", 2),
        ("floor(-1.2)", -2),
        ("round(2.675, 2)", 2.68),  # half up on the decimal, not binary 2.67
        ("round(2.5)", 3),
        ("sqrt(16)", 4),
        ("log(8, 2)", 3),
        ("log2(1024)", 10),
        ("log10(1000)", 3),
        ("exp(0)", 1),
        ("gamma(5)", math.factorial(4)),
        ("gamma(0.5) ** 2", math.pi),  # Γ(1/2) = √π
        ("gamma(-0.5)", -2 * math.sqrt(math.pi)),  # Γ(x) = Γ(x + 1) / x
        ("lgamma(101)", math.log(math.factorial(100))),
        ("exp(lgamma(6))", 120),
        ("clip(250, 0, users)", 100),
        ("1 if users > 50 else 2", 1),
        ("1 if 0 < alpha < 1 else 2", 1),
        ("1 if users == 100 and not context != 32768 else 0", 1),
        ("0 or 5", 5),
        ("users >= 100", 1),
    ],
)
def test_it_computes_arithmetic_builtins_and_conditions(source, expected):
    assert value(source) == pytest.approx(expected)


def test_text_fields_are_readable_for_placeholders_but_not_numbers():
    assert value("model.name", result="any") == "Llama-3-70B"
    formula = compile_formula("gpu.interconnect", NAMES, CATALOGUE, result="any")
    assert formula.kind == TEXT
    assert "is text" in refusal("model.name * 3")
    with pytest.raises(FormulaError, match="gives text, not a number"):
        compile_formula("model.name", NAMES, CATALOGUE)


def test_it_records_the_names_and_functions_it_reads():
    formula = compile_formula(
        "kv_bytes_per_token(model, dtype) * context + layers", NAMES, CATALOGUE
    )
    assert formula.names == {"model", "dtype", "context", "layers"}
    assert formula.functions == {"kv_bytes_per_token"}


def test_it_suggests_the_name_that_was_meant():
    assert refusal("layerz * 2") == "unknown name 'layerz' (did you mean 'layers'?)"
    assert "did you mean 'kv_heads'?" in refusal("model.kv_head")
    assert "did you mean 'kv_bytes_per_token'?" in refusal("kv_byte_per_token(model, dtype)")


def test_evaluation_errors_are_plain_and_name_the_sub_expression():
    assert refusal("users / (context - 32768)") == "division by zero in 'users / (context - 32768)'"
    assert "not a finite number" in refusal("1e308 * 10 * users")
    assert "square root of a negative number" in refusal("sqrt(-users)")
    assert "logarithm needs a positive number" in refusal("log(users - 100)")
    assert "too large" in refusal("exp(users * 10)")
    assert refusal("gamma(users - 100)") == (
        "gamma(): Γ(x) is undefined at 0 and at the negative whole numbers, got 0"
    )
    assert "undefined at 0 and at the negative whole numbers, got -3" in refusal("gamma(-3)")
    assert refusal("gamma(users * 2)") == "'gamma(users * 2)' is too large"  # Γ(200)
    assert refusal("lgamma(100 - users)") == "lgamma(): ln Γ(x) needs x > 0, got 0"
    assert refusal("gamma(users, 2)") == "gamma() takes 1 argument(s), got 2"
    assert "negative number" in refusal("(-users) ** 0.5")


def test_a_missing_catalogue_figure_is_an_error_not_a_number():
    gpu = GPU("x", "No-bandwidth GPU", 80e9, math.nan, "none")
    env = {**ENV, "gpu": gpu}
    message = refusal("gpu.hbm_bandwidth * 2", env)
    assert message == "No-bandwidth GPU has no value for hbm_bandwidth"


def test_registered_function_failures_are_wrapped():
    assert refusal("kv_bytes_per_token(gpu, dtype)") == (
        "kv_bytes_per_token(): model must be a Model"
    )
    assert "broken() failed (KeyError" in refusal("broken(users)")
    assert "gave str, not a number" in refusal("gives_text(users)")
    assert "gave 3 numbers where one was expected" in refusal("gives_array(users)")
    assert "missing a required argument: 'kv_format'" in refusal("kv_bytes_per_token(model)")
    assert "unexpected keyword argument 'fmt'" in refusal(
        "kv_bytes_per_token(model, dtype, fmt=dtype)"
    )


def test_constant_sub_expressions_are_refused_when_the_formula_is_saved():
    # Refused by compile_formula itself, before any env exists.
    for source in ("1 / 0", "9 ** 9 ** 9", "log(0)", "users + 10 ** 400"):
        with pytest.raises(FormulaError):
            compile_formula(source, NAMES, CATALOGUE)


# The attack corpus: every payload refused with a clear message, each in well under 100 ms (the
# one wall-clock bound in these tests, because the issue asks for it; bench/engine.py measures
# the rest: evaluation speed, seed checks, sampling and YAML refusals).

ATTACKS = [
    "__import__('os').system('true')",
    "().__class__.__bases__[0].__subclasses__()",
    "model.__class__",
    "model.__init__.__globals__",
    "gpu.__dict__",
    "model._fields",
    "model.layers.__class__",
    "(1).__class__",
    "users.real",
    "__builtins__",
    "__builtins__['eval']('1')",
    "getattr(model, 'layers')",
    "globals()",
    "vars()",
    "open('/etc/passwd').read()",
    "eval('1')",
    "exec('x = 1')",
    "compile('1', '', 'eval')",
    "breakpoint()",
    "import os",
    "'{0.__class__}'.format(model)",
    "f'{model.__class__}'",
    "'%s' % users",
    "'a' * 10",
    "b'abc'",
    "model.name.upper()",
    "9**9**9",
    "10 ** 10 ** 10",
    "2 ** 100000",
    "(10 ** 18) ** (10 ** 18)",
    "users ** users ** users",
    "'x' * 10 ** 9",
    "1" + "+1" * 100_000,
    "(" * 1000 + "1" + ")" * 1000,
    "-" * 5000 + "1",
    "[" * 500 + "]" * 500,
    "max(" * 200 + "1" + ")" * 200,
    "lambda: 1",
    "(lambda x: x)(1)",
    "[x for x in range(10 ** 9)]",
    "sum(x for x in range(10 ** 9))",
    "{x: 1 for x in range(9)}",
    "{1, 2}",
    "[1, 2]",
    "(1, 2)",
    "x := 1",
    "(y := 1)",
    "max(*[1] * 10 ** 9)",
    "min(**{'a': 1})",
    "kv_bytes_per_token(gpu, dtype)",
    "kv_bytes_per_token('model', dtype)",
    "kv_bytes_per_token(model, True)",
    "kv_bytes_per_token(model, [1, 2])",
    "kv_bytes_per_token(model, dtype, extra=1)",
    "kv_bytes_per_token(*[model, dtype])",
    "gpus_needed(1e30, gpu)",
    "gpus_needed(-1, gpu)",
    "gpus_needed(users, model)",
    "gpus_needed(model.name, gpu)",
    "kv_bytes_per_token",
    "model(1)",
    "users(1)",
    "1e999",
    "1j",
    "...",
    "None",
    "\x00",
    "1 if",
    "",
    "   ",
    "a.b.c",
    "model.layers.real",
    "users @ users",
    "users << 1000000",
    "~users",
    "users in [1]",
    "users is 1",
    "await users",
    "yield users",
    "0 ** -1",
    "(-8) ** (1 / 3)",
]


@pytest.mark.parametrize("payload", ATTACKS, ids=range(len(ATTACKS)))
def test_every_attack_is_refused_quickly_with_a_clear_message(payload):
    start = time.perf_counter()
    with pytest.raises(FormulaError) as caught:
        formula = compile_formula(payload, NAMES, CATALOGUE, result="any")
        formula.evaluate(ENV)
    elapsed = time.perf_counter() - start
    assert elapsed < 0.1, f"{payload[:40]!r} took {elapsed * 1000:.0f} ms"
    message = caught.value.message
    assert message and len(message) < 300
    assert "Traceback" not in message


def test_the_attack_messages_say_what_was_wrong():
    assert refusal("lambda: 1") == "lambdas are not allowed"
    assert refusal("[x for x in range(9)]") == "comprehensions are not allowed"
    assert refusal("'a' * 10") == "text (string constants) is not allowed in a formula"
    assert refusal("model.__class__") == "fields starting with '_' are not allowed (__class__)"
    assert refusal("9**9**9").startswith("the exponent 387420489")
    assert refusal("1" + "+1" * 100_000).startswith("the formula is too long")
    assert refusal("-" * 500 + "1").startswith("the formula is nested too deeply")
    assert refusal("__import__('os')") == "names starting with '_' are not allowed (__import__)"
    assert refusal("open('/etc/passwd')").startswith("unknown function 'open'")
    assert refusal("getattr(model, 'layers')").startswith("unknown function 'getattr'")


# Fuzzing: whatever the text, only FormulaError comes out.

ALPHABET = st.sampled_from(
    list("0123456789.+-*/%()<>=!, _eE")
    + [
        "model",
        "gpu",
        "dtype",
        "users",
        "alpha",
        ".layers",
        ".name",
        ".kv_heads",
        "**",
        "//",
        " if ",
        " else ",
        " and ",
        " or ",
        "not ",
        "min(",
        "max(",
        "log(",
        "sqrt(",
        "ceil(",
        "kv_bytes_per_token(",
        "gpus_needed(",
        "1e308",
        "__",
        "'",
        "[",
        "lambda",
        "9**9",
    ]
)


def _compile_and_run(source):
    try:
        formula = compile_formula(source, NAMES, CATALOGUE, result="any")
    except FormulaError:
        return
    try:
        result = formula.evaluate(ENV)
    except FormulaError:
        return
    if formula.kind == NUMBER:
        assert isinstance(result, (int, float)) and math.isfinite(result)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ALPHABET, max_size=25).map("".join))
def test_fuzzed_token_soup_raises_only_formula_errors(source):
    _compile_and_run(source)


@settings(max_examples=800, deadline=None)
@given(st.text(max_size=60))
def test_fuzzed_text_raises_only_formula_errors(source):
    _compile_and_run(source)
