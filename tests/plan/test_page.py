"""/plan/pages/<n>/: the page's text, its problems leading into practice, and the goals."""

import re

import pytest
from django.utils import timezone

from tests.plan.factories import solve
from trainer.curriculum import load_curriculum
from trainer.plan import services
from trainer.plan.models import GoalTick
from trainer.practice.models import Card

CURRICULUM = load_curriculum()
BLOCK_1 = [goal.key for goal in CURRICULUM.block(1).goals]


def unescape(html):
    return html.replace("&#x27;", "'").replace("&quot;", '"').replace("&amp;", "&")


@pytest.mark.parametrize("number", range(1, 11))
def test_it_shows_every_part_of_the_page(learner_client, db, number):
    page = CURRICULUM.page(number)
    response = learner_client.get(f"/plan/pages/{number}/")
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert f"<h1>{page.title}</h1>" in html
    for heading in ("Start here", "How it works", "Try it", "Words to know", "Problems", "Goals"):
        assert f"<h2>{heading}</h2>" in html
    assert ("<h2>Why robots care</h2>" in html) == (page.why_robots_care is not None)
    for paragraph in page.start_here:
        assert paragraph in html
    for word in page.words_to_know:
        assert f"<dt>{word.term}</dt><dd>{word.definition}</dd>" in html
    for problem in page.problems:
        assert f"<strong>Problem {problem}</strong>" in html
    # The demo: a real GET form to the page, updated by htmx from a partial.
    assert f'action="/plan/pages/{number}/"' in html
    assert f'hx-get="/plan/pages/{number}/demo/"' in html
    assert 'hx-trigger="change, input delay:300ms"' in html
    assert 'hx-target="#demo"' in html
    assert '<div id="demo"' in html and "<data value=" in html
    # Each block studying the page has its checklist, a plain form htmx enhances.
    for block in CURRICULUM.blocks_for_page(number):
        assert f'action="/plan/blocks/{block.number}/goals/"' in html
        assert f'hx-post="/plan/blocks/{block.number}/goals/"' in html
    assert " style=" not in html and "<script>" not in html


def test_it_states_which_goals_count_for_page_10(learner_client, db):
    html = learner_client.get("/plan/pages/10/").content.decode()
    assert "this page belongs to blocks 5 and 6, so the goals of both count" in html
    assert "studied in blocks 5 and 6" in html
    assert html.count('type="checkbox" name="goal"') == len(CURRICULUM.block(5).goals) + len(
        CURRICULUM.block(6).goals
    )


@pytest.mark.parametrize("path", ["/plan/pages/0/", "/plan/pages/11/", "/plan/pages/11/demo/"])
def test_it_has_no_page_beyond_the_ten(learner_client, db, path):
    assert learner_client.get(path).status_code == 404


def test_it_shows_what_is_left_and_when_the_page_is_done(learner_client, learner, course_bank):
    html = learner_client.get("/plan/pages/1/").content.decode()
    assert "solve problems 1, 2 and tick 5 more goals" in html
    solve(learner, 1, 2)
    services.save_goals(learner, CURRICULUM.block(1), BLOCK_1, timezone.now())
    html = learner_client.get("/plan/pages/1/").content.decode()
    assert "This page is done." in html
    assert html.count("solved ✓") == 2


def test_it_saves_ticked_goals_without_javascript(learner_client, learner, db):
    response = learner_client.post(
        "/plan/blocks/1/goals/", {"goal": BLOCK_1[:2], "next": "/plan/pages/2/"}
    )
    assert response.status_code == 302 and response["Location"] == "/plan/pages/2/"
    assert services.ticked_goals(learner) == set(BLOCK_1[:2])
    html = learner_client.get("/plan/pages/2/").content.decode()
    for key in BLOCK_1[:2]:
        assert f'value="{key}" checked' in html
    assert f'value="{BLOCK_1[2]}">' in html


def test_it_returns_only_the_checklist_and_progress_for_htmx(learner_client, learner, db):
    response = learner_client.post(
        "/plan/blocks/1/goals/",
        {"goal": BLOCK_1, "next": "/plan/pages/1/"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<form id="goals-1"')
    assert "<html" not in html
    assert f"{len(BLOCK_1)} of {len(BLOCK_1)} ticked · saved" in html
    assert 'id="plan-progress"' in html and 'hx-swap-oob="true"' in html
    assert 'class="badge"' not in html  # only the checklist, not the block around it


def test_it_saves_goals_only_for_their_owner(client, learner, other_learner, db):
    services.save_goals(learner, CURRICULUM.block(1), BLOCK_1[:3], timezone.now())
    client.force_login(other_learner)
    html = client.get("/plan/pages/1/").content.decode()
    assert " checked" not in html  # the learner's ticks are not the other's
    client.post("/plan/blocks/1/goals/", {"goal": [BLOCK_1[4]]})
    client.post("/plan/blocks/1/goals/", {"goal": []})
    assert services.ticked_goals(learner) == set(BLOCK_1[:3])
    assert not GoalTick.objects.filter(user=other_learner).exists()


def test_it_refuses_a_block_that_does_not_exist(learner_client, db):
    assert learner_client.post("/plan/blocks/7/goals/", {"goal": BLOCK_1}).status_code == 404


def test_it_does_not_redirect_outside_the_plan(learner_client, db):
    response = learner_client.post(
        "/plan/blocks/1/goals/", {"goal": BLOCK_1, "next": "https://example.com/plan/"}
    )
    assert response["Location"] == "/plan/"


def test_it_opens_practice_on_a_problem(learner_client, learner, course_bank):
    html = learner_client.get("/plan/pages/4/").content.decode()
    assert 'action="/plan/problems/8/practice/"' in html
    assert "not in the bank yet" in html  # problem 22 is not in this bank
    assert 'action="/plan/problems/22/practice/"' in html and html.count("Practise it") == 1
    learner_client.post("/plan/start/")
    response = learner_client.post("/plan/problems/8/practice/", {"next": "/plan/pages/4/"})
    assert response.status_code == 302 and response["Location"] == "/practice/"
    practice_html = learner_client.get("/practice/").content.decode()
    assert "Example problem 8" in practice_html


def test_it_adds_the_problem_to_practice_first(learner_client, learner, course_bank):
    assert not Card.objects.filter(user=learner).exists()
    learner_client.post("/plan/problems/3/practice/")
    assert list(Card.objects.filter(user=learner).values_list("problem__number", flat=True)) == [3]
    html = learner_client.get("/plan/pages/2/").content.decode()
    assert re.search(
        r"Problem 3</strong> · Example problem 3</span>\s*<span class=\"state\">in", html
    )


def test_it_says_why_a_problem_cannot_be_practised(learner_client, course_bank):
    response = learner_client.post("/plan/problems/22/practice/", {"next": "/plan/pages/4/"})
    assert response["Location"] == "/plan/pages/4/"
    html = learner_client.get("/plan/pages/4/").content.decode()
    assert "Problem 22 is not in the bank yet" in html


def test_it_refuses_a_problem_outside_the_course(learner_client, db):
    assert learner_client.post("/plan/problems/26/practice/").status_code == 404
