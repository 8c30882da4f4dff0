"""gunicorn serving the app as production does without Redis, with several workers, on the test
database: for the findings that only show across worker processes."""

from tests.servers import Gunicorn


def MultiWorkerServer(  # noqa: N802 - a server
    log_path, *, workers=3, env=None, timeout=60, settings="tests.security.server_settings"
):
    return Gunicorn(log_path, settings=settings, workers=workers, timeout=timeout, env=env)
