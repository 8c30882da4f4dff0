"""The multi-worker server's settings (server_settings.py) with a slow mail server writing
each message to the directory MAIL_DIR."""

import os

from tests.security.server_settings import *  # noqa: F403

MAILERS = {
    "default": {
        "BACKEND": "tests.security.slow_mail.SlowFileBackend",
        "OPTIONS": {"file_path": os.environ["MAIL_DIR"]},
    }
}
