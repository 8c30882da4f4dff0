from datetime import date, timedelta

from django.utils import timezone

from tests.practice.helpers import open_attempt_of, right_answers
from trainer.practice.models import Card, LearnerProfile


def _form(**changes):
    data = {
        "scheduler": "sm2",
        "timezone": "UTC",
        "daily_new_limit": 5,
        "daily_review_cap": 50,
        "queue_order": "overdue",
        "interview_date": "",
    }
    data.update(changes)
    return data


def test_it_switches_scheduler_and_recomputes_from_the_log(practising):
    attempt = open_attempt_of(practising)
    practising.post(f"/practice/attempts/{attempt.pk}/answer/", right_answers(attempt))
    assert Card.objects.get().state["scheduler"] == "sm2"
    response = practising.post("/practice/settings/", _form(scheduler="fsrs"))
    assert response.status_code == 302
    card = Card.objects.get()
    assert card.state["scheduler"] == "fsrs"
    assert card.due_at is not None
    practising.post("/practice/settings/", _form(scheduler="sm2"))
    assert Card.objects.get().state["repetitions"] == 1


def test_it_refuses_a_bad_time_zone_and_changes_nothing(practising, carded):
    response = practising.post("/practice/settings/", _form(timezone="Mars/Olympus"))
    assert response.status_code == 200
    assert "is not a time zone name" in response.content.decode()
    carded.learner_profile.refresh_from_db()
    assert carded.learner_profile.timezone == "UTC"


def test_it_refuses_limits_out_of_range(practising):
    html = practising.post("/practice/settings/", _form(daily_new_limit=0)).content.decode()
    assert "between 1 and 25" in html


def test_it_needs_login(client, db):
    assert client.get("/practice/settings/").status_code == 302


def test_it_shows_the_interview_date_as_an_iso_date_so_the_next_save_keeps_it(practising, carded):
    day = timezone.now().date() + timedelta(days=40)
    saved = practising.post("/practice/settings/", _form(interview_date=day.isoformat()))
    assert saved.status_code == 302
    html = practising.get("/practice/settings/").content.decode()
    assert f'type="date" name="interview_date" value="{day.isoformat()}"' in html
    # What the page shows is what the browser sends back on the next save.
    practising.post("/practice/settings/", _form(interview_date=day.isoformat(), daily_new_limit=7))
    profile = LearnerProfile.objects.get(user=carded)
    assert profile.interview_date == day and profile.daily_new_limit == 7


def test_it_refuses_an_interview_date_more_than_two_years_ahead(practising, carded):
    far = date(9990, 1, 1)
    html = practising.post("/practice/settings/", _form(interview_date=far.isoformat())).content
    assert "Choose a date within two years" in html.decode()
    assert LearnerProfile.objects.get(user=carded).interview_date is None
    near = timezone.now().date() + timedelta(days=700)
    practising.post("/practice/settings/", _form(interview_date=near.isoformat()))
    assert LearnerProfile.objects.get(user=carded).interview_date == near


def test_it_refuses_a_new_interview_date_in_the_past(practising, carded):
    past = timezone.now().date() - timedelta(days=3)
    html = practising.post("/practice/settings/", _form(interview_date=past.isoformat())).content
    assert "That day has passed" in html.decode()
    assert LearnerProfile.objects.get(user=carded).interview_date is None


def test_it_offers_every_time_zone_and_keeps_the_chosen_one(practising, carded):
    html = practising.get("/practice/settings/").content.decode()
    assert '<option value="Europe/Berlin">Europe/Berlin</option>' in html
    assert "posix/" not in html
    practising.post("/practice/settings/", _form(timezone="Asia/Kolkata"))
    assert LearnerProfile.objects.get(user=carded).timezone == "Asia/Kolkata"
    html = practising.get("/practice/settings/").content.decode()
    assert '<option value="Asia/Kolkata" selected>Asia/Kolkata</option>' in html
