"""Statistics: summary rows per problem, scenario, part and parameter value, written by a task,
read by the pages (whose query count does not grow with the attempts)."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from problems import stats
from problems.models import Attempt, PartStatistic, ScenarioVersion
from problems.variants import variant_of
from trainer.practice import services

pytestmark = pytest.mark.django_db


def _seeds(version, kv_format, count, start=0):
    found, seed = [], start
    while len(found) < count:
        if variant_of(version, seed).displays["kv_format"].value.key == kv_format:
            found.append(seed)
        seed += 1
    return found


def _attempt(user, version, seed, *, right, seconds, now, purpose="practice"):
    """A submitted attempt: every part right, or kv_per_token off by the missing factor 2."""
    attempt = Attempt.objects.create(
        user=user, version=version, seed=seed, started_at=now - timedelta(seconds=seconds)
    )
    variant = variant_of(version, seed)
    answers = {p.key: variant.key_text(p.key) for p in variant.parts}
    if not right:
        answers["kv_per_token"] = f"{variant.answer('kv_per_token') / 2:.6g}"
    # Graded as practice grades it; a mock's attempt is the same rows with another purpose.
    services.submit(user, attempt.pk, answers, now)
    Attempt.objects.filter(pk=attempt.pk).update(purpose=purpose)
    attempt.refresh_from_db()
    return attempt


@pytest.fixture
def version(loaded_bank):
    return ScenarioVersion.objects.get()


def _rows(**filters):
    return {
        (row.part_key, row.param_name, row.param_value): row
        for row in PartStatistic.objects.filter(**filters)
    }


def test_it_counts_attempts_first_tries_time_and_misconceptions(version, learner, other_learner):
    now = timezone.now()
    first, second, third = _seeds(version, "bf16", 3)
    _attempt(learner, version, first, right=False, seconds=60, now=now - timedelta(days=2))
    _attempt(learner, version, second, right=True, seconds=300, now=now - timedelta(days=1))
    _attempt(other_learner, version, third, right=True, seconds=120, now=now)
    _attempt(
        other_learner, version, third + 1000, right=True, seconds=9000, now=now, purpose="mock"
    )

    stats.compute_statistics(now)

    whole = PartStatistic.objects.get(scenario=None)
    assert (whole.attempts, whole.correct, whole.learners) == (4, 3, 2)
    assert (whole.first_tries, whole.first_try_correct) == (2, 1)
    assert whole.median_seconds == 120  # practice attempts only: 60, 120, 300
    assert whole.misconceptions == {"kv-missing-factor-2": 1}
    parts = _rows(scenario=version.scenario, param_name="")
    assert parts[("kv_per_token", "", "")].correct == 3
    assert parts[("kv_per_token", "", "")].misconceptions == {"kv-missing-factor-2": 1}
    assert parts[("kv_total", "", "")].correct == 4
    assert parts[("kv_total", "", "")].first_try_correct == 2
    assert whole.computed_at == now


def test_it_splits_by_parameter_value_and_finds_the_hardest(version, learner):
    now = timezone.now()
    for seed in _seeds(version, "fp8", 12):
        _attempt(learner, version, seed, right=False, seconds=100, now=now)
    for seed in _seeds(version, "bf16", 12):
        _attempt(learner, version, seed, right=True, seconds=100, now=now)

    stats.compute_statistics(now)

    by_value = _rows(scenario=version.scenario, param_name="kv_format", part_key="")
    assert (
        by_value[("", "kv_format", "fp8")].attempts,
        by_value[("", "kv_format", "fp8")].correct,
    ) == (12, 0)
    assert by_value[("", "kv_format", "bf16")].correct == 12
    # A fixed parameter (usable: 90%) is not split; a catalogue one is, by key.
    assert not PartStatistic.objects.filter(param_name="usable").exists()
    models = {row.param_value for row in PartStatistic.objects.filter(param_name="model")}
    assert models <= {"llama-3-8b", "llama-3-70b"} and models
    result = stats.problem_statistics(version.scenario.problem)
    hardest = result.hardest[0]
    assert (hardest.param_name, hardest.param_value, hardest.correct) == ("kv_format", "fp8", 0)
    assert all(row.attempts >= stats.MIN_ATTEMPTS for row in result.hardest)
    assert not any(row.param_value == "bf16" for row in result.hardest[:2])


def test_the_page_shows_the_hardest_values(author, version, learner):
    now = timezone.now()
    for seed in _seeds(version, "fp8", 10):
        _attempt(learner, version, seed, right=False, seconds=100, now=now)
    stats.compute_statistics(now)
    html = author.get("/author/problems/3/stats/").content.decode()
    assert "Hardest parameter values" in html
    assert (
        '<tr class="hardest"><td>dense-gqa</td><td><code>kv_format</code></td><td>fp8</td>' in html
    )
    assert "<code>kv-missing-factor-2</code> × 10" in html
    overview = author.get("/author/stats/").content.decode()
    assert "/author/problems/3/stats/" in overview


def test_the_pages_read_summary_rows_in_a_constant_number_of_queries(author, version, learner):
    now = timezone.now()
    _attempt(learner, version, 1, right=True, seconds=50, now=now)
    stats.compute_statistics(now)
    author.get("/author/stats/")  # the first page of a session also checks the role
    with CaptureQueriesContext(connection) as small:
        author.get("/author/problems/3/stats/")
        author.get("/author/stats/")
    for seed in range(2, 60):
        _attempt(learner, version, seed, right=seed % 3 == 0, seconds=50, now=now)
    stats.compute_statistics(now)
    with CaptureQueriesContext(connection) as large:
        author.get("/author/problems/3/stats/")
        author.get("/author/stats/")
    assert len(small.captured_queries) == len(large.captured_queries)
    assert not any("problems_attempt" in q["sql"] for q in large.captured_queries)


def test_recomputing_replaces_the_rows(version, learner):
    now = timezone.now()
    _attempt(learner, version, 1, right=True, seconds=50, now=now)
    first = stats.compute_statistics(now)
    assert stats.compute_statistics(now) == first == PartStatistic.objects.count()


def test_the_command_and_the_button_recompute(
    author, version, learner, django_capture_on_commit_callbacks
):
    now = timezone.now()
    _attempt(learner, version, 1, right=True, seconds=50, now=now)
    out = StringIO()
    call_command("problem_stats", stdout=out)
    count = PartStatistic.objects.count()
    assert count > 0 and f"{count} statistics rows written" in out.getvalue()
    PartStatistic.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True):
        response = author.post("/author/stats/refresh/", {"next": "/author/problems/3/stats/"})
    assert response["Location"] == "/author/problems/3/stats/"
    assert PartStatistic.objects.count() == count
    off_site = author.post("/author/stats/refresh/", {"next": "https://example.com/"})
    assert off_site["Location"] == "/author/stats/"


def test_a_nightly_beat_entry_runs_the_task():
    from trainer.celery import app

    entry = app.conf.beat_schedule["problem-statistics"]
    assert entry["task"] == "problems.tasks.problem_statistics"
    assert entry["task"] in app.tasks
