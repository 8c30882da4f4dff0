"""A mail server that takes its time: Django's file backend, one second slower per message,
for the test that times the password-reset page (test_password_reset_timing.py)."""

import time

from django.core.mail.backends.filebased import EmailBackend

DELAY = 1.0  # [s] per message, as a slow or distant SMTP server takes


class SlowFileBackend(EmailBackend):
    def send_messages(self, email_messages):
        time.sleep(DELAY * len(email_messages))
        return super().send_messages(email_messages)
