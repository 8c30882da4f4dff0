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
