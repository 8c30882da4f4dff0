from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

pytestmark = pytest.mark.redis


def test_it_runs_a_real_task_through_redis(celery_worker):
    expired = SessionStore()
    expired.create()
    Session.objects.filter(session_key=expired.session_key).update(
        expire_date=timezone.now() - timedelta(days=1)
    )
    alive = SessionStore()
    alive.create()

    result = celery_worker.send("trainer.accounts.tasks.clear_expired_sessions")

    assert result.get(timeout=60) == 1
    assert list(Session.objects.values_list("session_key", flat=True)) == [alive.session_key]
    assert any("clear_expired_sessions" in line for line in celery_worker.output)


def test_it_is_idempotent_when_run_again(celery_worker):
    assert celery_worker.send("trainer.accounts.tasks.clear_expired_sessions").get(timeout=60) == 0
