"""One comparison of names (trainer/accounts/usernames.py): every path that creates or renames
an account refuses a name that reads as another's, the admin with a form error."""

import pytest
from django.apps import apps
from django.contrib.auth.hashers import make_password
from django.db import IntegrityError

from trainer.accounts import usernames
from trainer.accounts.models import AccountName

pytestmark = pytest.mark.django_db

record_every_account_name = __import__(
    "trainer.accounts.migrations.0002_account_name", fromlist=["record_every_account_name"]
).record_every_account_name


def test_it_compares_names_as_they_read():
    assert usernames.normalise("Roß") == usernames.normalise("ROSS") == "ross"
    assert usernames.normalise("ｒｏｓｓ") == usernames.normalise("ⓡoss") == "ross"
    assert usernames.normalise("ross") != usernames.normalise("rosa")


def test_it_keeps_each_account_s_normal_form(django_user_model):
    user = django_user_model.objects.create_user("Ada.L", password="x long pass 1")
    assert AccountName.objects.get(user=user).name == "ada.l"
    user.username = "ADA"
    user.save()
    assert AccountName.objects.get(user=user).name == "ada"
    user.save(update_fields=["last_login"])
    assert AccountName.objects.get(user=user).name == "ada"


def test_it_refuses_a_look_alike_on_every_path(django_user_model):
    django_user_model.objects.create_user("ross", password="x long pass 1")
    with pytest.raises(IntegrityError):
        django_user_model.objects.create_superuser("ROß", "boss@example.com", "x long pass 2")
    other = django_user_model.objects.create_user("rosa", password="x long pass 3")
    other.username = "Ross"
    with pytest.raises(IntegrityError):
        other.save()


def test_the_admin_refuses_a_look_alike_with_a_message(admin_client, django_user_model):
    django_user_model.objects.create_user("ross", password="x long pass 1")
    response = admin_client.post(
        "/admin/auth/user/add/",
        {
            "username": "Roß",
            "usable_password": "true",
            "password1": "a long pass phrase 9",
            "password2": "a long pass phrase 9",
        },
    )
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert not django_user_model.objects.filter(username="Roß").exists()
    rosa = django_user_model.objects.create_user("rosa", password="x long pass 3")
    response = admin_client.post(
        f"/admin/auth/user/{rosa.pk}/change/",
        {"username": "ROSS", "date_joined_0": "2026-01-01", "date_joined_1": "10:00:00"},
    )
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    rosa.refresh_from_db()
    assert rosa.username == "rosa"


def test_a_sign_up_that_loses_a_race_for_a_name_gets_a_form_error(
    client, django_user_model, monkeypatch
):
    """Two sign-ups for `ross` and `roß` at once both pass the form's check; the unique normal
    form lets one in, and the other sees the form again."""
    django_user_model.objects.create_user("ross", password="x long pass 1")
    monkeypatch.setattr(usernames, "taken", lambda name, by_other_than=None: False)
    data = {"username": "roß", "password1": "a long pass phrase 9"}
    response = client.post("/accounts/signup/", {**data, "password2": data["password1"]})
    assert response.status_code == 200
    assert "already exists" in response.content.decode()
    assert list(django_user_model.objects.values_list("username", flat=True)) == ["ross"]


def test_the_migration_gives_a_shared_normal_form_to_the_older_account(django_user_model):
    older, younger, alone = django_user_model.objects.bulk_create(
        [
            django_user_model(username="ross", password=make_password("x")),
            django_user_model(username="Roß", password=make_password("x")),
            django_user_model(username="Ada", password=make_password("x")),
        ]
    )
    record_every_account_name(apps, None)
    names = dict(AccountName.objects.values_list("user_id", "name"))
    assert names == {older.pk: "ross", alone.pk: "ada"}
