"""The scenario format: every error reported with its field path, YAML read safely."""

import copy

import pytest
import yaml

from problems.engine import (
    ScenarioError,
    content_hash,
    load_problem,
    load_problem_yaml,
    load_scenario,
    load_yaml,
)

from .fixtures import CATALOGUE, PROBLEM_3


def problem_data():
    return yaml.safe_load(PROBLEM_3)


def errors_of(data) -> list[str]:
    with pytest.raises(ScenarioError) as caught:
        load_problem(data, catalogue=CATALOGUE)
    return [str(error) for error in caught.value.errors]


def test_the_example_problem_loads_with_every_field():
    problem = load_problem_yaml(PROBLEM_3, catalogue=CATALOGUE)
    assert (problem.number, problem.page, problem.expected_minutes) == (3, 2, 8)
    scenario = problem.scenario("dense-gqa")
    assert [p.key for p in scenario.parts] == [
        "kv_per_token",
        "kv_total",
        "gpus_for_cache",
        "gpus_total",
    ]
    assert scenario.part("kv_total").uses == ("kv_per_token",)
    assert scenario.part("gpus_total").uses == ("kv_total",)
    assert [s.concludes for s in scenario.steps] == [p.key for p in scenario.parts]
    tags = [m.tag for m in scenario.part("kv_per_token").misconceptions]
    # Listed ones first, then the unit-level ones that fit KiB.
    assert tags == [
        "kv-missing-factor-2",
        "query-heads-for-kv-heads",
        "one-layer-for-all",
        "bits-vs-bytes",
        "gb-vs-gib",
    ]
    assert [m.tag for m in scenario.part("gpus_for_cache").misconceptions] == [
        "rounded-down",
        "all-memory-usable",
    ]


def test_an_unknown_name_is_reported_with_its_path_and_a_suggestion():
    data = problem_data()
    data["scenarios"][0]["parts"][0]["answer"] = "2 * model.layerz"
    data["scenarios"][0]["parts"][1]["answer"] = "kv_per_tokn * context"
    assert errors_of(data) == [
        "scenarios[0].parts[0].answer: a model has no field 'layerz' that formulas may read "
        "(did you mean 'layers'?)",
        "scenarios[0].parts[1].answer: unknown name 'kv_per_tokn' (did you mean 'kv_per_token'?)",
    ]


def test_every_error_in_a_definition_is_reported_at_once():
    data = problem_data()
    scenario = data["scenarios"][0]
    data["page"] = 11
    data["titel"] = "typo"
    scenario["params"]["users"] = {"int": [200, 20]}
    scenario["params"]["gpu"] = {"gpu": ["h100"]}
    scenario["parts"][0]["tolerance"] = {"relative": 2}
    scenario["parts"][1]["misconceptions"].append({"use": "bits-for-bytes"})
    scenario["parts"][2]["anwser"] = "1"
    scenario["steps"].append({"text": "{kv_total}", "concludes": "kv_totl"})
    errors = errors_of(data)
    assert errors == [
        "titel: unknown field (did you mean 'title'?)",
        "page: must be from 1 to 10, got 11",
        "scenarios[0].params.gpu.gpu[0]: unknown gpu 'h100' (did you mean 'h200'?)",
        "scenarios[0].params.users.int: low (200) is above high (20)",
        "scenarios[0].parts[0].tolerance.relative: must be a fraction below 1 (0.01 is 1%)",
        "scenarios[0].parts[1].misconceptions[2].use: unknown library misconception "
        "'bits-for-bytes' (did you mean 'bits-vs-bytes'?)",
        "scenarios[0].parts[2].anwser: unknown field (did you mean 'answer'?)",
        "scenarios[0].steps[4].concludes: 'kv_totl' is not a part (did you mean 'kv_total'?)",
    ]


def test_hidden_values_cannot_be_shown_in_the_question():
    data = problem_data()
    data["scenarios"][0]["text"] += " The answer is {kv_total} and {kv_exact}."
    assert errors_of(data) == [
        "scenarios[0].text: cannot show 'kv_exact' (a derived value): the question may show "
        "parameters and given values only, never derived values or answers",
        "scenarios[0].text: cannot show 'kv_total' (the answer to part 1): the question may show "
        "parameters and given values only, never derived values or answers",
    ]


def test_a_part_builds_only_on_earlier_parts():
    data = problem_data()
    parts = data["scenarios"][0]["parts"]
    parts[0]["answer"] = "kv_total / context / users"
    parts[1]["uses"] = ["gpus_total"]
    errors = errors_of(data)
    assert errors[0] == (
        "scenarios[0].parts[0].answer: uses 'kv_total', which is this part or a later one: a part "
        "can build only on earlier parts"
    )
    assert errors[1].startswith("scenarios[0].parts[1].uses[0]: 'gpus_total' is not an earlier")


def test_circular_definitions_and_name_clashes_are_refused():
    data = problem_data()
    scenario = data["scenarios"][0]
    scenario["derived"] = {"a": "b + 1", "b": "a * 2", "users": "1", "max": "2"}
    errors = errors_of(data)
    assert "scenarios[0].derived.users: 'users' is already defined as a parameter" in errors
    assert any(e.startswith("scenarios[0].derived.max: 'max' is reserved") for e in errors)
    assert "scenarios[0].derived.a: is defined in a circle: a → b → a" in errors


def test_placeholder_errors_name_the_placeholder():
    data = problem_data()
    data["scenarios"][0]["steps"][0] = "Per token: {kv_per_token:GiB:9s} and {model.layerz}"
    assert errors_of(data) == [
        "scenarios[0].steps[0]: placeholder {kv_per_token:GiB:9s}: unknown unit or option "
        "'GiB:9s': ':9s' is not part of a unit I can read",
        "scenarios[0].steps[0]: placeholder {model.layerz}: a model has no field 'layerz' that "
        "formulas may read (did you mean 'layers'?)",
    ]


def test_a_library_misconception_whose_default_does_not_fit_must_be_bound():
    data = problem_data()
    scenario = data["scenarios"][0]
    scenario["params"]["llm"] = scenario["params"].pop("model")
    for part in scenario["parts"]:
        part["answer"] = part["answer"].replace("model", "llm")
    scenario["derived"]["kv_exact"] = "kv_bytes_per_token(llm, kv_format) * context * users"
    scenario["given"]["weights"]["formula"] = "weight_bytes(llm, weight_format)"
    scenario["text"] = scenario["text"].replace("{model", "{llm")
    scenario["steps"] = [step.replace("model.", "llm.") for step in scenario["steps"]]
    for name in ("model_answer", "follow_ups"):  # they name the model too
        scenario[name] = "" if name == "model_answer" else []
    errors = errors_of(data)
    assert errors[0] == (
        "scenarios[0].parts[0].misconceptions[1].heads: is required by "
        "'query-heads-for-kv-heads' here: its default (model.attention_heads) does not fit this "
        "scenario (unknown name 'model')"
    )
    scenario["parts"][0]["misconceptions"][1].update(
        heads="llm.attention_heads", kv_heads="llm.kv_heads"
    )
    scenario["parts"][0]["misconceptions"][2]["layers"] = "llm.layers"
    load_problem(data, catalogue=CATALOGUE)


def test_parameter_spaces_are_checked():
    base = problem_data()["scenarios"][0]
    cases = {
        "float with neither step nor sig": ({"float": [0.5, 0.9]}, "float: give either step"),
        "log range with no value at 1 figure": (
            {"log": [1.1, 1.2], "sig": 1},
            "holds no value with 1 significant figures",
        ),
        "two spaces": ({"int": [1, 2], "values": [1]}, "must give exactly one space"),
        "int with a fraction": ({"int": [1, 2.5]}, "must be whole numbers"),
        "unknown unit": ({"int": [1, 2], "unit": "GIB"}, "did you mean GiB or Gib?"),
        "text in values": ({"values": [1, "two"]}, "must be a number, got text"),
    }
    for name, (space, message) in cases.items():
        data = copy.deepcopy(base)
        data["params"]["extra"] = space
        with pytest.raises(ScenarioError) as caught:
            load_scenario(data, catalogue=CATALOGUE)
        assert message in str(caught.value), name


def test_yaml_is_read_safely():
    with pytest.raises(ScenarioError, match="anchors and aliases"):
        load_yaml("a: &x [1, 2]\nb: *x\n")
    bomb = "a: &a [x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(20)
    )
    with pytest.raises(ScenarioError):  # bench/engine.py times these refusals
        load_yaml(bomb)
    with pytest.raises(ScenarioError, match="larger than"):
        load_yaml("a: " + "x" * 300_000)
    with pytest.raises(ScenarioError, match=r"line 2, column \d+: not valid YAML"):
        load_yaml("a: [1, 2\nb: {")
    with pytest.raises(ScenarioError, match="nesting depth"):
        load_yaml("[" * 10_000 + "]" * 10_000)
    with pytest.raises(ScenarioError, match="nested more than 40 levels"):
        load_yaml("[" * 100 + "]" * 100)
    with pytest.raises(ScenarioError, match="more than 20000 values"):
        load_yaml("[" + "1, " * 30_000 + "]")
    # Python-specific tags are refused by safe_load.
    with pytest.raises(ScenarioError, match="not valid YAML"):
        load_yaml("a: !!python/object/apply:os.system ['true']")


def test_yaml_booleans_as_field_names_are_explained():
    with pytest.raises(ScenarioError, match="quote it in YAML"):
        load_scenario(
            {"key": "x", "title": "t", "text": "t", "parts": [], True: 1}, catalogue=CATALOGUE
        )


def test_the_content_hash_ignores_key_order_but_not_content():
    data = problem_data()["scenarios"][0]
    reordered = dict(reversed(list(data.items())))
    assert content_hash(data) == content_hash(reordered)
    changed = copy.deepcopy(data)
    changed["parts"][0]["tolerance"] = {"relative": 0.02}
    assert content_hash(changed) != content_hash(data)


@pytest.mark.parametrize(
    "value",
    ["2026-02-30", "!!int abc", "!!float abc", "2026-01-01 10:00:00 +99:00", "!!timestamp x"],
)
def test_a_value_yaml_cannot_build_is_an_error_naming_its_line(value):
    """Scalars that parse as YAML but that PyYAML's constructors cannot build (an impossible
    date, an explicitly tagged number that is not one, an offset past 24 hours)."""
    with pytest.raises(ScenarioError, match=r"line 3, column 8: ") as caught:
        load_yaml(f"key: ok\nlist: [1, 2]\nwhen:  {value}\n")
    assert value.split()[-1] in str(caught.value) or "date" in str(caught.value)
