import logging
import os
import time

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "trainer.settings")
application = get_wsgi_application()

logger = logging.getLogger(__name__)


def warm_up() -> None:
    """Compile every published scenario version before the first request. Under gunicorn
    `--preload` (Dockerfile, docker-compose.yml) the master does it once and its workers inherit
    the result; without it each worker does it as it starts. Either way no learner waits for a
    compile. The connection it opened is closed: workers forked from the master must not share
    it. A database that is not there yet only defers the compiles to the first draws."""
    from django.db import DatabaseError, connections

    from problems.variants import compile_published

    started = time.perf_counter()
    try:
        count = compile_published()
    except DatabaseError as error:
        logger.warning("scenario versions not compiled at start: %s", error)
    else:
        elapsed = (time.perf_counter() - started) * 1000
        logger.info("compiled %d published scenario versions in %.0f ms", count, elapsed)
    finally:
        connections.close_all()


warm_up()
