from datetime import datetime

import pytest
from django.utils import timezone

from tests.mock.helpers import add_problem
from trainer.practice import services


@pytest.fixture
def clock(monkeypatch):
    """The instant every view reads, moved by hand."""
    now = [datetime.fromisoformat("2026-03-10T15:00:00+00:00")]
    monkeypatch.setattr(timezone, "now", lambda: now[0])
    return now


@pytest.fixture
def six(bank_dir, loaded_bank, learner, clock, client):
    """The learner, logged in, with six problems in practice and room for all of them a day."""
    for number, page in [(1, 1), (4, 2), (5, 2), (6, 3), (8, 4)]:
        add_problem(bank_dir, number, page=page)
    services.introduce_all(learner, clock[0])
    profile = services.get_profile(learner)
    profile.daily_new_limit = 20
    profile.save()
    client.force_login(learner)
    return client
