"""gunicorn serving the app as production does without Redis, with several workers, on the test
database: for the findings that only show across worker processes."""

from tests.servers import Gunicorn


def MultiWorkerServer(log_path, *, workers=3, env=None, timeout=60):  # noqa: N802 - a server
    return Gunicorn(
        log_path,
        settings="tests.security.server_settings",
        workers=workers,
        timeout=timeout,
        env=env,
    )
