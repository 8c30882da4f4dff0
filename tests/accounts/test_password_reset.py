"""Password reset by e-mail (trainer/accounts/passwords.py): the link is built from SITE_URL,
never from the request, and the mail is built and sent after the response."""

import re

import pytest
from django.core import mail

from trainer.accounts import passwords, tasks

pytestmark = pytest.mark.django_db(transaction=True)  # the mail is sent once the request commits

SITE_URL = "https://trainer.example.com"


@pytest.fixture
def ada(django_user_model):
    return django_user_model.objects.create_user("ada", "ada@example.com", "old pass phrase 1")


@pytest.fixture
def sent_inline(monkeypatch, settings):
    """The mail is sent in a thread of the process when tasks run in-process; here, at once."""
    settings.SITE_URL = SITE_URL
    monkeypatch.setattr(passwords, "in_thread", lambda function, *args: function(*args))


@pytest.mark.parametrize("host", ["localhost:6666", "localhost.", "LOCALHOST", "127.0.0.1:1"])
def test_it_builds_the_link_from_the_site_url_never_the_request(client, ada, sent_inline, host):
    response = client.post(
        "/accounts/password/reset/", {"email": "ada@example.com"}, HTTP_HOST=host
    )
    assert response.status_code == 302
    [message] = mail.outbox
    assert f"{SITE_URL}/accounts/password/reset/" in message.body
    assert not re.search(r"://(?!trainer\.example\.com[/.\s])", message.body)
    assert host.lower().rstrip(".") not in message.body.lower()


def test_it_sends_nothing_for_an_unknown_address(client, ada, sent_inline):
    assert client.post("/accounts/password/reset/", {"email": "eve@example.com"}).status_code == 302
    assert mail.outbox == []


def test_it_sends_in_a_thread_after_the_response_without_a_broker(client, ada, settings):
    settings.SITE_URL = SITE_URL
    assert settings.CELERY_TASK_ALWAYS_EAGER
    started = passwords.in_thread

    threads = []

    def record(function, *args):
        threads.append(started(function, *args))

    passwords.in_thread = record
    try:
        client.post("/accounts/password/reset/", {"email": "ada@example.com"})
    finally:
        passwords.in_thread = started
    [thread] = threads
    thread.join(10)
    assert [message.to for message in mail.outbox] == [["ada@example.com"]]


def test_it_enqueues_the_task_with_a_broker(client, ada, settings, monkeypatch):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []
    monkeypatch.setattr(
        tasks.send_password_reset, "apply_async", lambda args, **options: sent.append(args)
    )
    client.post("/accounts/password/reset/", {"email": "ada@example.com"})
    assert sent == [(ada.pk,)]
    assert mail.outbox == []


def test_the_task_sends_the_link_and_skips_who_cannot_reset(ada, django_user_model, settings):
    settings.SITE_URL = SITE_URL
    assert tasks.send_password_reset(ada.pk) is True
    assert f"{SITE_URL}/accounts/password/reset/" in mail.outbox[0].body
    ada.is_active = False
    ada.save()
    assert tasks.send_password_reset(ada.pk) is False
    assert tasks.send_password_reset(ada.pk + 1000) is False
    assert len(mail.outbox) == 1


def test_it_sends_nothing_without_a_site_url(ada, settings, caplog):
    settings.SITE_URL = ""
    assert tasks.send_password_reset(ada.pk) is False
    assert mail.outbox == []
    assert "SITE_URL" in caplog.text


def _link(message):
    return re.search(r"https?://[^/]+(/accounts/password/reset/\S+/)", message.body).group(1)


def _choose(client, link, password):
    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    return client.post(
        form.redirect_chain[-1][0], {"new_password1": password, "new_password2": password}
    )


def test_it_resets_a_password_by_e_mail(client, ada, sent_inline):
    sent = client.post("/accounts/password/reset/", {"email": "ADA@example.com"})
    assert sent.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ada@example.com"]
    link = _link(mail.outbox[0])
    assert _choose(client, link, "brand new phrase 2").status_code == 302
    ada.refresh_from_db()
    assert ada.check_password("brand new phrase 2")
    # The link works once.
    assert "does not work" in client.get(link, follow=True).content.decode()


def test_it_limits_password_reset_e_mails_per_address(client, ada, sent_inline, settings):
    settings.PASSWORD_RESET_RATE_LIMIT = 2
    for _ in range(2):
        response = client.post("/accounts/password/reset/", {"email": "ada@example.com"})
        assert response.status_code == 302
    assert client.post("/accounts/password/reset/", {"email": "ada@example.com"}).status_code == 429
    assert len(mail.outbox) == 2


def test_a_mail_server_that_does_not_answer_gives_no_500(
    client, ada, sent_inline, settings, caplog
):
    """Production sends by SMTP (the default host is localhost): a server that is not there is
    logged, and the visitor sees the usual page, which never tells who has an account."""
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": 9, "timeout": 2},  # nothing listens
        }
    }
    response = client.post("/accounts/password/reset/", {"email": "ada@example.com"})
    assert response.status_code == 302
    assert "Failed to send password reset email" in caplog.text


def test_a_completed_password_reset_lifts_the_account_s_lock(client, ada, sent_inline, settings):
    """Whoever guessed at the account from this address locked it here; the owner, who holds
    its e-mail, resets the password and logs in at once."""
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "ada", "password": "a guess"})
    right = {"username": "ada", "password": "old pass phrase 1"}
    assert client.post("/accounts/login/", right).status_code == 429
    client.post("/accounts/password/reset/", {"email": "ada@example.com"})
    assert _choose(client, _link(mail.outbox[0]), "brand new phrase 2").status_code == 302
    right["password"] = "brand new phrase 2"
    assert client.post("/accounts/login/", right).status_code == 302
