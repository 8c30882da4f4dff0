# Celery's Django guide: import the app here so that @shared_task binds to it at start-up.
from .celery import app as celery_app

__all__ = ["celery_app"]
