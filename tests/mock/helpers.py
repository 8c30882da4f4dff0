import copy
import re
from pathlib import Path

import yaml

from problems.engine import load_yaml
from problems.loader import load_bank
from problems.variants import attempt_variant
from tests.conftest import EXAMPLE_PROBLEM
from trainer.mock.models import Mock

HX = {"HX-Request": "true"}


def add_problem(bank_dir, number, *, page, scenario_keys=("dense-gqa",), minutes=8):
    """Write a problem built from the example problem 3 into `bank_dir` and load the bank."""
    data = load_yaml(Path(EXAMPLE_PROBLEM).read_bytes())
    data.update(number=number, page=page, title=f"Problem {number} for tests")
    data["expected_minutes"] = minutes
    template = data["scenarios"][0]
    data["scenarios"] = [
        {**copy.deepcopy(template), "key": key, "title": f"Setting {key}"} for key in scenario_keys
    ]
    (Path(bank_dir) / f"{number:02d}-test.yaml").write_text(
        yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    )
    load_bank(bank_dir)


def start(client, format="standard", **extra):
    """Start a mock through the page and return it."""
    response = client.post("/mock/start/", {"format": format, **extra})
    assert response.status_code == 302, response.content
    return Mock.objects.get(pk=int(re.search(r"/mock/(\d+)/", response["Location"]).group(1)))


def answer_url(mock, position, part_key):
    return f"/mock/{mock.pk}/problems/{position}/parts/{part_key}/"


def answer(client, mock, position, part_key, text, **extra):
    return client.post(answer_url(mock, position, part_key), {"answer": text}, **extra)


def variants_of(mock):
    """(item, variant) of every slot, in order."""
    return [(item, attempt_variant(item.attempt)) for item in mock.items.order_by("position")]


def answer_all(client, mock, *, right=True):
    """Answer every part of every problem: the key, or a wrong number. The wrong numbers are 3,
    5, 7… times the keys, so no later part comes out right by carrying an earlier error
    forward (problem 3's later parts grow at most in proportion to the earlier ones)."""
    for item, variant in variants_of(mock):
        for index, part in enumerate(variant.parts):
            wrong = f"{part.answer * (3 + 2 * index):.6g}"
            text = variant.key_text(part.key) if right else wrong
            assert answer(client, mock, item.position, part.key, text).status_code == 302


def key_forms(variant, part_key):
    """Ways a key could appear in a page: as the grader writes it, and the raw number written
    several ways. Short bare numbers (a count of 8) are left out: they are in any page."""
    value = variant.answer(part_key)
    forms = {
        variant.key_text(part_key),
        variant.accepted(part_key),
        f"{value:.6g}",
        f"{value:.5g}",
        f"{value:.4g}",
        repr(value),
        f"{value:,.2f}",
        f"{value:,.0f}",
    }
    return {form for form in forms if sum(ch.isdigit() for ch in form) >= 4 or " " in form}


def move_deadline(mock, deadline):
    """Put a mock's deadline (and its start, keeping the length) at `deadline`."""
    length = mock.deadline - mock.started_at
    Mock.objects.filter(pk=mock.pk).update(deadline=deadline, started_at=deadline - length)
    mock.refresh_from_db()
    return mock
