import re

from problems.models import Attempt
from problems.variants import attempt_variant


def attempt_on_screen(page):
    """The practice attempt whose answer form the page shows."""
    action = page.locator("#card form[action*='/answer/']").get_attribute("action")
    return Attempt.objects.get(pk=int(re.search(r"/attempts/(\d+)/answer/", action).group(1)))


def fill_parts(page, answers):
    """Type {part key: text} into the practice form's boxes."""
    for key, text in answers.items():
        page.fill(f"#part-{key}", text)


def right_answers(attempt):
    variant = attempt_variant(attempt)
    return {part.key: variant.key_text(part.key) for part in variant.parts}
