from datetime import timedelta

from axes.models import AccessAttempt
from django.core.cache import cache
from django.utils import timezone


def _login(client, username="learner", password="correct horse 1", **extra):
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def test_it_shows_the_form(client):
    response = client.get("/accounts/login/")
    assert response.status_code == 200
    assert b'name="username"' in response.content


def test_it_logs_in(client, learner):
    response = _login(client)
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.get("/").context["user"] == learner


def test_it_follows_a_safe_next(client, learner):
    response = client.post(
        "/accounts/login/",
        {"username": "learner", "password": "correct horse 1", "next": "/practice/"},
    )
    assert response["Location"] == "/practice/"


def test_it_ignores_an_offsite_next(client, learner):
    response = client.post(
        "/accounts/login/",
        {"username": "learner", "password": "correct horse 1", "next": "https://evil.example/"},
    )
    assert response["Location"] == "/"


def test_it_refuses_a_wrong_password(client, learner):
    response = _login(client, password="wrong")
    assert response.status_code == 200
    assert b"enter a correct username and password" in response.content
    assert "_auth_user_id" not in client.session


def test_it_rate_limits_failed_logins(client, learner, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        assert _login(client, password="wrong").status_code == 200
    # Even the right password is refused while the account is locked, with a clear message.
    response = _login(client)
    assert response.status_code == 429
    assert b"Too many failed log-ins" in response.content
    assert b"try again in about 15 minutes" in response.content
    assert "_auth_user_id" not in client.session


def test_it_limits_per_account_not_per_person(client, learner, other_learner, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        _login(client, password="wrong")
    assert _login(client, "other", "correct horse 2").status_code == 302


def test_it_limits_guessing_across_accounts_from_one_address(
    client, learner, django_user_model, settings
):
    for n in range(4):
        django_user_model.objects.create_user(f"user{n}", password="a long pass phrase 9")
    for n in range(settings.LOGIN_FAILURE_LIMIT * 4):
        _login(client, username=f"user{n % 4}", password="wrong")
    assert _login(client).status_code == 429


def test_it_does_not_lock_an_address_out_for_made_up_usernames(client, learner, settings):
    """Behind a proxy or a NAT many people share an address: names that do not exist must not
    let anyone lock them all out."""
    for n in range(settings.LOGIN_FAILURE_LIMIT * 8):
        _login(client, username=f"nobody{n}", password="wrong")
    assert _login(client).status_code == 302


def test_it_unlocks_after_the_window(client, learner, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        _login(client, password="wrong")
    assert _login(client).status_code == 429
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - timedelta(seconds=settings.LOGIN_FAILURE_WINDOW + 1)
    )
    assert _login(client).status_code == 302


def test_it_keeps_working_when_the_cache_is_down(client, learner, monkeypatch):
    def broken(*args, **kwargs):
        raise ConnectionError("cache is down")

    monkeypatch.setattr(cache, "get", broken)
    monkeypatch.setattr(cache, "set", broken)
    monkeypatch.setattr(cache, "delete_many", broken)
    assert _login(client, password="wrong").status_code == 200
    assert _login(client).status_code == 302


def test_it_requires_csrf(learner):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = _login(client)
    assert response.status_code == 403


def test_it_logs_in_with_the_name_in_another_spelling(client, django_user_model):
    user = django_user_model.objects.create_user("ross", password="a long pass phrase 9")
    for spelling in ["Ross", "ROSS", "ｒｏｓｓ", "roß"]:
        assert _login(client, spelling, "a long pass phrase 9").status_code == 302
        assert client.session["_auth_user_id"] == str(user.pk)
        client.logout()


def test_an_exact_name_logs_in_to_its_own_account_before_a_look_alike(client, django_user_model):
    """Two accounts that read the same can only come from before look-alikes were refused
    (bulk_create skips the check): each still logs in by its exact name."""
    from django.contrib.auth.hashers import make_password

    ross = django_user_model.objects.create_user("ross", password="ross's phrase 1")
    [rosz] = django_user_model.objects.bulk_create(
        [django_user_model(username="roß", password=make_password("the other's phrase 2"))]
    )
    assert _login(client, "roß", "the other's phrase 2").status_code == 302
    assert client.session["_auth_user_id"] == str(rosz.pk)
    client.logout()
    assert _login(client, "ross", "ross's phrase 1").status_code == 302
    assert client.session["_auth_user_id"] == str(ross.pk)
