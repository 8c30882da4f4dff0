"""Fixing a wrong key: re-grade the attempts of a version with the parts of its correction.

An attempt is drawn from its `version` and seed; a correction (a later version of the same
scenario) is applied by compiling the correction's definition under the old version's number
(`compiled_scenario(new, drawn_as=old)`), so the same seed draws the same numbers and only the
keys, misconceptions and steps change. That is only true when everything that decides the draw
is the same: parameters, given and derived values, constraints. The answer boxes must be the same
too (keys and units), because the learner typed into them. `refusal` says why a pair cannot be
regraded.

The regrade reads the typed answers (`PartAnswer.text`) and grades them again with
`problems.attempts.grade` (errors carried forward included), exactly as a submit does. It is
idempotent: an attempt whose result is already the corrected one is not touched, so a second run
changes nothing. Open attempts are switched to the corrected key before they are
submitted. Changed attempts get a `regrade_notice` that the learner sees on the attempt page.
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from problems import attempts
from problems.attempts import PartOutcome
from problems.models import Attempt, AuthoringLog, PartAnswer, Regrade, ScenarioVersion
from problems.signals import attempt_rescored
from problems.variants import attempt_variant

DRAW_FIELDS = ("params", "given", "derived", "constraints")
BATCH = 200
GRADE_FIELDS = attempts.GRADE_FIELDS


Change = dict[str, Any]
"""One regraded attempt's entry in `Regrade.changes` (see the model)."""


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _draw_field(definition: dict[str, Any], name: str) -> object:
    value = definition.get(name)
    return value if value else ([] if name == "constraints" else {})


def _boxes(definition: dict[str, Any]) -> dict[str, str]:
    return {
        str(part.get("key")): str(part.get("unit", "")).strip()
        for part in definition.get("parts", [])
        if isinstance(part, dict)
    }


def refusal(old: ScenarioVersion, new: ScenarioVersion) -> str | None:
    """Why `new` cannot regrade the attempts of `old`, or None when it can."""
    if old.scenario_id != new.scenario_id:
        return f"v{old.number} belongs to another scenario."
    if old.pk == new.pk:
        return f"v{old.number} cannot correct itself."
    if old.status == ScenarioVersion.Status.DRAFT:
        return f"v{old.number} is a draft: it has no attempts to regrade."
    differ = [
        name
        for name in DRAW_FIELDS
        if _canonical(_draw_field(old.definition, name))
        != _canonical(_draw_field(new.definition, name))
    ]
    if differ:
        return (
            f"v{new.number} cannot regrade v{old.number}: its {', '.join(differ)} differ, so the "
            f"same seeds would draw other numbers than the learners saw. Keep them as in "
            f"v{old.number}, or publish without the regrade."
        )
    before, after = _boxes(old.definition), _boxes(new.definition)
    if set(before) != set(after):
        return (
            f"v{new.number} cannot regrade v{old.number}: its parts are not the same answer "
            f"boxes ({', '.join(sorted(before))} vs {', '.join(sorted(after))})."
        )
    units = sorted(key for key in before if before[key] != after[key])
    if units:
        return (
            f"v{new.number} cannot regrade v{old.number}: the unit of {', '.join(units)} "
            "changed, and learners typed their answers in the old one."
        )
    return None


def record_request(
    actor: User | None, old: ScenarioVersion, new: ScenarioVersion, now: datetime
) -> Regrade:
    """Record a regrade of `old`'s attempts with `new`'s parts, for the `regrade_attempts` task
    to carry out (`problems.jobs` enqueues it when the transaction commits)."""
    reason = refusal(old, new)
    if reason:
        raise ValueError(reason)
    return Regrade.objects.create(
        corrected=old, key_version=new, requested_by=actor, created_at=now
    )


def run_regrade(regrade_id: int) -> Regrade | None:
    """Carry out a recorded regrade (the task's body). Safe to run again: a finished regrade is
    left alone, and an interrupted one continues where the committed batches stopped."""
    with transaction.atomic():
        regrade = (
            Regrade.objects.select_for_update()
            .select_related("corrected__scenario__problem", "key_version__scenario__problem")
            .filter(pk=regrade_id)
            .first()
        )
        if regrade is None or regrade.status in (Regrade.Status.DONE, Regrade.Status.ERROR):
            return regrade
        regrade.status = Regrade.Status.RUNNING
        regrade.save(update_fields=["status"])
    old, new = regrade.corrected, regrade.key_version
    reason = refusal(old, new)
    if reason:
        Regrade.objects.filter(pk=regrade.pk).update(
            status=Regrade.Status.ERROR, message=reason, finished_at=timezone.now()
        )
        regrade.refresh_from_db()
        return regrade
    ids = list(Attempt.objects.filter(version=old).order_by("pk").values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH):
        _regrade_batch(regrade.pk, ids[start : start + BATCH], old, new)
    with transaction.atomic():
        regrade = Regrade.objects.select_for_update().get(pk=regrade.pk)
        regrade.attempts_checked = Attempt.objects.filter(
            version=old, submitted_at__isnull=False
        ).count()
        regrade.status = Regrade.Status.DONE
        regrade.finished_at = timezone.now()
        regrade.save(update_fields=["attempts_checked", "status", "finished_at"])
        AuthoringLog.record(
            regrade.requested_by,
            AuthoringLog.Action.REGRADE,
            regrade.finished_at,
            version=new,
            regrade=regrade.pk,
            corrected=old.number,
            checked=regrade.attempts_checked,
            changed=regrade.attempts_changed,
        )
    return regrade


def _regrade_batch(
    regrade_id: int, ids: list[int], old: ScenarioVersion, new: ScenarioVersion
) -> None:
    with transaction.atomic():
        # Lock first, so a learner submitting one of these now is graded before or after us,
        # never half and half.
        list(Attempt.objects.select_for_update().filter(pk__in=ids).values_list("pk", flat=True))
        batch = (
            Attempt.objects.filter(pk__in=ids)
            .select_related("version__scenario__problem", "key_version__scenario__problem")
            .prefetch_related("answers")
            .order_by("pk")
        )
        changes: list[Change] = []
        pending, parts_changed, changed = 0, 0, 0
        switched = []  # attempts whose only change is the key version: one UPDATE for all
        rows = Rows()
        for attempt in batch:
            key_before = attempt.key_version_id
            outcome = _regrade_attempt(attempt, old, new, rows)
            if outcome == "pending":
                pending += 1
            if (outcome is None or outcome == "pending") and key_before != new.pk:
                switched.append(attempt.pk)
            if isinstance(outcome, dict):
                changes.append(outcome)
                parts_changed += len(outcome["parts"])
                changed += "skipped" not in outcome
        PartAnswer.objects.bulk_update(rows.to_update, GRADE_FIELDS, batch_size=500)
        PartAnswer.objects.bulk_create(rows.to_create)
        Attempt.objects.filter(pk__in=switched).update(key_version=new)
        regrade = Regrade.objects.select_for_update().get(pk=regrade_id)
        regrade.changes = regrade.changes + changes
        regrade.attempts_changed += changed
        regrade.parts_changed += parts_changed
        regrade.attempts_pending += pending
        regrade.save(
            update_fields=["changes", "attempts_changed", "parts_changed", "attempts_pending"]
        )


@dataclass
class Rows:
    """Part answers to write for a whole batch at once."""

    to_update: list[PartAnswer] = field(default_factory=list)
    to_create: list[PartAnswer] = field(default_factory=list)


def _regrade_attempt(
    attempt: Attempt, old: ScenarioVersion, new: ScenarioVersion, rows: Rows
) -> Change | Literal["pending"] | None:
    """Regrade one attempt; returns its change entry, "pending" for an open attempt (to be
    graded with the new key when submitted), or None when its grades did not change. Attempts
    that return "pending" or None still need their key version set by the caller."""
    if attempt.submitted_at is None:
        return None if attempt.key_version_id == new.pk else "pending"
    before = attempt_variant(attempt)
    key_before = attempt.key_version_id
    attempt.key_version = new
    stored = {answer.part_key: answer for answer in attempt.answers.all()}
    graded = attempts.grade(attempt, {key: answer.text for key, answer in stored.items()})
    after, parts, parse_errors = graded.variant, graded.parts, graded.parse_errors
    if parse_errors:
        # Same boxes and units, so this cannot happen with answers that were read before; if
        # it does, the attempt keeps its grades rather than losing answers.
        return {
            "attempt": attempt.pk,
            "user": attempt.user_id,
            "skipped": "; ".join(f"{key}: {message}" for key, message in parse_errors.items()),
            "parts": [],
        }
    part_changes: list[dict[str, Any]] = []
    for part in parts:
        values = attempts.grade_fields(part)
        row = stored.get(part.key)
        if row is None:
            rows.to_create.append(PartAnswer(attempt=attempt, part_key=part.key, text="", **values))
            continue
        if any(getattr(row, name) != value for name, value in values.items()):
            if (row.status, row.score, row.misconception) != (
                values["status"],
                values["score"],
                values["misconception"],
            ):
                part_changes.append(
                    {
                        "key": part.key,
                        "status": [row.status, part.status],
                        "score": [row.score, part.score],
                        "key_text": [before.key_text(part.key), after.key_text(part.key)],
                    }
                )
            for name, value in values.items():
                setattr(row, name, value)
            rows.to_update.append(row)
    score = graded.score
    score_before = attempt.score
    keys_changed = [
        part.key for part in parts if before.key_text(part.key) != after.key_text(part.key)
    ]
    # The key version alone is written by the caller, for the whole batch at once.
    fields = []
    if score_before is None or abs(score - score_before) > 1e-12:
        attempt.score = score
        fields.append("score")
    if part_changes or keys_changed or "score" in fields:
        attempt.regrade_notice = _notice(old, new, attempt, parts, part_changes, keys_changed)
        attempt.regrade_unseen = True
        fields += ["regrade_notice", "regrade_unseen"]
    if fields:
        if key_before != new.pk:
            fields.append("key_version")
        attempt.save(update_fields=fields)
    if "score" in fields:
        attempt_rescored.send(sender=Attempt, attempt=attempt)
    if not part_changes and "score" not in fields and not keys_changed:
        return None
    return {
        "attempt": attempt.pk,
        "user": attempt.user_id,
        "score": [score_before, score],
        "parts": part_changes,
        "keys": keys_changed,
    }


def _notice(
    old: ScenarioVersion,
    new: ScenarioVersion,
    attempt: Attempt,
    parts: Sequence[PartOutcome],
    part_changes: list[dict[str, Any]],
    keys_changed: list[str],
) -> str:
    when = timezone.now().date().isoformat()
    lines = [
        f"On {when} an instructor corrected the answer key of this question (version "
        f"{old.number} → {new.number}) and your answers were graded again."
    ]
    prompts = {part.key: (index, part.prompt) for index, part in enumerate(parts, start=1)}
    for change in part_changes:
        index, _ = prompts[change["key"]]
        before, after = change["status"]
        lines.append(
            f"Part {index}: now {after} (was {before}); key {change['key_text'][1]} "
            f"(was {change['key_text'][0]})."
        )
    for key in keys_changed:
        if any(change["key"] == key for change in part_changes):
            continue
        index, _ = prompts[key]
        lines.append(f"Part {index}: the key is now shown correctly; your grade did not change.")
    if attempt.score is not None:
        lines.append(f"Score: {attempt.score:.2f}.")
    return " ".join(lines)
