"""/plan/: the 10 pages, the six blocks with their goals, progress, and starting the plan."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.plan.factories import record_attempt, record_review, solve
from trainer.curriculum import load_curriculum
from trainer.plan import services
from trainer.practice.models import Card

CURRICULUM = load_curriculum()


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/plan/"),
        ("get", "/plan/pages/2/"),
        ("get", "/plan/pages/2/demo/"),
        ("post", "/plan/start/"),
        ("post", "/plan/blocks/1/goals/"),
        ("post", "/plan/problems/3/practice/"),
    ],
)
def test_it_sends_anonymous_visitors_to_log_in(client, db, method, path):
    response = getattr(client, method)(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_it_lists_the_pages_and_the_blocks_with_their_goals(learner_client, course_bank):
    html = learner_client.get("/plan/").content.decode()
    for page in CURRICULUM.pages:
        assert f'href="/plan/pages/{page.number}/"' in html
    for block in CURRICULUM.blocks:
        assert f'action="/plan/blocks/{block.number}/goals/"' in html
        for goal in block.goals:
            assert f'value="{goal.key}"' in html
    assert html.count('type="checkbox" name="goal"') == sum(len(b.goals) for b in CURRICULUM.blocks)
    assert "0 / 10" in html and "pages done" in html
    # Next up is page 01 for a newcomer, with its problems titled from the bank.
    assert "01 · From request to first token" in html
    assert "Example problem 1" in html
    assert "Start the plan" in html
    assert html.count("not started") >= 6
    assert " style=" not in html  # CSP: no inline styles


def test_it_states_the_rules(learner_client, db):
    html = learner_client.get("/plan/").content.decode()
    assert "every goal of its block is ticked" in html
    assert "Page 10 belongs to blocks 5 and 6" in html


def test_it_starts_the_plan_and_introduces_its_problems_in_plan_order(
    learner_client, learner, course_bank
):
    response = learner_client.post("/plan/start/")
    assert response.status_code == 302 and response["Location"] == "/plan/"
    ranked = Card.objects.filter(user=learner).order_by("rank")
    assert [card.problem.number for card in ranked] == [1, 2, 3, 21, 8, 17, 11]
    html = learner_client.get("/plan/").content.decode()
    assert "7 problems added to your practice" in html
    assert "You started the plan on" in html
    assert "Start the plan" not in html


def test_it_shows_progress_time_and_block_states(learner_client, learner, course_bank):
    solve(learner, 1, 2)
    services.save_goals(
        learner, CURRICULUM.block(1), [g.key for g in CURRICULUM.block(1).goals], timezone.now()
    )
    record_review(learner, 21, 5400.0)  # an hour and a half on problem 21 (block 2)
    html = learner_client.get("/plan/").content.decode()
    assert "1 / 10" in html
    assert re.search(r"Next up<br>\s*<a href=\"/plan/pages/2/\">", html)
    assert "1.5 h" in html
    assert html.count('class="badge">in progress') == 2  # blocks 1 and 2


def _history(user, attempts):
    now = timezone.now()
    for index in range(attempts):
        record_attempt(user, (1, 2, 3, 8)[index % 4], ["correct", "incorrect"], now=now)
    record_review(user, 3, 60.0)


def test_it_costs_the_same_queries_with_a_small_and_a_large_history(
    learner_client, learner, course_bank
):
    def count():
        with CaptureQueriesContext(connection) as queries:
            assert learner_client.get("/plan/").status_code == 200
        return len(queries)

    learner_client.get("/plan/")  # the first page of a session also checks the learner's role
    _history(learner, 1)
    small = count()
    _history(learner, 300)
    solve(learner, 1, 2, 3, 8, 11)
    services.save_goals(learner, CURRICULUM.block(1), ["request-path"], timezone.now())
    assert count() == small
