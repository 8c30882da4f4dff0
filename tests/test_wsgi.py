"""A web process compiles every published scenario version before its first request
(trainer/wsgi.py), so no learner's first draw from a version waits for the compile."""

import logging

import pytest
from django.db import OperationalError, connection

from problems import variants
from problems.models import ScenarioVersion
from tests.mock.helpers import add_problem


@pytest.mark.django_db(transaction=True)
def test_it_compiles_every_published_version_then_closes_the_connection(bank_dir):
    add_problem(bank_dir, 4, page=2, scenario_keys=("dense-gqa", "long-context"))
    draft = ScenarioVersion.objects.filter(status="published").first()
    ScenarioVersion.objects.filter(pk=draft.pk).update(status="draft")
    from trainer import wsgi

    variants._compiled.clear()
    wsgi.warm_up()
    # Closed, so that workers forked from a --preload master never share it.
    assert connection.connection is None
    published = set(ScenarioVersion.objects.published().values_list("pk", flat=True))
    assert len(published) == 2  # problem 3's scenario and one of problem 4's
    assert {version_id for version_id, _, _ in variants._compiled} == published


@pytest.mark.django_db(transaction=True)
def test_it_leaves_the_compiles_to_the_first_draws_when_the_database_is_not_there(
    monkeypatch, caplog
):
    from trainer import wsgi

    def unavailable():
        raise OperationalError("connection refused")

    monkeypatch.setattr(variants, "compile_published", unavailable)
    with caplog.at_level(logging.WARNING, logger="trainer.wsgi"):
        wsgi.warm_up()
    assert "not compiled at start: connection refused" in caplog.text
