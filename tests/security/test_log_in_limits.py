"""Log-in limits on every path that authenticates, username normalisation, and the sign-up,
password-change and password-reset throttles (client addresses: tests/accounts/test_addresses.py).

The limits under concurrency and across gunicorn workers: test_multi_worker.py."""

import time

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.hashers import make_password

from trainer.accounts import lockout

pytestmark = pytest.mark.django_db

LIMIT = 5  # LOGIN_FAILURE_LIMIT's default


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


def test_the_log_in_page_offers_the_reset(client):
    assert "/accounts/password/reset/" in client.get("/accounts/login/").content.decode()


def _log_in(client, username, password, address="10.0.0.1", path="/accounts/login/"):
    return client.post(path, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_a_log_in_to_a_look_alike_account_never_resets_the_guesses(client, django_user_model):
    """An attacker who owns `roß` (made before sign-up refused look-alikes) guesses `ross`'s
    password four times, logs in as `roß`, and again: each success must not wipe the guesses
    at `ross`, which share its normalised name."""
    django_user_model.objects.create_user("ross", password="victim's secret 1")
    # bulk_create: an account from before look-alikes were refused.
    django_user_model.objects.bulk_create(
        [django_user_model(username="roß", password=make_password("attacker's own 1"))]
    )
    checked = 0
    for _ in range(6):
        for _ in range(4):
            checked += _log_in(client, "ross", "a guess").status_code == 200
        _log_in(client, "roß", "attacker's own 1")
        client.logout()
    assert checked <= LIMIT
    assert _log_in(client, "ross", "victim's secret 1").status_code == 429


def test_a_log_in_clears_the_account_s_own_failures_not_the_address_s(client, django_user_model):
    for n in range(4):
        django_user_model.objects.create_user(f"user{n}", password="a long pass phrase 9")
    django_user_model.objects.create_user("mallory", password="mallory's own 1")
    for n in range(LIMIT * 4 - 1):
        _log_in(client, f"user{n % 4}", "a guess")
    assert _log_in(client, "mallory", "mallory's own 1").status_code == 302
    client.logout()
    assert _log_in(client, "user3", "a guess").status_code == 200  # the address's last one
    assert _log_in(client, "mallory", "mallory's own 1").status_code == 429


def test_guesses_from_one_address_never_lock_the_owner_out_from_another(client, superuser):
    for _ in range(LIMIT + 1):
        _log_in(client, "boss", "a guess", path="/admin/login/")
    assert _log_in(client, "boss", "root pass 77", path="/admin/login/").status_code == 429
    owner = _log_in(client, "boss", "root pass 77", address="192.0.2.8", path="/admin/login/")
    assert owner.status_code == 302


def test_guesses_spread_over_many_addresses_slow_the_account_down_without_locking_it(
    client, learner, monkeypatch
):
    ceiling = LIMIT * lockout.ACCOUNT_CEILING_FACTOR
    for n in range(ceiling):
        address = f"10.1.{n // LIMIT // 250}.{n // LIMIT % 250}"
        assert _log_in(client, "learner", "a guess", address=address).status_code == 200
    now = time.time() // lockout.SLOW_DOWN_SECONDS * lockout.SLOW_DOWN_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: now)
    assert _log_in(client, "learner", "a guess", address="192.0.2.1").status_code == 200
    slowed = _log_in(client, "learner", "correct horse 1", address="192.0.2.2")
    assert slowed.status_code == 429
    assert "from many places" in slowed.content.decode()
    assert int(slowed["Retry-After"]) <= lockout.SLOW_DOWN_SECONDS
    monkeypatch.setattr(time, "time", lambda: now + lockout.SLOW_DOWN_SECONDS)
    assert _log_in(client, "learner", "correct horse 1", address="192.0.2.2").status_code == 302
