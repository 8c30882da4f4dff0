import random
from collections import Counter
from datetime import timedelta

import pytest
from django.utils import timezone

from problems.models import Attempt, Problem
from tests.mock.helpers import start
from trainer.mock import services
from trainer.mock.models import Mock
from trainer.practice import services as practice
from trainer.practice.models import Card


def test_it_fixes_the_variants_and_the_deadline_at_the_start(mocking, learner):
    before = timezone.now()
    mock = start(mocking)
    item = mock.items.get()
    assert item.attempt.purpose == Attempt.Purpose.MOCK
    assert item.attempt.user == learner and item.attempt.submitted_at is None
    assert item.problem.number == 3
    # Problem 3 expects 8 minutes: the mock is the sum of its problems' expected times.
    assert mock.deadline - mock.started_at == timedelta(minutes=8)
    assert before <= mock.started_at <= timezone.now()
    assert mock.ended_at is None


def test_it_opens_the_first_problem(mocking):
    mock = start(mocking)
    response = mocking.get(f"/mock/{mock.pk}/")
    assert response["Location"] == f"/mock/{mock.pk}/problems/1/"


def test_it_resumes_the_running_mock_instead_of_starting_another(mocking):
    first = start(mocking)
    second = start(mocking, "drill", page=2)
    assert second.pk == first.pk
    assert Mock.objects.count() == 1 and Attempt.objects.count() == 1


def test_it_spreads_a_standard_mock_of_five_over_five_pages(wide_bank, learner):
    now = timezone.now()
    mock, created = services.start(learner, "standard", now, rng=random.Random(3))
    items = list(mock.items.select_related("problem"))
    assert created and len(items) == 5
    assert len({item.problem.page for item in items}) == 5
    minutes = sum(item.problem.expected_minutes for item in items)
    assert mock.deadline == now + timedelta(minutes=minutes)
    assert [item.position for item in items] == [1, 2, 3, 4, 5]
    # Seeds differ, so two slots of one scenario would still differ.
    assert len({item.attempt.seed for item in items}) == 5


def _recall_now(card, now, *, days_ago):
    """Give a card one perfect review `days_ago` days ago (interval 1 day)."""
    scheduler = practice.scheduler_for(practice.get_profile(card.user))
    reviewed_at = now - timedelta(days=days_ago)
    outcome = scheduler.review(scheduler.new_state(), 5, reviewed_at)
    card.state = outcome.state.to_dict()
    card.last_reviewed_at = reviewed_at
    card.due_at = outcome.due
    card.save()
    return scheduler.predicted_recall(outcome.state, now)


def test_it_weights_a_standard_mock_towards_the_weakest_problems(wide_bank, learner):
    now = timezone.now()
    practice.introduce_all(learner, now)
    weak_number = 13
    for card in Card.objects.filter(user=learner).select_related("problem"):
        recall = _recall_now(card, now, days_ago=60 if card.problem.number == weak_number else 0)
        assert recall < 0.01 if card.problem.number == weak_number else recall == 1.0
    rng = random.Random(11)
    asked = Counter()
    draws = 150
    for _ in range(draws):
        slots = services._slots(learner, "standard", None, now, rng)
        asked.update(slot.problem.number for slot in slots)
    # Ten problems, five a mock: without weights each would be asked in about half of them.
    assert asked[weak_number] / draws > 0.9
    assert max(count for number, count in asked.items() if number != weak_number) / draws < 0.65


def test_it_spreads_a_learner_without_cards_over_the_pages(wide_bank, learner):
    assert not Card.objects.filter(user=learner).exists()
    rng = random.Random(5)
    asked = Counter()
    for _ in range(100):
        slots = services._slots(learner, "standard", None, timezone.now(), rng)
        assert len({slot.problem.page for slot in slots}) == 5
        asked.update(slot.problem.number for slot in slots)
    # Every problem comes up, and no page twice in one mock.
    assert set(asked) == set(Problem.objects.values_list("number", flat=True))


def test_it_drills_every_problem_of_one_page(wide_bank, mocking):
    mock = start(mocking, "drill", page=2)
    items = list(mock.items.select_related("problem"))
    assert mock.format == "drill" and mock.page == 2
    assert [item.problem.number for item in items] == [3, 4]
    minutes = sum(item.problem.expected_minutes for item in items)
    assert mock.deadline - mock.started_at == timedelta(minutes=minutes)


def test_it_refuses_a_drill_of_a_page_without_problems(mocking):
    response = mocking.post("/mock/start/", {"format": "drill", "page": "7"}, follow=True)
    assert "Choose a page that has problems to drill." in response.content.decode()
    assert not Mock.objects.exists()


def test_it_rehearses_the_capstone_twice_under_two_scenarios(capstone_bank, mocking):
    mock = start(mocking, "capstone")
    items = list(mock.items.select_related("attempt__version__scenario", "problem"))
    assert [item.problem.number for item in items] == [25, 25]
    assert {item.attempt.version.scenario.key for item in items} == {"chat-fleet", "agentic"}
    assert items[0].label.startswith("Rehearsal 1: Setting ")
    assert mock.deadline - mock.started_at == timedelta(minutes=2 * 20)


def test_it_rehearses_one_scenario_with_two_seeds(bank_dir, loaded_bank, mocking):
    from tests.mock.helpers import add_problem

    add_problem(bank_dir, 25, page=10, scenario_keys=("only",), minutes=20)
    mock = start(mocking, "capstone")
    first, second = mock.items.select_related("attempt")
    assert first.attempt.version_id == second.attempt.version_id
    assert first.attempt.seed != second.attempt.seed
    assert second.label.endswith("new numbers")


def test_it_says_when_the_capstone_is_not_in_the_bank(mocking):
    html = mocking.get("/mock/").content.decode()
    assert "Problem 25 is not in the problem bank yet." in html
    response = mocking.post("/mock/start/", {"format": "capstone"}, follow=True)
    assert "Problem 25 is not in the bank yet." in response.content.decode()


def test_it_refuses_an_unknown_format(mocking):
    response = mocking.post("/mock/start/", {"format": "oral"}, follow=True)
    assert "Choose a standard mock" in response.content.decode()
    assert not Mock.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_it_starts_one_mock_when_two_starts_race(loaded_bank, learner):
    import threading

    from django.db import connection

    results = []

    def go():
        try:
            results.append(services.start(learner, "standard", timezone.now())[0].pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=go) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(results) == 4 and len(set(results)) == 1
    assert Mock.objects.count() == 1 and Attempt.objects.count() == 1


def test_it_leaves_the_capstone_out_of_a_standard_mock(capstone_bank, learner):
    mock, _ = services.start(learner, "standard", timezone.now())
    assert [item.problem.number for item in mock.items.all()] == [3]
