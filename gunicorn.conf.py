"""gunicorn's settings file, read from the working directory by every `gunicorn` started here
(the Dockerfile's, docker-compose's, the tests'): a check before any worker starts."""

import os
import sys
from typing import Any


def on_starting(server: Any) -> None:
    """Refuse to serve with several workers what only one process can serve correctly."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trainer.settings")
    import django

    django.setup()
    from trainer.accounts.checks import sessions_problem

    problem = sessions_problem(server.cfg.workers)
    if problem is not None:
        server.log.error(problem)
        sys.exit(1)
