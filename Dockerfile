# The production image: gunicorn + whitenoise for web, the same image for Celery worker and beat.
FROM python:3.13-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

COPY pyproject.toml requirements.lock ./
COPY scripts/requirements.py scripts/
RUN python scripts/requirements.py > /tmp/requirements.txt \
    && pip install --no-cache-dir -r /tmp/requirements.txt -c requirements.lock

COPY . .
# Static files are collected at build time; the key only satisfies settings during the build.
RUN DEBUG=0 SECRET_KEY=build-only-not-used-at-runtime python manage.py collectstatic --no-input \
    && useradd --system --uid 1000 trainer && mkdir -p /app/var && chown trainer /app/var
USER trainer

EXPOSE 8000
# --preload: the master compiles the published scenario versions once, for every worker.
CMD ["gunicorn", "trainer.wsgi", "--preload", "--bind", "0.0.0.0:8000", "--workers", "3", "--access-logfile", "-"]
