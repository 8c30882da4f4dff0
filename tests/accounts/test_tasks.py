from datetime import timedelta

from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from trainer.accounts.tasks import clear_expired_sessions_task


def test_it_clears_expired_sessions_when_enqueued(db):
    expired = SessionStore()
    expired.create()
    Session.objects.filter(session_key=expired.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    # Enqueued as beat does (eager here): the task's own limits must be consistent.
    assert clear_expired_sessions_task.apply_async().get() == 1
    assert not Session.objects.exists()
