"""Before a mock ends, no page or partial the learner can reach shows a key, an accepted
interval, a verdict, a misconception, a score, a seed or a worked step."""

import html as html_module
import itertools
import re

import pytest

from problems.engine import LIBRARY
from tests.mock.helpers import HX, answer, key_forms, start, variants_of

SEEDS = [1234567890123, 98765432109876, 5555555555555, 31415926535897, 27182818284590]


@pytest.fixture
def fixed_seeds(monkeypatch):
    seeds = itertools.cycle(SEEDS)
    monkeypatch.setattr("problems.variants.new_seed", lambda: next(seeds))


def _secrets(mock):
    """Everything that must not be in a page before the end."""
    secrets = set()
    for item, variant in variants_of(mock):
        secrets.add(str(item.attempt.seed))
        secrets.update(variant.steps)
        for part in variant.parts:
            secrets.update(key_forms(variant, part.key))
            secrets.update(
                misconception.tag
                for misconception in variant.scenario.part(part.key).misconceptions
            )
    secrets.update(LIBRARY)
    return {secret for secret in secrets if secret}


# A recorded box shows the learner's own answer back (as typed, and as read when that differs):
# the key when they typed it, which says nothing of its correctness.
ECHO = re.compile(r"Recorded: <strong>[^<]*</strong>( \(read as [^)]*\))?")


def _assert_clean(response, secrets, where):
    text = html_module.unescape(ECHO.sub("Recorded: (answer)", response.content.decode()))
    for secret in secrets:
        assert secret not in text, f"{where} shows {secret!r}"
    # What the grader and the result template write around a verdict.
    for marker in ('class="verdict', "Accepted from", "accepted from", "The key is", "Score:"):
        assert marker not in text, f"{where} shows {marker!r}"


def test_it_shows_no_key_or_verdict_anywhere_before_the_end(
    fixed_seeds, wide_bank, mocking, settings
):
    settings.ANSWER_RATE_LIMIT = 1000  # this walk sends about 80 answers in a few seconds
    mock = start(mocking)
    secrets = _secrets(mock)
    assert len(mock.items.all()) == 5 and len(secrets) > 60
    reached = []

    def visit(response, where):
        _assert_clean(response, secrets, where)
        reached.append(where)
        return response

    visit(mocking.get("/mock/"), "the mock index")
    visit(mocking.get("/"), "the dashboard")
    visit(mocking.get(f"/mock/{mock.pk}/", follow=True), "the mock's URL")
    for item, variant in variants_of(mock):
        page = visit(mocking.get(f"/mock/{mock.pk}/problems/{item.position}/"), "a problem")
        # The search is meaningful: the page does show the problem's own text.
        assert variant.prompts[variant.parts[0].key] in html_module.unescape(page.content.decode())
        for number, part in enumerate(variant.parts):
            # A parse error, then the key itself typed by the learner, then a second try.
            visit(
                answer(mocking, mock, item.position, part.key, "12 parsecs", headers=HX),
                "a parse error partial",
            )
            visit(
                answer(mocking, mock, item.position, part.key, "12 parsecs"), "a parse error page"
            )
            typed = variant.key_text(part.key)
            if number % 2:
                visit(
                    answer(mocking, mock, item.position, part.key, typed, headers=HX),
                    "a recorded partial",
                )
            else:
                visit(
                    answer(mocking, mock, item.position, part.key, typed, follow=True),
                    "a recorded page",
                )
            visit(
                answer(mocking, mock, item.position, part.key, "1", headers=HX),
                "a second answer's partial",
            )
        visit(mocking.get(f"/mock/{mock.pk}/problems/{item.position}/"), "an answered problem")
        visit(
            mocking.get(f"/mock/{mock.pk}/report/{item.position}/", follow=True),
            "a worked solution before the end",
        )
        # The practice views must not show a mock's attempt either.
        visit(
            mocking.get(f"/practice/attempts/{item.attempt.pk}/", follow=True),
            "the practice attempt page",
        )
        visit(
            mocking.post(
                f"/practice/attempts/{item.attempt.pk}/answer/",
                {f"part-{p.key}": "1" for p in variant.parts},
            ),
            "the practice answer view",
        )
    visit(mocking.get(f"/mock/{mock.pk}/report/", follow=True), "the report before the end")
    visit(
        mocking.post(f"/mock/{mock.pk}/rubric/", {"rubric-1-cost": "2"}, follow=True),
        "the rubric before the end",
    )
    assert len(reached) > 80
    mock.refresh_from_db()
    assert mock.ended_at is None

    # And after the end the report shows them: the search above could have found them.
    report = mocking.post(f"/mock/{mock.pk}/finish/", follow=True)
    text = html_module.unescape(report.content.decode())
    for _, variant in variants_of(mock):
        for part in variant.parts:
            assert variant.key_text(part.key) in text
