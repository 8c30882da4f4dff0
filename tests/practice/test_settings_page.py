from tests.practice.helpers import open_attempt_of, right_answers
from trainer.practice.models import Card


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
