"""The plan's rules (trainer/plan/services.py), checked on the database directly."""

from datetime import timedelta

import pytest
from django.utils import timezone

from problems.loader import load_bank
from problems.models import Attempt
from tests.plan.conftest import write_bank
from tests.plan.factories import record_attempt, record_review, solve
from trainer.curriculum import load_curriculum
from trainer.plan import services
from trainer.plan.models import GoalTick, PlanStart
from trainer.practice import services as practice
from trainer.practice.models import Card

BLOCK_1_GOALS = [goal.key for goal in load_curriculum().block(1).goals]


def tick_block(user, number):
    block = load_curriculum().block(number)
    services.save_goals(user, block, [goal.key for goal in block.goals], timezone.now())


def test_it_counts_a_page_done_when_its_problems_are_solved_and_its_goals_ticked(
    course_bank, learner
):
    assert services.progress(learner).pages_done == 0
    solve(learner, 1)
    assert not services.progress(learner).page(1).done
    solve(learner, 2)
    page = services.progress(learner).page(1)
    assert page.unsolved == () and page.goals_missing == len(BLOCK_1_GOALS)
    assert not page.done
    tick_block(learner, 1)
    progress = services.progress(learner)
    assert progress.page(1).done
    assert progress.pages_done == 1
    # Page 2 shares block 1's goals but problem 3 (and 4, 5) are not solved yet.
    assert not progress.page(2).done
    assert progress.next_up.page.number == 2


def test_it_counts_a_problem_solved_only_when_every_part_of_one_attempt_is_correct(
    course_bank, learner
):
    record_attempt(learner, 1, ["correct", "partial"])
    record_attempt(learner, 1, ["incorrect", "correct"])
    record_attempt(learner, 2, ["correct", "correct"], submitted=False)
    state = {problem.number: problem for problem in services.progress(learner).page(1).problems}
    assert state[1].attempted and not state[1].solved
    assert not state[2].attempted and not state[2].solved
    record_attempt(learner, 1, ["correct", "correct"])
    state = {problem.number: problem for problem in services.progress(learner).page(1).problems}
    assert state[1].solved


def test_it_counts_a_mock_attempt_as_well_as_practice(course_bank, learner):
    record_attempt(learner, 3, ["correct", "correct", "correct"], purpose=Attempt.Purpose.MOCK)
    problems = services.progress(learner).page(2).problems
    assert [problem.solved for problem in problems if problem.number == 3] == [True]


def test_it_ignores_a_blank_attempt(course_bank, learner):
    """An attempt with no graded part is not an attempt with every part correct."""
    record_attempt(learner, 1, [])
    assert 1 not in services.answered_problems(learner)[1]


def test_it_keeps_learners_apart(course_bank, learner, other_learner):
    solve(other_learner, 1, 2)
    tick_block(other_learner, 1)
    progress = services.progress(learner)
    assert progress.pages_done == 0
    assert progress.page(1).unsolved == (1, 2)
    assert progress.block(1).ticked == 0


def test_it_needs_the_goals_of_blocks_5_and_6_for_page_10(db, tmp_path, learner):
    load_bank(write_bank(tmp_path / "bank", (19, 20, 23, 24, 25)))
    solve(learner, 19, 20, 23, 24, 25)
    tick_block(learner, 5)
    progress = services.progress(learner)
    assert progress.page(9).done
    assert progress.page(10).blocks == (5, 6)
    assert progress.page(10).goals_missing == len(load_curriculum().block(6).goals)
    assert not progress.page(10).done
    tick_block(learner, 6)
    assert services.progress(learner).page(10).done


def test_it_names_block_states(course_bank, learner):
    assert {block.state for block in services.progress(learner).blocks} == {services.NOT_STARTED}
    record_attempt(learner, 21, ["incorrect"])  # block 2: an answer, even a wrong one
    services.save_goals(
        learner, load_curriculum().block(3), ["tail-latency"], timezone.now()
    )  # block 3: one goal
    states = {block.block.number: block.state for block in services.progress(learner).blocks}
    assert states == {
        1: services.NOT_STARTED,
        2: services.IN_PROGRESS,
        3: services.IN_PROGRESS,
        4: services.NOT_STARTED,
        5: services.NOT_STARTED,
        6: services.NOT_STARTED,
    }


def test_it_marks_a_block_done_with_its_problems_and_goals(db, tmp_path, learner):
    load_bank(write_bank(tmp_path / "bank", (25,)))
    solve(learner, 25)
    assert services.progress(learner).block(6).state == services.IN_PROGRESS
    tick_block(learner, 6)
    assert services.progress(learner).block(6).state == services.DONE
    assert services.progress(learner).block(5).state == services.IN_PROGRESS


def test_it_puts_next_up_in_plan_order_and_ends_with_none(db, tmp_path, learner):
    load_bank(write_bank(tmp_path / "bank", range(1, 26)))
    solve(learner, *range(1, 26))
    assert services.progress(learner).next_up.page.number == 1  # no goal ticked yet
    for block in (1, 3):
        tick_block(learner, block)
    progress = services.progress(learner)
    assert progress.pages_done == 4  # pages 1, 2, 5, 6
    assert progress.next_up.page.number == 3
    for block in (2, 4, 5):
        tick_block(learner, block)
    progress = services.progress(learner)
    assert progress.pages_done == 9
    assert progress.next_up.page.number == 10
    tick_block(learner, 6)
    progress = services.progress(learner)
    assert progress.pages_done == 10 and progress.next_up is None


def test_it_starts_the_plan_with_its_problems_in_plan_order(course_bank, learner):
    now = timezone.now()
    start, added = services.start_plan(learner, now)
    assert start.started_at == now and added == 7
    ranked = list(
        Card.objects.filter(user=learner).order_by("rank").values_list("problem__number", flat=True)
    )
    # The course's plan: block 1 pages 01-02 (problems 1-5), block 2 pages 03 (6, 7, 21) and
    # 04 (8, 22), block 3 pages 05 (9, 10, 17) and 06 (11, 12).
    assert ranked == [1, 2, 3, 21, 8, 17, 11]
    assert set(Card.objects.values_list("introduced_at", flat=True)) == {now}


def test_it_keeps_the_first_start_when_started_again(course_bank, learner):
    first = timezone.now()
    services.start_plan(learner, first)
    start, added = services.start_plan(learner, first + timedelta(hours=3))
    assert start.started_at == first and added == 0
    assert PlanStart.objects.filter(user=learner).count() == 1
    assert services.progress(learner).started_at == first


def test_it_adds_up_time_spent_from_reviews(course_bank, learner, other_learner):
    record_review(learner, 1, 30.0)
    record_review(learner, 2, 90.5)
    record_review(other_learner, 1, 1000.0)
    progress = services.progress(learner)
    assert progress.seconds_spent == pytest.approx(120.5)
    assert services.progress(learner).hours_spent == pytest.approx(120.5 / 3600)


def test_it_adds_the_length_of_finished_mock_interviews(course_bank, learner, other_learner):
    from django.apps import apps

    mock_model = apps.get_model("mock", "Mock")
    start = timezone.now() - timedelta(hours=2)
    for user, minutes in ((learner, 20), (other_learner, 45)):
        mock_model.objects.create(
            user=user,
            format="standard",
            started_at=start,
            deadline=start + timedelta(minutes=45),
            ended_at=start + timedelta(minutes=minutes),
        )
    mock_model.objects.create(  # still running: it counts once it ends
        user=learner, format="standard", started_at=start, deadline=start + timedelta(hours=9)
    )
    record_review(learner, 1, 30.0)
    mock_review = record_review(learner, 2, 500.0)
    mock_review.kind = "mock"  # its time is inside the mock's 20 minutes
    mock_review.save()
    assert services.progress(learner).seconds_spent == pytest.approx(30 + 20 * 60)


def test_it_saves_exactly_the_ticked_goals_of_one_block(db, learner):
    curriculum = load_curriculum()
    now = timezone.now()
    services.save_goals(learner, curriculum.block(1), BLOCK_1_GOALS[:2], now)
    services.save_goals(learner, curriculum.block(2), ["continuous-batching"], now)
    # Unticking one, and keys that are not block 1's (block 2's, made up) are ignored.
    kept = services.save_goals(
        learner, curriculum.block(1), [BLOCK_1_GOALS[1], "continuous-batching", "made-up"], now
    )
    assert kept == {BLOCK_1_GOALS[1]}
    assert services.ticked_goals(learner) == {BLOCK_1_GOALS[1], "continuous-batching"}


def test_it_keeps_the_first_tick_time(db, learner):
    block = load_curriculum().block(1)
    first = timezone.now()
    services.save_goals(learner, block, BLOCK_1_GOALS[:1], first)
    services.save_goals(learner, block, BLOCK_1_GOALS[:2], first + timedelta(days=1))
    tick = GoalTick.objects.get(user=learner, goal_key=BLOCK_1_GOALS[0])
    assert tick.ticked_at == first


def test_it_makes_a_new_problem_next_in_practice(course_bank, learner):
    now = timezone.now()
    services.start_plan(learner, now)  # problems 1, 2, 3 come before 17 in the queue
    ranks_before = dict(Card.objects.values_list("problem__number", "rank"))
    profile = practice.get_profile(learner)
    assert practice.practice_queue(learner, profile, now).card.problem.number == 1
    services.practice_problem(learner, 17, now)
    assert practice.practice_queue(learner, profile, now).card.problem.number == 17
    card = Card.objects.get(user=learner, problem__number=17)
    assert card.open_attempt.started_at == now
    # The plan order is untouched: the chosen question is simply on screen.
    assert dict(Card.objects.values_list("problem__number", "rank")) == ranks_before


def test_it_opens_a_chosen_problem_beyond_todays_new_limit(course_bank, learner):
    profile = practice.get_profile(learner)
    profile.daily_new_limit = 0
    profile.save()
    now = timezone.now()
    services.start_plan(learner, now)
    assert practice.practice_queue(learner, profile, now).card is None
    services.practice_problem(learner, 17, now)
    assert practice.practice_queue(learner, profile, now).card.problem.number == 17


def test_it_adds_a_problem_not_yet_in_practice(course_bank, learner):
    services.practice_problem(learner, 21, timezone.now())
    assert list(Card.objects.filter(user=learner).values_list("problem__number", flat=True)) == [21]


def test_it_opens_a_card_that_is_not_due_as_extra_practice(course_bank, learner):
    now = timezone.now()
    services.practice_problem(learner, 3, now)
    card = Card.objects.get(user=learner, problem__number=3)
    card.due_at = now + timedelta(days=6)
    card.last_reviewed_at = now - timedelta(days=1)
    card.open_attempt = None
    card.save()
    services.practice_problem(learner, 3, now)
    profile = practice.get_profile(learner)
    assert practice.practice_queue(learner, profile, now).card.pk == card.pk


def test_it_refuses_a_problem_not_in_the_bank(course_bank, learner):
    with pytest.raises(services.PlanError, match="not in the bank"):
        services.practice_problem(learner, 25, timezone.now())
