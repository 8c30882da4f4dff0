"""A settings save that crosses a mock's start cannot reopen practice: the form writes only its
own fields, so the running-mock mark the start wrote stays. Two threads on one database (the
test runs on SQLite and on PostgreSQL)."""

import threading

import pytest
from django.db import connection
from django.utils import timezone

from tests.practice.test_settings_page import _form
from trainer.mock import services as mock_services
from trainer.practice import services
from trainer.practice.forms import ProfileForm
from trainer.practice.models import LearnerProfile

RUNNING = "A mock interview is running"


@pytest.mark.django_db(transaction=True)
def test_a_settings_save_while_a_mock_starts_keeps_practice_waiting(
    client, loaded_bank, django_user_model, monkeypatch
):
    user = django_user_model.objects.create_user("racer", password="a long pass phrase")
    services.introduce_all(user, timezone.now())
    client.force_login(user)
    loaded, started, errors = threading.Event(), threading.Event(), []
    clean = ProfileForm.clean

    def clean_after_the_start(form):
        # The view has read the profile (no mock yet); the mock starts before the form saves.
        loaded.set()
        assert started.wait(30)
        return clean(form)

    def start_a_mock():
        try:
            assert loaded.wait(30)
            mock_services.start(
                django_user_model.objects.get(pk=user.pk), "drill", timezone.now(), page=2
            )
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            started.set()
            connection.close()  # this thread's own connection

    monkeypatch.setattr(ProfileForm, "clean", clean_after_the_start)
    thread = threading.Thread(target=start_a_mock)
    thread.start()
    response = client.post("/practice/settings/", _form(daily_new_limit=7))
    thread.join(60)
    assert errors == []
    assert response.status_code == 302
    profile = LearnerProfile.objects.get(user=user)
    assert profile.daily_new_limit == 7
    assert profile.mock_until is not None
    assert RUNNING in client.get("/practice/").content.decode()
