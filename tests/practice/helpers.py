import re

from problems.models import Attempt
from problems.variants import variant_of


def open_attempt_of(client):
    """GET /practice/ and return the attempt on screen."""
    html = client.get("/practice/").content.decode()
    attempt_id = int(re.search(r"/practice/attempts/(\d+)/answer/", html).group(1))
    return Attempt.objects.get(pk=attempt_id)


def right_answers(attempt):
    variant = variant_of(attempt.version, attempt.seed)
    return {f"part-{part.key}": variant.key_text(part.key) for part in variant.parts}


def wrong_answers(attempt):
    variant = variant_of(attempt.version, attempt.seed)
    return {f"part-{part.key}": f"{variant.answer(part.key) * 3:.6g}" for part in variant.parts}


def fold_problem_texts(**extra):
    """Store every scenario version as the loader stores it once problem texts are folded in
    (`with_problem_texts`), with `extra` problem-level fields (code…) added: what a learner of a
    version published that way sees."""
    from problems.engine import content_hash, load_yaml, with_problem_texts
    from problems.models import ScenarioVersion
    from tests.conftest import EXAMPLE_PROBLEM

    data = {**load_yaml(EXAMPLE_PROBLEM.read_text()), **extra}
    for version in ScenarioVersion.objects.all():
        version.definition = with_problem_texts(data, version.definition)
        version.content_hash = content_hash(version.definition)
        version.save(update_fields=["definition", "content_hash"])


def review_on_screen(client):
    """The id of the graded answer /practice/ shows for rating, or None."""
    html = client.get("/practice/").content.decode()
    found = re.search(r"/practice/reviews/(\d+)/rate/", html)
    return int(found.group(1)) if found else None


def move_on(client):
    """Press "Next card" on the graded answer on screen: it keeps its automatic grade."""
    review_id = review_on_screen(client)
    assert review_id is not None, "no graded answer on screen"
    client.post(f"/practice/reviews/{review_id}/rate/", {"rating": ""})
