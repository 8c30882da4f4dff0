"""Password-reset e-mails: built from `SITE_URL`, sent after the response.

- **After the response.** Sent inside the request, the mail makes the page answer in a few
  milliseconds for an address without an account and in as long as the mail server takes for
  one with an account, which tells anyone who has one. The form (`forms.PasswordResetForm`)
  only finds whom to write to; the mail is built and sent by the `send_password_reset` task, or,
  when tasks run in-process (no broker), in a thread of the web process (not the validations'
  queue, which may be busy for minutes). Either is started once the response has been sent:
  started during the request, the thread's work (a database connection, the templates) showed
  in its time.
- **From `SITE_URL`.** The link is built from the one configured address of the site, never from
  the request's Host header, which the visitor writes (`localhost:6666` would pass
  ALLOWED_HOSTS's host check, which ignores the port, and send the learner's token there).
"""

import logging
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.db import connections
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

logger = logging.getLogger(__name__)

SUBJECT_TEMPLATE = "accounts/password_reset_subject.txt"
BODY_TEMPLATE = "accounts/password_reset_email.txt"


def send_reset_link(user_id: int) -> bool:
    """E-mail user `user_id` a link to choose a new password; False when nothing was sent (no
    such active user with an address and a usable password, or no SITE_URL). A mail server that
    does not answer is logged (by Django's form), as the page has long been answered."""
    user = User._default_manager.filter(pk=user_id, is_active=True).first()
    if user is None or not user.email or not user.has_usable_password():
        return False
    if not settings.SITE_URL:
        logger.error("SITE_URL is not set: password-reset e-mail to user %s not sent", user_id)
        return False
    context = {
        "user": user,
        "site_url": settings.SITE_URL,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user),
    }
    PasswordResetForm().send_mail(SUBJECT_TEMPLATE, BODY_TEMPLATE, context, None, user.email)
    return True


def in_thread(function: Callable[..., object], *args: Any) -> threading.Thread:
    """Run `function(*args)` in a new thread of this process, which closes its own database
    connection at the end."""

    def run() -> None:
        try:
            function(*args)
        except Exception:  # a thread's exception is lost otherwise
            logger.exception("%s%r failed", function.__name__, args)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run, name="password-reset", daemon=True)
    thread.start()
    return thread


# Work to start once this thread's response has been sent; None outside a request.
_after_response = threading.local()


def request_started(**kwargs: Any) -> None:
    _after_response.calls = []


def request_finished(**kwargs: Any) -> None:
    """Django's `request_finished`, sent when the server closes the response (after its last
    byte): start what the request left for after it. Even a thread started before would take
    the CPU (a database connection, the templates) while the response is still being made."""
    calls = getattr(_after_response, "calls", None) or []
    _after_response.calls = None
    for function, args in calls:
        function(*args)


def after_response(function: Callable[..., object], *args: Any) -> None:
    """Call `function(*args)` once the current response has been sent, or now outside one."""
    calls = getattr(_after_response, "calls", None)
    if calls is None:
        function(*args)
    else:
        calls.append((function, args))
