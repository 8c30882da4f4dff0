"""Reporting a problem with a variant: on the learner's own graded attempt, a short message; the
learner sees their own report, never the seed."""

from problems.models import VariantReport
from tests.practice.helpers import open_attempt_of, right_answers

HX = {"HX-Request": "true"}


def _graded(client):
    attempt = open_attempt_of(client)
    html = client.post(
        f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt)
    ).content.decode()
    assert f'action="/practice/attempts/{attempt.pk}/report/"' in html
    return attempt


def _report(client, attempt, message, **extra):
    return client.post(f"/practice/attempts/{attempt.pk}/report/", {"message": message}, **extra)


def test_it_records_a_report_with_the_attempt(practising, carded):
    attempt = _graded(practising)
    response = _report(
        practising, attempt, "  The key for part 2 looks 1000× too big.  ", headers=HX
    )
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<div id="report"')
    assert "You reported a problem with this question" in html
    report = VariantReport.objects.get()
    assert (report.attempt, report.user, report.status) == (attempt, carded, "open")
    assert report.message == "The key for part 2 looks 1000× too big."
    page = practising.get(f"/practice/attempts/{attempt.pk}/").content.decode()
    assert "The key for part 2 looks 1000× too big." in page
    assert str(attempt.seed) not in page and str(attempt.seed) not in html


def test_it_refuses_an_empty_message_and_records_nothing(practising):
    attempt = _graded(practising)
    html = _report(practising, attempt, "   ", headers=HX).content.decode()
    assert "Say in a few words what looks wrong" in html and 'aria-invalid="true"' in html
    assert not VariantReport.objects.exists()


def test_it_refuses_a_message_too_long(practising):
    attempt = _graded(practising)
    _report(practising, attempt, "x" * 1001)
    assert not VariantReport.objects.exists()


def test_it_takes_one_report_per_attempt(practising):
    attempt = _graded(practising)
    _report(practising, attempt, "first")
    html = _report(practising, attempt, "second", headers=HX).content.decode()
    assert "already reported" in html
    assert list(VariantReport.objects.values_list("message", flat=True)) == ["first"]


def test_it_reports_without_javascript(practising):
    attempt = _graded(practising)
    response = _report(practising, attempt, "The wording is ambiguous.")
    assert response["Location"] == f"/practice/attempts/{attempt.pk}/"
    assert "an instructor will look" in practising.get(response["Location"]).content.decode()


def test_it_refuses_an_unanswered_question(practising):
    attempt = open_attempt_of(practising)
    html = _report(practising, attempt, "wrong", headers=HX).content.decode()
    assert "Answer the question first" in html
    assert not VariantReport.objects.exists()


def test_it_hides_another_learners_attempt(client, practising, other_learner):
    attempt = _graded(practising)
    client.force_login(other_learner)
    assert _report(client, attempt, "this is wrong").status_code == 404
    assert not VariantReport.objects.exists()


def test_it_needs_login(client, practising):
    attempt = _graded(practising)
    client.logout()
    response = _report(client, attempt, "x")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_answer_shown_again_shows_the_report(practising):
    # The attempt answered is read with the learner's report on it, in the same statement.
    attempt = _graded(practising)
    _report(practising, attempt, "Part 1 has no unit.")
    again = practising.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    html = again.content.decode()
    assert "You reported a problem with this question" in html and "Part 1 has no unit." in html
    assert f'action="/practice/attempts/{attempt.pk}/report/"' not in html
