"""The course's pages and 24-hour plan: the real file against the course, and the loader's refusals.

Pure tests: no Django settings or database. The expected maps, plan rows and page-01 text are
copied from the course text the app is built on; the numbers quoted in the pages are recomputed
here from the published figures (docs/reference.md).
"""

import ast
import copy
import dataclasses
import math
import re
from collections import Counter

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer import curriculum as module
from trainer.curriculum import (
    CURRICULUM_PATH,
    DEMOS,
    load_curriculum,
    parse_curriculum,
    read_curriculum,
)

# The course's map of the 10 pages and their problems.
COURSE_MAP = {
    1: (1, 2),
    2: (3, 4, 5),
    3: (6, 7, 21),
    4: (8, 22),
    5: (9, 10, 17),
    6: (11, 12),
    7: (13, 14, 15),
    8: (16, 18),
    9: (19, 20),
    10: (23, 24, 25),
}

# The course's "A 24-hour prep plan" table: hours, pages, goal (verbatim).
COURSE_PLAN = [
    (0, 4, (1, 2), "Explain prefill vs decode, and size a KV cache on paper without notes."),
    (
        4,
        8,
        (3, 4),
        "Explain why continuous batching wins, and sketch prefix caching and disaggregation.",
    ),
    (
        8,
        12,
        (5, 6),
        "Do the speculative-decoding and bandwidth-bound arithmetic. Pick a GPU and a precision, "
        "and justify both.",
    ),
    (
        12,
        16,
        (7, 8),
        'Explain the roofline, debug "30% utilisation", and name the dashboards you\'d build.',
    ),
    (16, 20, (9, 10), "Operations, MoE parallelism, and the cost-reduction levers."),
    (20, 24, (10,), "Do the 1M-user capstone out loud, twice, with different assumptions."),
]

PAGE_DEMOS = {
    1: "ttft_robot",
    2: "kv_cache",
    3: "batching",
    4: "prefix_cache",
    5: "speculative",
    6: "gpu_formats",
    7: "roofline",
    8: "cost_metrics",
    9: "canary_autoscale",
    10: "moe_capacity",
}

REAL_DATA = yaml.safe_load(CURRICULUM_PATH.read_text(encoding="utf-8"))


def fresh_data():
    return copy.deepcopy(REAL_DATA)


def all_text(page):
    parts = [page.title, *page.start_here, *page.how_it_works, page.try_it]
    parts += [page.why_robots_care or ""]
    parts += [f"{word.term} {word.definition}" for word in page.words_to_know]
    return " | ".join(parts)


# --- the real file ---------------------------------------------------------------------------


def test_the_pages_carry_the_course_map():
    curriculum = load_curriculum()
    assert {page.number: page.problems for page in curriculum.pages} == COURSE_MAP
    assert [page.label for page in curriculum.pages] == [f"{n:02d}" for n in range(1, 11)]


def test_every_problem_is_on_exactly_one_page():
    counts = Counter(problem for page in load_curriculum().pages for problem in page.problems)
    assert counts == Counter(range(1, 26))


def test_each_page_has_its_demo():
    assert {page.number: page.demo for page in load_curriculum().pages} == PAGE_DEMOS
    assert set(PAGE_DEMOS.values()) == set(DEMOS)


def test_the_blocks_are_the_course_plan_with_its_goal_sentences_verbatim():
    blocks = load_curriculum().blocks
    assert [(b.start_hour, b.end_hour, b.pages, b.goal) for b in blocks] == COURSE_PLAN
    assert [block.number for block in blocks] == [1, 2, 3, 4, 5, 6]
    assert [block.label for block in blocks] == ["0–4", "4–8", "8–12", "12–16", "16–20", "20–24"]


def test_the_blocks_cover_the_day_without_gap_or_overlap():
    blocks = load_curriculum().blocks
    assert blocks[0].start_hour == 0 and blocks[-1].end_hour == 24
    for before, after in zip(blocks, blocks[1:], strict=False):
        assert before.end_hour == after.start_hour
    assert sum(block.hours for block in blocks) == 24


def test_every_block_practises_the_problems_of_its_pages_and_the_capstone_alone_at_the_end():
    curriculum = load_curriculum()
    for block in curriculum.blocks[:-1]:
        expected = tuple(p for number in block.pages for p in COURSE_MAP[number])
        assert block.problems == expected
    assert curriculum.blocks[-1].problems == (25,)


def test_the_plan_reaches_every_problem_once_in_block_order():
    expected = []
    for _, _, pages, _ in COURSE_PLAN:
        for page in pages:
            expected += [p for p in COURSE_MAP[page] if p not in expected]
    order = load_curriculum().problems_in_plan_order()
    assert order == tuple(expected)
    assert sorted(order) == list(range(1, 26))


def test_page_one_keeps_the_course_text():
    page = load_curriculum().page(1)
    assert page.start_here[0] == (
        "Training makes a model smart. Inference is using it, for lots of people, fast and "
        "cheaply. That's a big engineering job of its own."
    )
    assert page.start_here[1].startswith("Think of a busy restaurant kitchen. The recipe")
    assert "(the memory cache), cooks several orders on one stove (batching)" in page.start_here[1]
    assert page.how_it_works[:5] == (
        "A question arrives and joins a queue.",
        'The model reads the whole question in one go (this is called "prefill").',
        "Then it writes the answer one word-piece at a time, sending each as it goes (this is "
        'called "decode").',
        "To avoid re-reading everything for every new word, it keeps a memory of what it has "
        "read (the KV cache).",
        "The server juggles many people's requests on the same chips so none are left idle.",
    )
    assert page.try_it.startswith("Next time you're in a queue at a café, notice:")
    assert page.why_robots_care.startswith(
        "A robot's brain has the same steps, but on a small computer inside the robot with a "
        "hard time limit."
    )
    course_words = {
        "Inference": "Running a trained model to get answers.",
        "Token": "A word-piece the model reads or writes.",
        "Latency": "How long you wait.",
        "Throughput": "How much work gets done per second, across everyone.",
        "GPU": "The chip that does the model's maths.",
    }
    assert {w.term: w.definition for w in page.words_to_know[:5]} == course_words


@pytest.mark.parametrize(
    ("page_number", "terms"),
    [
        (2, {"KV cache", "GQA", "MLA", "PagedAttention", "Block", "Fragmentation", "HBM", "SRAM"}),
        (
            7,
            {"Roofline", "Arithmetic intensity", "Ridge point", "MFU", "MBU", "Kernel fusion"},
        ),
    ],
)
def test_the_pages_define_the_words_their_problems_use(page_number, terms):
    page = load_curriculum().page(page_number)
    assert terms <= {word.term for word in page.words_to_know}


def test_every_page_has_the_course_shape_and_single_line_paragraphs():
    for page in load_curriculum().pages:
        assert 2 <= len(page.start_here) <= 4, page.number
        assert 3 <= len(page.how_it_works) <= 6, page.number
        assert 4 <= len(page.words_to_know) <= 8, page.number
        # A literal block (|) instead of a folded one (>-) would put hard line breaks mid-sentence.
        assert "\n" not in all_text(page), page.number
    for block in load_curriculum().blocks:
        assert 3 <= len(block.goals) <= 5
        assert all("\n" not in goal.text for goal in block.goals)


def test_robots_are_left_out_only_where_they_add_nothing():
    without = [p.number for p in load_curriculum().pages if p.why_robots_care is None]
    assert without == [10]


def test_the_facts_the_brief_insists_on_are_stated():
    text = {page.number: all_text(page) for page in load_curriculum().pages}
    assert "several query heads share one K/V head" in text[2]
    assert "caches one compressed latent per token per layer" in text[2]
    assert "fixed-size blocks" in text[2] and "operating system's memory pages" in text[2]
    assert "never written to the GPU's main memory (HBM)" in text[2]
    assert "Decode is memory-bandwidth-bound" in text[5]
    assert "verifies them all in one forward pass" in text[5]


# --- the numbers quoted in the pages, recomputed from the published figures ------------------


def llama_parameters(layers, hidden, kv_heads, head_dim, ffn, vocab):
    """Parameters of a Llama-3 model from its config.json: SwiGLU MLP, untied embeddings."""
    attention = 2 * hidden * hidden + 2 * hidden * kv_heads * head_dim
    per_layer = attention + 3 * hidden * ffn + 2 * hidden  # two RMSNorm weights
    return 2 * vocab * hidden + layers * per_layer + hidden  # plus the final norm


LLAMA_70B = {
    "layers": 80,
    "kv_heads": 8,
    "head_dim": 128,
    "params": llama_parameters(80, 8192, 8, 128, 28672, 128256),
}
LLAMA_8B_PARAMS = llama_parameters(32, 4096, 8, 128, 14336, 128256)
H100_SXM = {"bf16_flops": 989e12, "bandwidth": 3.35e12}
H200_BANDWIDTH = 4.8e12  # [B/s]
H200_MEMORY = 141e9  # [B]
JETSON_AGX_ORIN_BANDWIDTH = 204.8e9  # [B/s]
INT4_GROUP_128_BITS = 4 + 16 / 128


def quoted(page_or_block_text, number_text):
    assert number_text in page_or_block_text, number_text


def test_the_parameter_counts_match_the_published_totals():
    assert round(LLAMA_70B["params"] / 1e9, 2) == 70.55
    assert round(LLAMA_8B_PARAMS / 1e9, 2) == 8.03


def test_the_kv_cache_numbers_are_right():
    per_token = 2 * LLAMA_70B["layers"] * LLAMA_70B["kv_heads"] * LLAMA_70B["head_dim"] * 2
    total = per_token * 32_768 * 100
    page = all_text(load_curriculum().page(2))
    goal = load_curriculum().block(1).goals[2].text
    assert f"{per_token:,}" == "327,680"
    quoted(page, "327,680 bytes per token")
    quoted(goal, "327,680 bytes per token")
    assert round(total / 1e12, 2) == 1.07
    quoted(page, "about 1.07 TB")
    quoted(goal, "about 1.07 TB")
    assert round(LLAMA_70B["params"] * 2 / 1e9) == 141
    quoted(page, "141 GB for the model's weights")
    assert 64 / LLAMA_70B["kv_heads"] == 8
    quoted(page, "64 query heads but only 8 KV heads, so its cache is 8 times smaller")


def test_the_weight_sizes_and_bandwidth_bound_times_are_right():
    page_6 = all_text(load_curriculum().page(6))
    params = LLAMA_70B["params"]
    assert round(params * 2 / 1e9) == 141 and round(params / 1e9) == 71
    assert round(params * INT4_GROUP_128_BITS / 8 / 1e9) == 36
    quoted(page_6, "about 141 GB in BF16, 71 GB in FP8 and 36 GB in INT4")

    fp8_on_h200 = params / H200_BANDWIDTH
    assert params < H200_MEMORY  # the example must fit on the one GPU it names
    assert round(params / 1e9, 1) == 70.6 and round(fp8_on_h200 * 1e3) == 15
    quoted(load_curriculum().block(3).goals[0].text, "70.6 GB ÷ 4.8 TB/s ≈ 15 ms")

    int4_on_orin = LLAMA_8B_PARAMS * INT4_GROUP_128_BITS / 8 / JETSON_AGX_ORIN_BANDWIDTH
    assert round(int4_on_orin * 1e3) == 20
    assert round(JETSON_AGX_ORIN_BANDWIDTH / 1e9) == 205
    page_5 = load_curriculum().page(5).why_robots_care
    quoted(page_5, "about 205 GB/s")
    quoted(page_5, "at least about 20 ms per token")


def test_the_ridge_point_is_right():
    ridge = H100_SXM["bf16_flops"] / H100_SXM["bandwidth"]
    assert round(ridge) == 295
    quoted(all_text(load_curriculum().page(7)), "about 295 FLOP/byte for an H100 SXM in BF16")
    quoted(load_curriculum().block(4).goals[0].text, "ridge point about 295 FLOP/byte")


def test_the_speculative_decoding_example_is_right():
    # Leviathan et al. 2023: expected tokens per target pass, the bonus token included.
    acceptance, drafted = 0.8, 4
    expected_tokens = (1 - acceptance ** (drafted + 1)) / (1 - acceptance)
    assert math.isclose(expected_tokens, 3.3616)
    quoted(all_text(load_curriculum().page(5)), "3.36 at α = 0.8 and γ = 4")


def test_the_small_sums_in_the_stories_are_right():
    speed, thinking = 2, 0.5  # [m/s], [s]
    assert speed * thinking == 1
    quoted(
        load_curriculum().page(1).why_robots_care,
        f"At {speed} metres per second, half a second of thinking is a metre travelled.",
    )
    decisions_per_second, one_stall_in = 10, 100
    quoted(
        load_curriculum().page(5).why_robots_care,
        f"one stall in a hundred at {decisions_per_second} decisions a second is a stall every "
        f"{one_stall_in // decisions_per_second} seconds",
    )
    levers = (0.6, 0.5)
    assert math.isclose(math.prod(levers), 1 - 0.70)
    quoted(
        all_text(load_curriculum().page(10)),
        f"two levers worth {levers[0]} and {levers[1]} already get there",
    )


# --- the loader's API ------------------------------------------------------------------------


def test_it_reads_the_file_once():
    assert load_curriculum() is load_curriculum()


def test_the_curriculum_cannot_be_changed_in_place():
    curriculum = load_curriculum()
    with pytest.raises(dataclasses.FrozenInstanceError):
        curriculum.page(1).title = "something else"
    with pytest.raises(dataclasses.FrozenInstanceError):
        curriculum.blocks[0].goals[0].text = "something else"
    assert isinstance(curriculum.pages, tuple) and isinstance(curriculum.page(2).problems, tuple)


def test_it_finds_pages_blocks_and_problems():
    curriculum = load_curriculum()
    assert curriculum.page(3).title == "Batching and scheduling"
    assert curriculum.page_of_problem(21).number == 3
    assert curriculum.page_of_problem(22).number == 4
    assert [block.number for block in curriculum.blocks_for_page(10)] == [5, 6]
    assert [block.number for block in curriculum.blocks_for_page(1)] == [1]
    assert curriculum.block(6).label == "20–24"
    with pytest.raises(KeyError, match="no page 11"):
        curriculum.page(11)
    with pytest.raises(KeyError, match="no page 0"):
        curriculum.blocks_for_page(0)
    with pytest.raises(KeyError, match="problem 26 is on no page"):
        curriculum.page_of_problem(26)
    with pytest.raises(KeyError, match="no block 7"):
        curriculum.block(7)


def test_goal_keys_are_unique_across_the_plan():
    keys = [goal.key for block in load_curriculum().blocks for goal in block.goals]
    assert len(keys) == len(set(keys))


def test_the_module_imports_neither_django_nor_the_rest_of_the_project():
    tree = ast.parse(open(module.__file__, encoding="utf-8").read())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
    standard = {"re", "dataclasses", "functools", "pathlib", "collections", "typing"}
    assert imported <= standard | {"yaml"}
    assert "yaml" in imported


# --- broken copies are refused with a clear message ------------------------------------------


def page_entry(data, number):
    return next(page for page in data["pages"] if page["number"] == number)


def block_entry(data, number):
    return next(block for block in data["blocks"] if block["number"] == number)


def add_problem_21_to_page_4(data):
    page_entry(data, 4)["problems"].append(21)


def drop_problem_25(data):
    page_entry(data, 10)["problems"].remove(25)


def add_problem_26(data):
    page_entry(data, 10)["problems"].append(26)


def add_problem_26_to_two_pages(data):
    add_problem_26(data)
    page_entry(data, 9)["problems"].append(26)


def add_problem_0(data):
    page_entry(data, 1)["problems"].append(0)


def drop_page_7(data):
    data["pages"] = [page for page in data["pages"] if page["number"] != 7]


def renumber_page_9_as_8(data):
    page_entry(data, 9)["number"] = 8


def leave_a_gap_after_hour_7(data):
    block_entry(data, 2)["hours"] = [4, 7]


def overlap_blocks_2_and_3(data):
    block_entry(data, 2)["hours"] = [4, 9]


def stop_at_hour_20(data):
    data["blocks"] = [block for block in data["blocks"] if block["number"] != 6]


def study_page_11(data):
    block_entry(data, 5)["pages"].append(11)


def practise_problem_1_in_the_capstone(data):
    block_entry(data, 6)["problems"].append(1)


def misspell_a_key(data):
    page_entry(data, 1)["why_robot_care"] = page_entry(data, 1).pop("why_robots_care")


def name_an_unknown_demo(data):
    page_entry(data, 3)["demo"] = "batcher"


def put_one_demo_on_two_pages(data):
    page_entry(data, 4)["demo"] = "batching"


def keep_two_goals(data):
    block_entry(data, 1)["goals"] = block_entry(data, 1)["goals"][:2]


def blank_a_title(data):
    page_entry(data, 1)["title"] = "   "


def null_a_title(data):
    page_entry(data, 2)["title"] = None


def number_a_page_yes(data):
    page_entry(data, 3)["number"] = True


def reuse_a_goal_key(data):
    block_entry(data, 2)["goals"][0]["key"] = block_entry(data, 1)["goals"][0]["key"]


def leave_page_9_out_of_the_plan(data):
    block_entry(data, 5)["pages"] = [10]


def define_a_word_twice(data):
    words = page_entry(data, 2)["words_to_know"]
    words[1] = {"term": "kv cache", "definition": "Again."}


def write_one_paragraph(data):
    page_entry(data, 5)["start_here"] = page_entry(data, 5)["start_here"][:1]


def give_hours_as_text(data):
    block_entry(data, 1)["hours"] = "0-4"


def leave_out_a_page_number(data):
    del page_entry(data, 4)["number"]


def leave_out_a_block_goal(data):
    del block_entry(data, 3)["goal"]


BROKEN = [
    (add_problem_21_to_page_4, "problem 21 is on pages 3 and 4; it must be on one"),
    (drop_problem_25, "problem 25 is on no page"),
    (add_problem_26_to_two_pages, "problem 26 is on pages 9 and 10; it must be on one"),
    (add_problem_0, "pages[0].problems: 0 is not a problem number"),
    (drop_page_7, "page 7 is missing"),
    (drop_page_7, "block 4: page 7 does not exist"),
    (renumber_page_9_as_8, "page 8 appears 2 times"),
    (leave_a_gap_after_hour_7, "hours 7–8 are in no block"),
    (overlap_blocks_2_and_3, "block 2 (4–9 h) overlaps block 3 (8–12 h)"),
    (stop_at_hour_20, "the plan must end at hour 24, not 20"),
    (study_page_11, "block 5: page 11 does not exist"),
    (practise_problem_1_in_the_capstone, "block 6: problem 1 is not on its pages [10]"),
    (misspell_a_key, "pages[0]: unknown key 'why_robot_care'"),
    (name_an_unknown_demo, "pages[2].demo: 'batcher' is not one of the demos"),
    (put_one_demo_on_two_pages, "the demo 'batching' is on pages [3, 4]; it must be on one"),
    (put_one_demo_on_two_pages, "no page has the demo 'prefix_cache'"),
    (keep_two_goals, "blocks[0].goals: has 2 entries; it needs 3 to 5"),
    (blank_a_title, "pages[0].title: expected non-empty text"),
    (null_a_title, "pages[1].title: expected non-empty text, got None"),
    (number_a_page_yes, "pages[2].number: expected a whole number, got True"),
    (reuse_a_goal_key, "the goal key 'request-path' is used in blocks [1, 2]"),
    (leave_page_9_out_of_the_plan, "page 9 is in no block of the plan"),
    (define_a_word_twice, "the term 'kv cache' is defined twice"),
    (write_one_paragraph, "pages[4].start_here: has 1 entries; it needs 2 to 4"),
    (give_hours_as_text, "blocks[0].hours: expected a list, got '0-4'"),
    (leave_out_a_page_number, "pages[3]: the key 'number' is missing"),
    (leave_out_a_block_goal, "blocks[2]: the key 'goal' is missing"),
]


@pytest.mark.parametrize(("break_it", "message"), BROKEN, ids=lambda x: getattr(x, "__name__", ""))
def test_a_broken_copy_is_refused_with_a_clear_message(tmp_path, break_it, message):
    data = fresh_data()
    break_it(data)
    path = tmp_path / "curriculum.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(ValueError) as refusal:
        read_curriculum(path)
    assert str(refusal.value).startswith(f"{path} is not a valid curriculum:\n")
    assert message in str(refusal.value)


def test_an_unchanged_copy_is_accepted_and_equal(tmp_path):
    path = tmp_path / "curriculum.yaml"
    path.write_text(yaml.safe_dump(fresh_data(), allow_unicode=True), encoding="utf-8")
    assert read_curriculum(path) == load_curriculum()


def test_a_problem_added_beyond_the_course_takes_its_page_and_place_in_the_plan(tmp_path):
    data = fresh_data()
    add_problem_26(data)
    path = tmp_path / "curriculum.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    curriculum = read_curriculum(path)
    assert curriculum.page_of_problem(26).number == 10
    order = curriculum.problems_in_plan_order()
    assert sorted(order) == list(range(1, 27)) and order.index(26) > order.index(24)


def test_it_lists_every_fault_at_once():
    data = fresh_data()
    drop_problem_25(data)
    leave_a_gap_after_hour_7(data)
    misspell_a_key(data)
    study_page_11(data)
    with pytest.raises(ValueError) as refusal:
        parse_curriculum(data)
    message = str(refusal.value)
    assert "unknown key 'why_robot_care'" in message
    assert "hours 7–8 are in no block" in message
    assert "block 5: page 11 does not exist" in message
    assert "block 6: problem 25 is not on its pages [10]" in message
    # Checks across the pages need every page readable, so they speak once page 01 is fixed.
    assert "problem 25 is on no page" not in message
    page_entry(data, 1)["why_robots_care"] = page_entry(data, 1).pop("why_robot_care")
    with pytest.raises(ValueError, match="problem 25 is on no page"):
        parse_curriculum(data)


def test_a_repeated_yaml_key_is_refused(tmp_path):
    text = CURRICULUM_PATH.read_text(encoding="utf-8")
    first_title = re.search(r"^    title: .*$", text, flags=re.MULTILINE).group(0)
    path = tmp_path / "curriculum.yaml"
    path.write_text(text.replace(first_title, f"{first_title}\n    title: Another", 1), "utf-8")
    with pytest.raises(ValueError, match="found the key 'title' twice"):
        read_curriculum(path)


def test_invalid_yaml_and_a_missing_file_are_refused(tmp_path):
    path = tmp_path / "curriculum.yaml"
    path.write_text("pages: [1, 2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="is not valid YAML"):
        read_curriculum(path)
    with pytest.raises(ValueError, match="cannot read the curriculum"):
        read_curriculum(tmp_path / "absent.yaml")
    with pytest.raises(ValueError, match="the file: expected a mapping of keys, got"):
        parse_curriculum(["pages"])


# --- properties ------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(problem=st.integers(1, 25), page=st.integers(1, 10))
def test_any_problem_put_on_a_second_page_is_refused(problem, page):
    home = next(n for n, problems in COURSE_MAP.items() if problem in problems)
    data = fresh_data()
    page_entry(data, page)["problems"].append(problem)
    with pytest.raises(ValueError) as refusal:
        parse_curriculum(data)
    if page == home:
        assert f"problem {problem} is listed twice" in str(refusal.value)
    else:
        first, second = sorted((home, page))
        assert f"problem {problem} is on pages {first} and {second}" in str(refusal.value)


@settings(max_examples=25, deadline=None)
@given(problem=st.integers(1, 25))
def test_any_problem_left_off_its_page_is_refused(problem):
    home = next(n for n, problems in COURSE_MAP.items() if problem in problems)
    data = fresh_data()
    page_entry(data, home)["problems"].remove(problem)
    with pytest.raises(ValueError, match=rf"problem {problem} is on no page"):
        parse_curriculum(data)


@settings(max_examples=40, deadline=None)
@given(boundary=st.integers(1, 5), shift=st.integers(-3, 3).filter(bool))
def test_moving_one_end_of_a_block_opens_a_gap_or_an_overlap(boundary, shift):
    data = fresh_data()
    block = block_entry(data, boundary)
    start, end = block["hours"]
    block["hours"] = [start, end + shift]  # blocks 1-5 are 4 h long and end by hour 20
    with pytest.raises(ValueError, match="are in no block" if shift < 0 else "overlaps"):
        parse_curriculum(data)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_the_order_of_entries_in_the_file_does_not_matter(data):
    shuffled = fresh_data()
    shuffled["pages"] = data.draw(st.permutations(shuffled["pages"]))
    shuffled["blocks"] = data.draw(st.permutations(shuffled["blocks"]))
    assert parse_curriculum(shuffled) == load_curriculum()
