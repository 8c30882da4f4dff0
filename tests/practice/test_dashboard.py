import re
from datetime import date, timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from problems.models import Attempt, ScenarioVersion
from tests.mock.helpers import add_problem
from tests.practice.factories import add_history
from tests.practice.helpers import open_attempt_of, right_answers
from trainer.practice import services
from trainer.practice.models import Card


def test_it_welcomes_anonymous_visitors(client, db):
    html = client.get("/").content.decode()
    assert "Sign up" in html and "due now" not in html


def test_it_shows_the_numbers_and_charts(practising):
    attempt = open_attempt_of(practising)
    practising.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    html = practising.get("/").content.decode()
    assert "due now" in html and "done today" in html and "day streak" in html
    assert html.count("<svg") == 2
    assert "Reviews due each day for the next 30 days" in html
    assert "Reviews per day, past year" in html
    assert "Every problem" in html
    assert " style=" not in html  # CSP: no inline styles


def test_it_counts_the_streak(practising, carded):
    add_history(carded, 3)  # yesterday and the two days before
    html = practising.get("/").content.decode()
    assert '<strong class="big">3</strong><br>day streak' in html


def test_it_shows_interview_mode(practising, carded):
    profile = carded.learner_profile
    profile.interview_date = date.today() + timedelta(days=10)
    profile.save()
    html = practising.get("/").content.decode()
    assert "days to go" in html
    assert "Recall on the day" in html


def test_it_runs_the_same_number_of_queries_with_1_and_1000_reviews(practising, carded):
    def count():
        with CaptureQueriesContext(connection) as queries:
            assert practising.get("/").status_code == 200
        return len(queries)

    practising.get("/")  # the first page of a session also checks the learner's role
    add_history(carded, 1)
    with_one = count()
    add_history(carded, 999)
    assert count() == with_one


def test_it_lists_the_latest_answers_with_links(practising):
    attempt = open_attempt_of(practising)
    practising.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    html = practising.get("/").content.decode()
    assert "Your latest answers" in html
    assert f'href="/practice/attempts/{attempt.pk}/"' in html
    assert "100%" in html


def _review(user, number, score, now):
    """One graded practice review of problem `number`, through the scheduler."""
    card = Card.objects.select_related("problem", "user").get(user=user, problem__number=number)
    version = ScenarioVersion.objects.filter(scenario__problem=card.problem).first()
    attempt = Attempt.objects.create(
        user=user, version=version, seed=number, started_at=now, submitted_at=now, score=score
    )
    with transaction.atomic():
        services.apply_review(card, attempt, score, incomplete=False, elapsed=60, now=now)


@pytest.fixture
def six_problems(bank_dir, loaded_bank, learner):
    for number, page in [(1, 1), (4, 2), (5, 2), (6, 3), (8, 4)]:
        add_problem(bank_dir, number, page=page)
    services.introduce_all(learner, timezone.now())
    return learner


def test_it_ranks_a_problem_just_failed_as_the_weakest(client, six_problems):
    now = timezone.now()
    for number in (1, 3, 4, 5, 6):
        _review(six_problems, number, 1.0, now - timedelta(minutes=10))
    _review(six_problems, 8, 0.25, now - timedelta(minutes=1))
    client.force_login(six_problems)
    html = client.get("/").content.decode()
    weakest = re.search(r'<ol class="weakest">(.*?)</ol>', html, re.S).group(1)
    # Every card was reviewed minutes ago, so recall alone ranks them all at 100%, in number
    # order; the one just failed is the only weak one.
    assert re.findall(r"<li>(\d+) · ", weakest) == ["8"]
    assert "latest score 25%" in weakest


def test_it_makes_no_prediction_for_a_problem_never_tried(client, six_problems):
    profile = services.get_profile(six_problems)
    profile.interview_date = timezone.now().date() + timedelta(days=20)
    profile.save()
    _review(six_problems, 3, 1.0, timezone.now() - timedelta(minutes=5))
    client.force_login(six_problems)
    html = client.get("/").content.decode()
    section = re.search(r"days to go.*?</table>", html, re.S).group(0)
    rows = re.findall(r"<tr><td>(\d+) · [^<]*</td>\s*<td>([^<]*)</td>", section)
    assert len(rows) == 6
    assert rows[-1][0] == "3" and rows[-1][1].endswith("%")  # the one tried: a prediction
    assert [recall for _, recall in rows[:-1]] == ["not tried yet"] * 5


def test_it_tells_a_new_learner_what_to_do_first(client, loaded_bank, learner):
    client.force_login(learner)
    html = client.get("/").content.decode()
    assert "Where to start" in html
    assert "Set your interview date" in html and 'href="/practice/settings/"' in html
    assert 'action="/plan/start/"' in html and "Start the plan" in html
    assert "<svg" not in html and "due now" not in html
