"""The shared interface: factory, stored states, switching scheduler, no Django in the package."""

import ast
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trainer.srs import (
    FsrsScheduler,
    FsrsState,
    ReviewRecord,
    Sm2Scheduler,
    Sm2State,
    make_scheduler,
)

PACKAGE = Path(__file__).resolve().parents[2] / "trainer" / "srs"
START = datetime(2025, 3, 3, 8, 0, tzinfo=UTC)

histories = st.lists(
    st.tuples(st.integers(0, 5), st.integers(1, 60 * 24 * 15)), min_size=0, max_size=20
).map(
    lambda steps: [
        ReviewRecord(quality, START + timedelta(minutes=sum(m for _, m in steps[: i + 1])))
        for i, (quality, _) in enumerate(steps)
    ]
)


def test_factory_builds_both_and_refuses_unknown():
    assert isinstance(make_scheduler("sm2"), Sm2Scheduler)
    fsrs_scheduler = make_scheduler("fsrs", desired_retention=0.85)
    assert isinstance(fsrs_scheduler, FsrsScheduler)
    assert fsrs_scheduler.engine.desired_retention == 0.85
    with pytest.raises(ValueError, match="unknown scheduler"):
        make_scheduler("leitner")
    with pytest.raises(TypeError):
        make_scheduler("sm2", desired_retention=0.9)


def test_a_scheduler_refuses_the_other_ones_state():
    with pytest.raises(TypeError, match="replay"):
        make_scheduler("sm2").review(FsrsState(), 4, START)
    with pytest.raises(TypeError, match="replay"):
        make_scheduler("fsrs").review(Sm2State(), 4, START)


def test_new_card_outcome_has_no_due_date():
    for name in ("sm2", "fsrs"):
        scheduler = make_scheduler(name)
        outcome = scheduler.replay([])
        assert outcome.state == scheduler.new_state()
        assert outcome.due is None and not outcome.repeat_today


def test_quality_out_of_range_refused():
    for name in ("sm2", "fsrs"):
        scheduler = make_scheduler(name)
        for bad in (-1, 6, 4.0, True):
            with pytest.raises(ValueError, match="quality"):
                scheduler.review(scheduler.new_state(), bad, START)
    with pytest.raises(ValueError, match="quality"):
        ReviewRecord(7, START)


@settings(max_examples=60, deadline=None)
@given(histories)
def test_switching_scheduler_and_back_recomputes_from_the_log(history):
    sm2, fsrs_scheduler = make_scheduler("sm2"), make_scheduler("fsrs")
    sm2_state = sm2.new_state()
    for record in history:
        sm2_state = sm2.review(sm2_state, record.quality, record.reviewed_at).state
    fsrs_outcome = fsrs_scheduler.replay(history)
    back = sm2.replay(history)
    assert back.state == sm2_state
    for outcome, scheduler in ((back, sm2), (fsrs_outcome, fsrs_scheduler)):
        stored = json.loads(json.dumps(outcome.state.to_dict()))
        assert scheduler.state_from_dict(stored) == outcome.state
        assert scheduler.outcome(scheduler.state_from_dict(stored)) == outcome


def test_due_is_utc_and_never_before_the_review_day():
    for name in ("sm2", "fsrs"):
        scheduler = make_scheduler(name)
        outcome = scheduler.review(scheduler.new_state(), 2, START)
        assert outcome.due.tzinfo is UTC
        assert outcome.due.date() >= START.date()


def test_package_imports_no_django_and_reads_no_clock():
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                names = []
            assert not any(name.split(".")[0] == "django" for name in names), path
            if isinstance(node, ast.Attribute):
                assert node.attr not in {"now", "today", "utcnow"}, f"clock read in {path.name}"
