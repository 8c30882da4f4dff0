"""Variants of stored scenario versions: compile once per process, draw, grade.

Compiling a definition (validating every formula) costs milliseconds; drawing from a compiled
scenario costs microseconds. Versions never change once saved, so the compiled scenario is kept
by (version id, content hash) for the life of the process, and a web process compiles every
published version as it starts (`compile_published`, called by trainer/wsgi.py).
"""

import logging
import secrets

from problems.engine import EngineError, Scenario, Variant, draw_variant, load_scenario
from problems.models import Attempt, ScenarioVersion

logger = logging.getLogger(__name__)

SEED_LIMIT = 2**53  # stays exact in JSON numbers
CACHE_SIZE = 512
_compiled: dict[tuple[int, str, int], Scenario] = {}


def compiled_scenario(
    version: ScenarioVersion, drawn_as: ScenarioVersion | None = None
) -> Scenario:
    """The engine's compiled `Scenario` of a `ScenarioVersion`.

    `drawn_as`, another version of the same scenario, compiles this definition under that
    version's number, so its draws (which hash the version number) are that version's: how a
    corrected key is applied to attempts drawn from the version it corrects.
    """
    number = version.number if drawn_as is None else drawn_as.number
    key = (version.pk, version.content_hash, number)
    scenario = _compiled.get(key)
    if scenario is None:
        scenario = load_scenario(
            version.definition, version=number, problem=version.scenario.problem.number
        )
        if len(_compiled) >= CACHE_SIZE:
            _compiled.pop(next(iter(_compiled)), None)
        _compiled[key] = scenario
    return scenario


def compile_published() -> int:
    """Compile every published version now, so that no learner's first draw from a version pays
    for compiling it. Returns how many were compiled.
    A definition that no longer compiles is logged and left to fail where it is drawn, as before.
    """
    compiled = 0
    for version in ScenarioVersion.objects.published().select_related("scenario__problem"):
        try:
            compiled_scenario(version)
        except EngineError:
            logger.exception("published version %s does not compile", version.pk)
        else:
            compiled += 1
    return compiled


def new_seed() -> int:
    return secrets.randbelow(SEED_LIMIT)


def variant_of(version: ScenarioVersion, seed: int) -> Variant:
    return draw_variant(compiled_scenario(version), seed)


def attempt_variant(attempt: Attempt) -> Variant:
    """The variant of an attempt as it is graded now: its own draw, with a corrected key if an
    instructor has applied one (see `Attempt.key_version`)."""
    key_version = attempt.key_version if attempt.key_version_id is not None else None
    if key_version is None:
        return variant_of(attempt.version, attempt.seed)
    return draw_variant(compiled_scenario(key_version, attempt.version), attempt.seed)


def mark_regrade_seen(attempt: Attempt) -> None:
    """The learner has opened a regraded attempt: the dashboard stops pointing to it."""
    if attempt.regrade_unseen:
        type(attempt).objects.filter(pk=attempt.pk).update(regrade_unseen=False)
        attempt.regrade_unseen = False
