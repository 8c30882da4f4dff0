"""Checking a scenario over many seeds: what it catches and its report.

How long a 1,000-seed check takes is measured by bench/engine.py, not asserted here: a timing
assertion on a shared machine fails when the machine is busy, not when the code is slow.
"""

import copy
import json

import yaml

from problems.engine import check_problem, check_scenario, load_problem, load_scenario

from .fixtures import CATALOGUE, PROBLEM_3
from .test_variant import PROBLEM


def scenario_with(change):
    data = copy.deepcopy(yaml.safe_load(PROBLEM_3)["scenarios"][0])
    change(data)
    return load_scenario(data, catalogue=CATALOGUE)


def report_of(change, seeds=200):
    return check_scenario(scenario_with(change), seeds)


def messages(report):
    return [error["message"] for error in report["errors"]]


def test_the_example_problem_passes_with_the_bank_check_shape():
    report = check_problem(PROBLEM, seeds=1000)
    assert report["ok"], report
    assert (report["number"], report["page"]) == (3, 2)
    scenario = report["scenarios"][0]
    assert {"key", "version", "ok", "seeds_checked", "errors"} <= set(scenario)
    assert scenario["seeds_checked"] == 1000 and scenario["errors"] == []
    # Every mistake's rate is reported, the automatic ones and the opposite rounding included,
    # and the constraints keep each one outside the tolerance on at least 95% of seeds.
    rates = {(m["part"], m["tag"]): m for m in scenario["mistakes"]}
    assert rates[("gpus_for_cache", "all-memory-usable")]["distinct"] == 1
    assert rates[("kv_total", "gb-vs-gib")]["origin"] == "unit"
    rounding = [m for m in scenario["mistakes"] if m["origin"] == "rounding"]
    assert {m["part"] for m in rounding} == {"gpus_for_cache", "gpus_total"}
    assert all(m["distinct"] >= 0.95 for m in scenario["mistakes"])
    # The constraints audit: each constraint with the share of draws it rejects.
    audit = scenario["constraints"]
    assert [c["index"] for c in audit] == [0, 1, 2, 3]
    assert 0.5 < audit[1]["rejects"] < 0.9
    json.dumps(report)


def test_a_step_that_disagrees_with_the_key_is_reported():
    def change(data):
        data["steps"][0] = {
            "text": "Per token: {2 * kv_per_token:KiB}",
            "concludes": "kv_per_token",
        }

    found = messages(report_of(change))
    assert any("steps[0] shows" in m and "which grades incorrect" in m for m in found), found


def test_a_step_rounded_too_coarsely_for_the_tolerance_is_reported():
    def change(data):
        data["steps"][1] = "All users: {kv_total:TB,1s}"

    found = messages(report_of(change))
    assert any(m.startswith("steps[1] shows") and "rounded too coarsely" in m for m in found)


def test_a_part_without_a_concluding_step_is_reported():
    report = report_of(lambda data: data["steps"].pop())
    error = report["errors"][0]
    assert {key: error[key] for key in ("seed", "part", "message", "check")} == {
        "seed": None,
        "part": "gpus_total",
        "message": "no worked step concludes part 'gpus_total': end a step with {gpus_total} or "
        "give it `concludes: gpus_total`",
        "check": "steps",
    }
    assert error["explanation"].startswith("Every part needs a worked step")


def test_a_rounded_number_in_the_question_is_reported():
    def change(data):
        data["text"] += " Each GPU has {gpu.memory_bytes:GiB}."

    found = messages(report_of(change))
    assert any("text shows {gpu.memory_bytes:GiB} as '74.5 GiB'" in m for m in found), found


def test_an_unsatisfiable_space_is_reported_with_its_constraint():
    def change(data):
        data["constraints"].append({"formula": "users > 1000", "message": "a crowd"})

    report = report_of(change, seeds=20)
    assert not report["ok"]
    assert "constraint 4 ('users > 1000': a crowd) rejected" in messages(report)[0]
    assert "(on 20 of 20 seeds)" in messages(report)[0]


def only_the_first_constraint(data):
    """The example with only its first constraint, which accepts every draw: the acceptance
    rate is then the added constraint's alone."""
    data["constraints"] = data["constraints"][:1]


def test_a_nearly_empty_space_shows_in_the_acceptance_rate():
    def change(data):
        only_the_first_constraint(data)
        data["constraints"].append({"formula": "users == 200", "message": "exactly 200"})

    report = report_of(change, seeds=100)
    # 1 value in 18: the rate is near 1/18 and some seeds exhaust their 100 attempts.
    assert 0.03 < report["acceptance_rate"] < 0.09
    assert any("the constraints accept only" in m for m in messages(report))


def test_a_space_that_fails_rarely_but_too_often_for_learners_is_an_error():
    def change(data):
        only_the_first_constraint(data)
        data["constraints"].append({"formula": "users <= 40", "message": "a small team"})

    # 2 values in 18 (about 11%): 0.89**100 = 9e-6, one draw in about 110,000 would fail,
    # although 200 seeds may well all succeed.
    report = report_of(change, seeds=200)
    found = messages(report)
    assert any(m.startswith("the constraints accept only 1") for m in found), found


def test_keys_out_of_their_declared_range_or_unreadable_are_reported():
    def change(data):
        data["parts"][1]["range"] = [0.05, 1.5]
        data["parts"][0]["unit"] = "PB"

    found = messages(report_of(change))
    assert any("is outside the part's range [0.05, 1.5]" in m for m in found)
    assert any("choose a unit that makes it readable" in m for m in found)


def test_a_formula_failing_on_some_seeds_is_reported_with_a_seed():
    def change(data):
        data["derived"]["odd"] = "1 / (users - 100)"
        data["parts"][0]["answer"] = "kv_bytes_per_token(model, kv_format) + 0 * odd"

    report = report_of(change)
    error = report["errors"][0]
    assert error["message"].startswith("derived.odd: division by zero in '1 / (users - 100)'")
    assert isinstance(error["seed"], int)


def test_a_misconception_equal_to_the_key_on_every_seed_fails_and_is_warned_about():
    def change(data):
        data["parts"][0]["misconceptions"].append(
            {"tag": "same-thing", "formula": "key * 1.001", "feedback": "Never shown."}
        )

    report = report_of(change)
    assert not report["ok"]
    assert any("'same-thing' equals the key on every seed" in w for w in report["warnings"])
    (error,) = report["errors"]
    assert error["check"] == "mistakes" and error["part"] == "kv_per_token"
    assert (
        "'same-thing' falls within the tolerance of the key on 100.0% of 200 seeds"
        in (error["message"])
    )


def test_only_two_explicit_misconceptions_that_coincide_are_warned_about():
    # Llama-3-70B has 64 query heads over 8 KV heads: `query-heads-for-kv-heads` (key × 8) is
    # also the automatic `bits-vs-bytes` there. The part's entry wins by design: no warning.
    def pin_70b(data):
        data["params"]["model"] = {"model": ["llama-3-70b"]}

    report = report_of(pin_70b, seeds=50)
    assert report["ok"]
    assert not [w for w in report["warnings"] if "kv_per_token" in w], report["warnings"]

    def add_explicit_twin(data):
        pin_70b(data)
        data["parts"][0]["misconceptions"].append(
            {"tag": "eight-times", "formula": "key * 8", "feedback": "Eight times too much."}
        )

    report = report_of(add_explicit_twin, seeds=50)
    assert [w for w in report["warnings"] if "kv_per_token" in w] == [
        "part 'kv_per_token': misconceptions 'query-heads-for-kv-heads' and 'eight-times' give "
        "the same value on 50 of 50 seeds ('query-heads-for-kv-heads' is reported there)"
    ]


def test_check_problem_covers_every_scenario():
    data = yaml.safe_load(PROBLEM_3)
    second = copy.deepcopy(data["scenarios"][0])
    second["key"] = "broken-steps"
    second["steps"] = []
    data["scenarios"].append(second)
    report = check_problem(load_problem(data, catalogue=CATALOGUE), seeds=50)
    assert [s["ok"] for s in report["scenarios"]] == [True, False]
    assert not report["ok"]


def test_progress_is_reported_for_a_progress_bar():
    calls = []
    check_scenario(PROBLEM.scenario(), seeds=120, progress=lambda done, total: calls.append(done))
    assert calls == [50, 100, 120]
