from datetime import date, timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.practice.factories import add_history
from tests.practice.helpers import open_attempt_of, right_answers


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
