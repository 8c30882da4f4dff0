"""Log-in limits on every path that authenticates, username normalisation, and the sign-up,
password-change and password-reset throttles (client addresses: tests/accounts/test_addresses.py).

The limits under concurrency and across gunicorn workers: test_multi_worker.py."""

import re

import pytest
from django.contrib.auth import SESSION_KEY
from django.core import mail

pytestmark = pytest.mark.django_db


@pytest.fixture
def superuser(django_user_model):
    return django_user_model.objects.create_superuser("boss", "boss@example.com", "root pass 77")


def _admin_log_in(client, username, password):
    return client.post(
        "/admin/login/?next=/admin/",
        {"username": username, "password": password, "next": "/admin/"},
    )


def test_it_limits_the_admin_log_in(client, superuser, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        assert _admin_log_in(client, "boss", "guess").status_code == 200
    refused = _admin_log_in(client, "boss", "root pass 77")
    assert refused.status_code == 429
    assert SESSION_KEY not in client.session
    assert client.get("/admin/").status_code == 302  # still sent to log in


def test_it_counts_the_admin_and_the_site_log_in_together(client, superuser, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "boss", "password": "guess"})
    assert _admin_log_in(client, "boss", "root pass 77").status_code == 429


@pytest.mark.parametrize("spelling", ["ｌｅａｒｎｅｒ", "ⓛearner", "LEARNER", "learner"])
def test_it_counts_every_spelling_of_a_username_as_one(client, learner, settings, spelling):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": spelling, "password": "guess"})
    response = client.post(
        "/accounts/login/", {"username": "learner", "password": "correct horse 1"}
    )
    assert response.status_code == 429
    assert SESSION_KEY not in client.session


def test_it_locks_one_client_behind_the_proxy_not_all(client, django_user_model, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for n in range(4):
        django_user_model.objects.create_user(f"user{n}", password="a long pass phrase 9")
    guesser = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "203.0.113.7"}
    for n in range(settings.LOGIN_FAILURE_LIMIT * 4):
        client.post("/accounts/login/", {"username": f"user{n % 4}", "password": "x"}, **guesser)
    right = {"username": "user0", "password": "a long pass phrase 9"}
    assert client.post("/accounts/login/", right, **guesser).status_code == 429
    django_user_model.objects.create_user("neighbour", password="a long pass phrase 9")
    neighbour = {"REMOTE_ADDR": "10.0.0.1", "HTTP_X_FORWARDED_FOR": "198.51.100.2"}
    right = {"username": "neighbour", "password": "a long pass phrase 9"}
    assert client.post("/accounts/login/", right, **neighbour).status_code == 302


def _sign_up(client, name):
    data = {"username": name, "email": "", "password1": "a long pass phrase 9"}
    data["password2"] = data["password1"]
    response = client.post("/accounts/signup/", data)
    client.logout()
    return response


def test_it_limits_sign_ups_per_address(client, django_user_model, settings):
    settings.SIGNUP_RATE_LIMIT = 2
    assert _sign_up(client, "first").status_code == 302
    assert _sign_up(client, "second").status_code == 302
    refused = _sign_up(client, "third")
    assert refused.status_code == 429
    assert "Too many accounts created" in refused.content.decode()
    assert not django_user_model.objects.filter(username="third").exists()


def test_it_limits_guesses_of_the_old_password(client, learner, settings):
    client.force_login(learner)
    for n in range(settings.LOGIN_FAILURE_LIMIT):
        guess = {"old_password": f"guess {n}", "new_password1": "x new pass 99"}
        guess["new_password2"] = guess["new_password1"]
        response = client.post("/accounts/password/", guess)
        assert "Your old password was entered incorrectly" in response.content.decode()
    right = {"old_password": "correct horse 1", "new_password1": "x new pass 99"}
    right["new_password2"] = right["new_password1"]
    assert client.post("/accounts/password/", right).status_code == 429
    learner.refresh_from_db()
    assert learner.check_password("correct horse 1")


def test_it_resets_a_password_by_e_mail(client, django_user_model):
    user = django_user_model.objects.create_user("ada", "ada@example.com", "old pass phrase 1")
    sent = client.post("/accounts/password/reset/", {"email": "ADA@example.com"})
    assert sent.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ada@example.com"]
    link = re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", mail.outbox[0].body)
    form = client.get(link.group(1), follow=True)
    assert "Choose a new password" in form.content.decode()
    new = {"new_password1": "brand new phrase 2", "new_password2": "brand new phrase 2"}
    done = client.post(form.redirect_chain[-1][0], new)
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password("brand new phrase 2")
    # The link works once.
    assert "does not work" in client.get(link.group(1), follow=True).content.decode()


def test_it_limits_password_reset_e_mails_per_address(client, django_user_model, settings):
    settings.PASSWORD_RESET_RATE_LIMIT = 2
    django_user_model.objects.create_user("ada", "ada@example.com", "old pass phrase 1")
    for _ in range(2):
        assert (
            client.post("/accounts/password/reset/", {"email": "ada@example.com"}).status_code
            == 302
        )
    assert client.post("/accounts/password/reset/", {"email": "ada@example.com"}).status_code == 429
    assert len(mail.outbox) == 2


def test_the_log_in_page_offers_the_reset(client):
    assert "/accounts/password/reset/" in client.get("/accounts/login/").content.decode()


def test_a_mail_server_that_does_not_answer_gives_no_500(client, django_user_model, settings):
    """Production sends by SMTP (the default host is localhost): a server that is not there is
    logged, and the visitor sees the usual page, which never tells who has an account."""
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": 9, "timeout": 2},  # nothing listens
        }
    }
    django_user_model.objects.create_user("ada", "ada@example.com", "old pass phrase 1")
    response = client.post("/accounts/password/reset/", {"email": "ada@example.com"})
    assert response.status_code == 302
