"""The solution's texts: model answer, trade-offs, follow-ups and self-check rendered with the
variant's numbers; problem-level texts folded into scenario definitions; `bank check` of the
numbers they state."""

import copy
import re
from types import SimpleNamespace

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from problems.engine import (
    ScenarioError,
    check_scenario,
    content_hash,
    draw_variant,
    load_problem,
    load_scenario,
    solution_texts,
    with_problem_texts,
)
from problems.engine.solution_numbers import stray_numbers

from .fixtures import CATALOGUE, PROBLEM_3


def problem_data():
    return yaml.safe_load(PROBLEM_3)


def the_scenario(data):
    return load_problem(data, catalogue=CATALOGUE).scenario("dense-gqa")


def test_the_model_answer_states_the_variants_own_numbers():
    scenario = the_scenario(problem_data())
    first, second = draw_variant(scenario, 3), draw_variant(scenario, 4)
    for variant in (first, second):
        assert variant.key_text("gpus_for_cache").split()[0] in variant.model_answer
        assert f"{variant.displays['users'].value} users" in variant.model_answer
        assert variant.env["model"].name in variant.model_answer
    assert first.model_answer != second.model_answer


def test_follow_ups_come_with_their_answers_rendered():
    variant = draw_variant(the_scenario(problem_data()), 3)
    (question, answer), (_, heads) = variant.follow_ups
    assert question == "What does an FP8 cache change here?"
    assert answer.startswith("It halves the ") and "{" not in answer
    assert f"each of the {variant.env['model'].kv_heads} KV heads" in heads


def test_a_scenarios_own_texts_replace_the_problems():
    data = problem_data()
    data["scenarios"][0]["model_answer"] = "Only {users} users here."
    data["scenarios"][0]["follow_ups"] = []
    variant = draw_variant(the_scenario(data), 3)
    assert variant.model_answer == f"Only {variant.displays['users'].value} users here."
    assert variant.follow_ups == ()
    assert variant.tradeoffs == tuple(data["tradeoffs"])  # not replaced: the problem's


def test_folding_adds_what_the_scenario_does_not_give_and_changes_nothing_else():
    data = problem_data()
    definition = data["scenarios"][0]
    definition["tradeoffs"] = ["The scenario's own."]
    before = copy.deepcopy(definition)
    folded = with_problem_texts(data, definition)
    assert definition == before  # pure
    assert folded["tradeoffs"] == ["The scenario's own."]
    assert folded["model_answer"] == data["model_answer"]
    assert folded["follow_ups"] == data["follow_ups"]
    assert folded["sources"] == data["sources"]
    assert "code" not in folded  # the problem has none
    assert with_problem_texts(data, folded) == folded  # idempotent
    assert {k: v for k, v in folded.items() if k in before} == before


def test_a_folded_definition_shows_alone_what_the_problem_showed():
    data = problem_data()
    folded = with_problem_texts(data, data["scenarios"][0])
    alone = draw_variant(load_scenario(folded, version=1, problem=3, catalogue=CATALOGUE), 5)
    with_problem = draw_variant(the_scenario(data), 5)
    for name in ("model_answer", "tradeoffs", "follow_ups", "self_check", "sources"):
        assert getattr(alone, name) == getattr(with_problem, name), name


def test_a_changed_problem_text_is_a_changed_version():
    data = problem_data()
    before = content_hash(with_problem_texts(data, data["scenarios"][0]))
    data["follow_ups"].append({"question": "And at 128K?", "answer": "Four times more."})
    after = content_hash(with_problem_texts(data, data["scenarios"][0]))
    assert before != after


def test_a_problem_text_that_does_not_fit_a_scenario_names_it():
    data = problem_data()
    data["model_answer"] = "It needs {replicas} replicas."
    data["follow_ups"][0]["answer"] = "{kv_totl}"
    with pytest.raises(ScenarioError) as caught:
        load_problem(data, catalogue=CATALOGUE)
    found = [str(error) for error in caught.value.errors]
    assert any(
        e.startswith(
            "model_answer (with the values of scenario 'dense-gqa'): placeholder "
            "{replicas}: unknown name 'replicas'"
        )
        for e in found
    ), found
    assert any(
        "follow_ups (with the values of scenario 'dense-gqa')[0].answer" in e
        and "did you mean 'kv_total'" in e
        for e in found
    ), found


def test_the_shape_of_follow_ups_code_and_sources_is_checked():
    data = problem_data()
    data["follow_ups"] = [{"question": "Only a question?"}, "a text"]
    data["code"] = [{"language": "fortran", "text": "x"}, {"language": "python"}]
    data["sources"] = [{"claim": "Unsourced.", "source": []}]
    with pytest.raises(ScenarioError) as caught:
        load_problem(data, catalogue=CATALOGUE)
    found = {str(error) for error in caught.value.errors}
    assert "follow_ups[0].answer: is required" in found
    assert "follow_ups[1]: must be a mapping of fields, got text" in found
    assert any(e.startswith("code[0].language: must be one of python") for e in found)
    assert "code[1].text: is required" in found
    assert "sources[0].source: must name at least one source" in found


def test_code_is_shown_as_written_braces_and_all():
    data = problem_data()
    data["code"] = [{"title": "A kernel", "language": "python", "text": "d = {'a': 1}\n"}]
    (block,) = draw_variant(the_scenario(data), 1).code
    assert (block.title, block.language, block.text) == ("A kernel", "python", "d = {'a': 1}\n")


def test_the_sample_json_carries_the_model_answer_and_follow_ups():
    variant = draw_variant(the_scenario(problem_data()), 3)
    data = variant.to_json()
    assert data["model_answer"] == variant.model_answer
    assert data["follow_ups"][0] == {
        "question": variant.follow_ups[0][0],
        "answer": variant.follow_ups[0][1],
    }


def test_a_version_without_texts_falls_back_to_the_problems_rendered():
    definition = problem_data()["scenarios"][0]  # as stored before texts were folded in
    variant = draw_variant(load_scenario(definition, catalogue=CATALOGUE), 3)
    assert variant.model_answer is None and variant.follow_ups == ()
    problem = SimpleNamespace(
        model_answer="{users} users.",
        tradeoffs=["Fits {gpu}.", "Uses {nothing_here}."],
        self_check=[],
    )
    texts = solution_texts(variant, problem)
    assert texts["model_answer"] == f"{variant.displays['users'].value} users."
    assert texts["tradeoffs"] == (f"Fits {variant.env['gpu'].name}.",)  # the other does not fit
    assert texts["follow_ups"] == ()
    assert solution_texts(variant)["model_answer"] == ""


# The check of the numbers the texts state.


def report_with(**texts):
    data = problem_data()
    data.update(texts)
    return check_scenario(the_scenario(data), seeds=30)


def messages(report):
    return [error["message"] for error in report["errors"]]


def test_the_example_problems_texts_pass():
    report = report_with()
    assert report["ok"], report["errors"]


def test_a_number_written_out_is_reported():
    report = report_with(model_answer="That is {kv_total}, so 15 H100s at 90% usable memory.")
    found = messages(report)
    assert any(m.startswith("model_answer: the number '15' is written out") for m in found)
    assert any("the number '90'" in m for m in found), found
    assert not any("'100'" in m for m in found)  # H100 is a name


def test_stray_numbers_in_trade_offs_and_follow_ups_are_reported_where_they_are():
    report = report_with(
        tradeoffs=["FP8 halves 1.07 TB."],
        follow_ups=[{"question": "At 32K?", "answer": "About {kv_total}."}],
    )
    found = messages(report)
    assert any(m.startswith("tradeoffs[0]: the number '1.07'") for m in found), found
    assert any(m.startswith("follow_ups[0].question: the number '32K'") for m in found), found


def test_names_and_small_numbers_are_not_numbers_to_check():
    text = (
        "Llama-3-70B on H100 or GB200 NVL72 in FP8, 4-bit, top-2 experts, p99, HTTP/2, 2:4 "
        "sparsity, 7Nh elements, 2 × layers, 1 or 0, `tcp_retries2`, EAGLE-3, d/128."
    )
    assert stray_numbers(text) == []
    assert stray_numbers("a 70B model at 32K tokens, 1,024 users, 3.5× and $3") == [
        "70B",
        "32K",
        "1,024",
        "3.5",
        "3",
    ]


@settings(max_examples=200)
@given(st.integers(min_value=3, max_value=10**9), st.sampled_from([" GPUs", "%", "×", ".", ""]))
def test_any_standalone_number_above_two_is_found(number, after):
    written = f"{number:,}"
    assert stray_numbers(f"It needs {written}{after}") == [written]
    assert stray_numbers(f"It needs H{number}{after}") == []


def test_a_constant_placeholder_is_a_deliberate_fact():
    assert report_with(model_answer="TCP gives up after about {15} minutes.")["ok"]


def test_a_constant_close_to_the_variants_answer_contradicts_it():
    report = report_with(model_answer="The cache needs {24} GPUs.")
    found = messages(report)
    assert any(
        re.match(r"model_answer: the constant \{24\} \('24' GPUs\) is close to gpus_\w+", m)
        for m in found
    ), found


def test_a_text_that_fails_for_a_variant_is_left_out_of_the_page():
    data = problem_data()
    data["tradeoffs"] = ["Fine.", "{users / (usable - 0.9)} per GPU."]
    data["follow_ups"][0]["answer"] = "{1 / (usable - 0.9)}"
    variant = draw_variant(the_scenario(data), 3)
    assert variant.tradeoffs == ("Fine.",)
    assert [question for question, _ in variant.follow_ups] == ["Why not count the query heads?"]
    assert variant.model_answer  # the others still render


def test_a_text_that_fails_to_render_is_reported():
    report = report_with(model_answer="{users / (usable - 0.9)} users.")
    assert any(m.startswith("model_answer: division by zero") for m in messages(report))
