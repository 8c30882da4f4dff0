from celery import shared_task
from django.contrib.sessions.models import Session
from django.utils import timezone

from trainer.accounts import passwords


def clear_expired_sessions() -> int:
    """Delete sessions past their expiry; returns how many went."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


@shared_task(
    name="trainer.accounts.tasks.clear_expired_sessions",
    acks_late=True,
    reject_on_worker_lost=True,
    time_limit=300,
    soft_time_limit=270,
)
def clear_expired_sessions_task() -> int:
    # Idempotent: deleting what is already gone deletes nothing.
    return clear_expired_sessions()


# Acknowledged early: a worker lost mid-send loses the mail (the learner asks again) rather
# than sending it twice.
@shared_task(name="trainer.accounts.tasks.send_password_reset", time_limit=60, soft_time_limit=50)
def send_password_reset(user_id: int) -> bool:
    return passwords.send_reset_link(user_id)
