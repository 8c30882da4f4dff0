"""A learner's attempts at a variant: draw them, grade their answers, store the grades, read them
back, and show the worked solution. Practice, mock interviews and regrades all go through here, so
an attempt is made, graded, stored and shown the same way wherever it was typed.

- `draw` and `draw_many` create attempts at versions, each with a new seed (a practice question,
  another variant, the slots of a mock).
- `grade` grades typed answers ({part key: text}) against the attempt's variant as a whole, so an
  error carried forward from an earlier part counts (see `problems.engine.grading`). A blank part
  is graded blank (score 0); an unreadable one is a parse error that the caller reports and that
  costs nothing.
- `submit` stores a first answer (a practice question: no part of it is stored yet) and marks
  the attempt submitted; `save_grades` writes one `PartAnswer` per part, creating or updating
  rows (a mock records the typed text first and grades it at the end; a regrade updates rows in
  place); both map a graded part to a row with `grade_fields`.
- `stored_outcomes` reads a submitted attempt's grades back, with its keys recomputed from the
  variant; `solution_context` is what a page needs to show the graded attempt and its worked
  solution (`worked_solution`, which an instructor's preview shows too).
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction

from problems.engine import Variant, solution_texts
from problems.engine.grading import PARSE_ERROR, read_answer
from problems.engine.variant import VariantPart
from problems.models import Attempt, PartAnswer, Problem, ScenarioVersion
from problems.variants import attempt_variant, new_seed

MAX_ELAPSED_SECONDS = 60 * 60
"""The longest time credited to one question [s]: a card left open overnight is not 14 hours of
thinking. Practice, mocks and the statistics cap the time at it."""
MAX_TEXT = 200  # characters of a typed answer that are kept
BLANK = PartAnswer.Status.BLANK
PENDING = PartAnswer.Status.PENDING
NO_ANSWER = "No answer."
GRADE_FIELDS = ("value", "status", "score", "misconception", "message", "carried_forward")
VERDICTS: dict[str, str] = {
    PartAnswer.Status.CORRECT: "Correct",
    PartAnswer.Status.PARTIAL: "Partly right",
    PartAnswer.Status.INCORRECT: "Not correct",
    BLANK: "No answer",
    PENDING: "Not graded yet",
}
CARRIED_FORWARD = "Correct with your earlier answer"
# The grader ends a known mistake's feedback with the answer and the key, which the result line
# already shows (problems.engine.grading).
_ANSWER_AND_KEY = re.compile(r" \(Your answer: [^()]*; the key is [^()]*\.\)$")


@dataclass
class PartOutcome:
    """One answer box after grading: what was asked, what was typed, the verdict and the key."""

    key: str
    prompt: str
    unit: str
    text: str
    status: str
    score: float
    message: str
    misconception: str | None = None
    key_text: str = ""
    accepted: str = ""
    carried_forward: bool = False
    value: float | None = None  # what was typed, in the part's unit, as the grader read it

    @property
    def counts(self) -> bool:
        """False for an unreadable answer: it is pointed out and costs nothing."""
        return self.status != PARSE_ERROR

    @property
    def verdict(self) -> str:
        """The verdict in words. A part graded against the learner's own earlier (wrong) values
        says so: it is not "Correct" beside a key it does not match."""
        if self.carried_forward and self.status == PartAnswer.Status.CORRECT:
            return CARRIED_FORWARD
        return VERDICTS.get(self.status, self.status.replace("_", " ").capitalize())

    @property
    def explanation(self) -> str:
        """What the grader's message adds to the result line (verdict, answer, key, accepted
        range): why a known mistake is wrong, or what an earlier error made of this part.
        Empty when it would only repeat the line."""
        if self.carried_forward:
            return self.message
        if self.misconception:
            return _ANSWER_AND_KEY.sub("", self.message)
        return ""


@dataclass
class GradedAttempt:
    variant: Variant
    parts: list[PartOutcome] = field(default_factory=list)

    @property
    def parse_errors(self) -> dict[str, str]:
        return {part.key: part.message for part in self.parts if not part.counts}

    @property
    def score(self) -> float:
        return sum(part.score for part in self.parts) / len(self.parts) if self.parts else 0.0

    @property
    def incomplete(self) -> bool:
        """Some part was left blank (or nothing could be graded)."""
        return not self.parts or any(part.status == BLANK for part in self.parts)


def _unanswered(variant: Variant, part: VariantPart, text: str = "") -> PartOutcome:
    """A part as it stands before a verdict: blank, with its key and accepted range."""
    return PartOutcome(
        part.key,
        part.prompt,
        part.unit,
        text,
        BLANK,
        0.0,
        NO_ANSWER,
        key_text=variant.key_text(part.key),
        accepted=variant.accepted(part.key),
    )


def draw(user_id: int, version: ScenarioVersion, purpose: str, now: datetime) -> Attempt:
    """A new attempt at `version` with a fresh seed, started `now`."""
    return Attempt.objects.create(
        user_id=user_id, version=version, seed=new_seed(), purpose=purpose, started_at=now
    )


def draw_many(
    user_id: int, drawn: Sequence[tuple[ScenarioVersion, int]], purpose: str, now: datetime
) -> list[Attempt]:
    """New attempts at each (version, seed), in that order, started `now` (a mock chooses its
    seeds so that no two of its slots are the same variant)."""
    return Attempt.objects.bulk_create(
        [
            Attempt(user_id=user_id, version=version, seed=seed, purpose=purpose, started_at=now)
            for version, seed in drawn
        ]
    )


def typed_text(text: str | None) -> str:
    return (text or "").strip()[:MAX_TEXT]


def grade(
    attempt: Attempt, answers: dict[str, str], variant: Variant | None = None
) -> GradedAttempt:
    """Grade typed answers {part key: text} of `attempt` without saving anything."""
    variant = variant or attempt_variant(attempt)
    typed = {part.key: typed_text(answers.get(part.key)) for part in variant.parts}
    filled = {key: text for key, text in typed.items() if text}
    results = variant.grade_all(filled) if filled else {}
    parts = []
    for part in variant.parts:
        result = results.get(part.key)
        outcome = _unanswered(variant, part, typed[part.key])
        if result is not None:
            outcome.status = result.status
            outcome.score = result.score
            outcome.message = result.message
            outcome.misconception = result.misconception
            outcome.carried_forward = result.carried_forward
            outcome.value = result.value
        parts.append(outcome)
    return GradedAttempt(variant, parts)


def grade_fields(part: PartOutcome) -> dict[str, Any]:
    """The graded columns of a `PartAnswer` for one graded part. An answer that cannot be read
    where it once could (a corrected version changed its reading) is kept as typed and counts as
    blank, rather than losing the learner's text."""
    blank = part.status in (BLANK, PARSE_ERROR)
    return {
        "value": part.value,
        "status": BLANK if blank else part.status,
        "score": 0.0 if blank else part.score,
        "misconception": part.misconception or "",
        "message": part.message,
        "carried_forward": part.carried_forward,
    }


def submit(attempt: Attempt, graded: GradedAttempt, submitted_at: datetime) -> None:
    """Store the first answer to `attempt`: a row per part, its score, and when it was
    submitted. The caller holds the transaction and the attempt's row lock, and has checked that
    it is not submitted (so no part of it is stored yet)."""
    PartAnswer.objects.bulk_create(
        [
            PartAnswer(attempt=attempt, part_key=part.key, text=part.text, **grade_fields(part))
            for part in graded.parts
        ]
    )
    attempt.score = graded.score
    attempt.submitted_at = submitted_at
    attempt.save(update_fields=["score", "submitted_at"])


def submit_ungraded(attempt: Attempt, submitted_at: datetime) -> None:
    """Close an attempt that cannot be graded (its version no longer compiles): it scores
    nothing rather than holding up what it belongs to."""
    attempt.score = 0.0
    attempt.submitted_at = submitted_at
    attempt.save(update_fields=["score", "submitted_at"])


def save_grades(
    attempt: Attempt, graded: GradedAttempt, *, submitted_at: datetime | None = None
) -> None:
    """Store the grades of every part (creating or updating its row) and the attempt's score;
    `submitted_at` also marks the attempt submitted. The caller holds the transaction."""
    rows = {row.part_key: row for row in attempt.answers.all()}
    to_update, to_create = [], []
    for part in graded.parts:
        row = rows.get(part.key)
        if row is None:
            row = PartAnswer(attempt=attempt, part_key=part.key, text=part.text)
            to_create.append(row)
        else:
            to_update.append(row)
        for name, value in grade_fields(part).items():
            setattr(row, name, value)
    if to_update:
        PartAnswer.objects.bulk_update(to_update, GRADE_FIELDS)
    if to_create:
        PartAnswer.objects.bulk_create(to_create)
    attempt.score = graded.score
    fields = ["score"]
    if submitted_at is not None:
        attempt.submitted_at = submitted_at
        fields.append("submitted_at")
    attempt.save(update_fields=fields)


def record_typed(
    attempt: Attempt, part_key: str, text: str, variant: Variant | None = None
) -> PartAnswer | None:
    """Keep the text typed for one part, to be graded with the others later (a mock grades the
    whole attempt at its end, so errors carried forward count). The text is read now, as the
    grader reads it, so an unreadable answer, or one written in a way the part does not read
    (a fraction in a percentage box), is pointed out at once: raises `ParseError` then, and
    stores nothing. Returns the row, or None when the part was recorded already."""
    variant = variant or attempt_variant(attempt)
    text = typed_text(text)
    value = read_answer(variant, part_key, text)
    try:
        with transaction.atomic():
            return PartAnswer.objects.create(
                attempt=attempt,
                part_key=part_key,
                text=text,
                value=value,
                status=PENDING,
                score=0.0,
            )
    except IntegrityError:  # the unique (attempt, part) constraint: recorded already
        return None


def recorded_texts(attempt: Attempt) -> dict[str, str]:
    """{part key: typed text} of the parts stored so far."""
    return {row.part_key: row.text for row in attempt.answers.all()}


def stored_outcomes(attempt: Attempt, variant: Variant | None = None) -> list[PartOutcome]:
    """The graded parts of a submitted attempt, with keys recomputed from its variant."""
    variant = variant or attempt_variant(attempt)
    stored = {answer.part_key: answer for answer in attempt.answers.all()}
    outcomes = []
    for part in variant.parts:
        answer = stored.get(part.key)
        outcome = _unanswered(variant, part)
        if answer is not None:
            outcome.text = answer.text
            outcome.status = answer.status
            outcome.score = answer.score
            outcome.message = answer.message
            outcome.misconception = answer.misconception or None
            outcome.carried_forward = answer.carried_forward
            outcome.value = answer.value
        outcomes.append(outcome)
    return outcomes


def worked_solution(variant: Variant, problem: Problem) -> dict[str, Any]:
    """What is shown once a variant is answered: the question with its numbers, the worked steps,
    and the model interview answer, trade-offs, follow-up questions, self-check list, code and
    sources, all told with the variant's numbers (an instructor's preview shows the same, with no
    attempt). A version stored before the problem's texts were folded into it takes them from
    the problem."""
    return {"text": variant.text, "steps": variant.steps, **solution_texts(variant, problem)}


def solution_context(
    attempt: Attempt, variant: Variant, outcomes: list[PartOutcome] | None = None
) -> dict[str, Any]:
    """What a page shows of a graded attempt: its worked solution, and each part's verdict and
    key. `outcomes` are the graded parts when the caller has them (a submit), else they are read
    back."""
    problem = attempt.version.scenario.problem
    return {
        **worked_solution(variant, problem),
        "attempt": attempt,
        "problem": problem,
        "score": attempt.score or 0.0,
        "results": outcomes if outcomes is not None else stored_outcomes(attempt, variant),
        "notice": attempt.regrade_notice,
    }
