"""A wall-clock deadline for evaluating formulas, so that no request waits on a costly draft.

An instructor's formulas run in the request for the live check, the editor's save, the preview
and an import. A draft can be made slow on purpose or by accident (a derived value calling a
costly function thirty times, behind a constraint that rejects almost every draw, so each seed
is drawn `MAX_ATTEMPTS` times). Inside `with deadline(seconds):` every formula evaluation (and
every call of a registered function) first looks at the clock, and past the deadline raises
`OutOfTime`, naming what it was evaluating.

`OutOfTime` is deliberately not an `EngineError`: the checks treat an engine error as one seed's
failure and go on to the next seed; running out of time must stop the whole evaluation. Outside
a deadline the look costs one context-variable read.
"""

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_deadline: ContextVar = ContextVar("formula_deadline", default=None)


class OutOfTime(Exception):  # noqa: N818 - it is an event, not a bug
    """The deadline passed while `source` was being evaluated."""

    def __init__(self, seconds: float, source: str):
        self.seconds = seconds
        self.source = source
        super().__init__(f"stopped after {seconds:g} s while evaluating {source}")


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Evaluate formulas for at most `seconds` from now (nested deadlines: the inner one)."""
    token = _deadline.set((time.monotonic() + seconds, seconds))
    try:
        yield
    finally:
        _deadline.reset(token)


def check(source: str) -> None:
    """Raise `OutOfTime` when a deadline is set and has passed."""
    limit = _deadline.get()
    if limit is not None and time.monotonic() > limit[0]:
        raise OutOfTime(limit[1], source)
