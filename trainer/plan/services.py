"""The 24-hour plan per learner: its rules, computed from the practice records.

The rules (also stated on the plan's pages):

- A problem is **solved** once an attempt at it (practice or mock) has every part correct.
- A page is **done** when each of its problems is solved and every goal of the blocks that study
  it is ticked. Page 10 is studied by two blocks (5 and 6, the capstone), so it needs the goals
  of both: the capstone is page 10's last test.
- A block is **done** when each of its problems is solved and all its goals are ticked; **in
  progress** once one of its problems has been answered (right or wrong) or one goal ticked;
  otherwise **not started**.
- **Next up** is the first page, in plan order, that is not done.
- **Time spent** adds up the time of every practice review (from showing a question to its
  answer, at most an hour each) and the whole length of every finished mock interview.

``progress(user)`` costs the same few queries whatever the learner's history.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Sum

from problems.models import Attempt, PartAnswer, Problem
from trainer.curriculum import Block, Page, load_curriculum
from trainer.mock.models import Mock
from trainer.plan.models import GoalTick, PlanStart
from trainer.practice import services as practice
from trainer.practice.models import Review

NOT_STARTED = "not started"
IN_PROGRESS = "in progress"
DONE = "done"


class PlanError(Exception):
    """A request that cannot be carried out; the message is for the learner."""


@dataclass(frozen=True)
class ProblemState:
    number: int
    title: str  # from the bank; empty while the problem is not in it
    attempted: bool
    solved: bool


@dataclass(frozen=True)
class GoalState:
    key: str
    text: str
    ticked: bool


@dataclass(frozen=True)
class BlockProgress:
    block: Block
    goals: tuple[GoalState, ...]
    problems: tuple[ProblemState, ...]
    state: str

    @property
    def ticked(self) -> int:
        return sum(goal.ticked for goal in self.goals)

    @property
    def solved(self) -> int:
        return sum(problem.solved for problem in self.problems)


@dataclass(frozen=True)
class PageProgress:
    page: Page
    problems: tuple[ProblemState, ...]
    blocks: tuple[int, ...]  # the blocks whose goals count for this page
    goals_total: int
    goals_ticked: int

    @property
    def unsolved(self) -> tuple[int, ...]:
        return tuple(problem.number for problem in self.problems if not problem.solved)

    @property
    def goals_missing(self) -> int:
        return self.goals_total - self.goals_ticked

    @property
    def done(self) -> bool:
        return not self.unsolved and not self.goals_missing


@dataclass(frozen=True)
class Progress:
    started_at: datetime | None
    seconds_spent: float
    pages: tuple[PageProgress, ...]
    blocks: tuple[BlockProgress, ...]

    @property
    def hours_spent(self) -> float:
        return self.seconds_spent / 3600

    @property
    def pages_done(self) -> int:
        return sum(page.done for page in self.pages)

    @property
    def next_up(self) -> PageProgress | None:
        """The first page not done, in the order the plan reaches pages; None when all are."""
        by_number = {page.page.number: page for page in self.pages}
        for block in self.blocks:
            for number in block.block.pages:
                if not by_number[number].done:
                    return by_number[number]
        return None

    def page(self, number: int) -> PageProgress:
        return next(page for page in self.pages if page.page.number == number)

    def block(self, number: int) -> BlockProgress:
        return next(block for block in self.blocks if block.block.number == number)


def answered_problems(user: User) -> tuple[set[int], set[int]]:
    """(problem numbers with a submitted attempt, those with an attempt all of whose parts are
    correct), over practice and mock attempts alike: two queries."""
    submitted = Attempt.objects.filter(user=user, submitted_at__isnull=False)
    number = "version__scenario__problem__number"
    attempted = set(submitted.values_list(number, flat=True).distinct())
    answers = PartAnswer.objects.filter(attempt=OuterRef("pk"))
    solved = set(
        submitted.filter(
            Exists(answers), ~Exists(answers.exclude(status=PartAnswer.Status.CORRECT))
        )
        .values_list(number, flat=True)
        .distinct()
    )
    return attempted, solved


def ticked_goals(user: User) -> set[str]:
    return set(GoalTick.objects.filter(user=user).values_list("goal_key", flat=True))


def seconds_spent(user: User) -> float:
    """Practice time (each review's elapsed time) plus the whole length of each finished mock
    interview. A mock's own reviews are left out: their time is inside the mock's length."""
    practice_seconds = (
        Review.objects.filter(user=user)
        .exclude(kind=Review.Kind.MOCK)
        .aggregate(total=Sum("elapsed_seconds"))["total"]
    )
    return (practice_seconds or 0.0) + _mock_seconds(user)


def _mock_seconds(user: User) -> float:
    total = Mock.objects.filter(user=user, ended_at__isnull=False).aggregate(
        total=Sum(F("ended_at") - F("started_at"))
    )["total"]
    return total.total_seconds() if total else 0.0


def progress(user: User) -> Progress:
    """Where the learner stands in the plan: seven queries, whatever their history."""
    curriculum = load_curriculum()
    start = PlanStart.objects.filter(user=user).values_list("started_at", flat=True).first()
    ticked = ticked_goals(user)
    attempted, solved = answered_problems(user)
    titles = dict(Problem.objects.values_list("number", "title"))

    def state_of(number: int) -> ProblemState:
        return ProblemState(number, titles.get(number, ""), number in attempted, number in solved)

    blocks = []
    for block in curriculum.blocks:
        goals = tuple(GoalState(goal.key, goal.text, goal.key in ticked) for goal in block.goals)
        problems = tuple(state_of(number) for number in block.problems)
        if all(problem.solved for problem in problems) and all(goal.ticked for goal in goals):
            state = DONE
        elif any(problem.attempted for problem in problems) or any(g.ticked for g in goals):
            state = IN_PROGRESS
        else:
            state = NOT_STARTED
        blocks.append(BlockProgress(block, goals, problems, state))
    pages = []
    for page in curriculum.pages:
        counted = [block for block in blocks if page.number in block.block.pages]
        pages.append(
            PageProgress(
                page,
                tuple(state_of(number) for number in page.problems),
                tuple(block.block.number for block in counted),
                sum(len(block.goals) for block in counted),
                sum(block.ticked for block in counted),
            )
        )
    return Progress(start, seconds_spent(user), tuple(pages), tuple(blocks))


def start_plan(user: User, now: datetime) -> tuple[PlanStart, int]:
    """Record the start of the plan (once) and put every problem of the plan into practice, in
    plan order. Returns (the start, how many problems were added); pressing it again keeps the
    first start and adds any problem that has reached the bank since."""
    order = list(load_curriculum().problems_in_plan_order())
    with transaction.atomic():
        start, _ = PlanStart.objects.get_or_create(user=user, defaults={"started_at": now})
        added = practice.introduce(user, order, now)
    return start, added


def save_goals(user: User, block: Block, keys: Iterable[str], now: datetime) -> set[str]:
    """Make exactly ``keys`` the ticked goals of ``block`` for this learner; keys that are not
    the block's goals are ignored. Returns the ticked keys of the block."""
    block_keys = {goal.key for goal in block.goals}
    wanted = block_keys & set(keys)
    with transaction.atomic():
        GoalTick.objects.filter(user=user, goal_key__in=block_keys - wanted).delete()
        GoalTick.objects.bulk_create(
            [GoalTick(user=user, goal_key=key, ticked_at=now) for key in sorted(wanted)],
            ignore_conflicts=True,
        )
    return wanted


def practice_problem(user: User, number: int, now: datetime) -> None:
    """Open problem `number` in practice now (see `practice.practice_now`)."""
    try:
        practice.practice_now(user, number, now)
    except practice.PracticeError as error:
        raise PlanError(str(error)) from None
