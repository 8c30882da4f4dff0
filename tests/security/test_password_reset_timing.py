"""The password-reset page answers as fast for an address that has an account as for one that
has none, however slow the mail server: the mail is sent after the response (a thread of the
worker here, without Redis; a Celery task with it). Else the time taken tells which addresses
have accounts. Against gunicorn with several workers, as production serves it."""

import statistics
from pathlib import Path

import pytest

from tests.faults.conftest import Visitor
from tests.security import slow_mail
from tests.security.server import MultiWorkerServer
from tests.servers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

SITE_URL = "https://trainer.example.com"
ROUNDS = 10
WARM_UP = 3  # rounds not timed


@pytest.fixture
def mail_dir(tmp_path):
    directory = tmp_path / "mail"
    directory.mkdir()
    return directory


@pytest.fixture
def server(transactional_db, tmp_path, mail_dir):
    server = MultiWorkerServer(
        tmp_path / "gunicorn.log",
        settings="tests.security.slow_mail_settings",
        env={
            "MAIL_DIR": str(mail_dir),
            "SITE_URL": SITE_URL,
            "PASSWORD_RESET_RATE_LIMIT": "1000",
        },
    )
    yield server
    server.stop()


def test_a_known_and_an_unknown_address_take_the_same_time(server, mail_dir, django_user_model):
    django_user_model.objects.create_user("ada", "ada@example.com", "old pass phrase 1")
    visitor = Visitor(server)
    visitor.get("/accounts/password/reset/")
    times = {"ada@example.com": [], "nobody@example.com": []}
    for n in range(WARM_UP + ROUNDS):
        for address, taken in times.items():
            status, body, seconds = visitor.post("/accounts/password/reset/", {"email": address})
            assert status == 302, body
            if n >= WARM_UP:  # a worker's first requests load what it has not yet
                taken.append(seconds)
    known, unknown = (statistics.median(taken) for taken in times.values())
    print(f"median response: known {known * 1000:.0f} ms, unknown {unknown * 1000:.0f} ms")
    # Sent in the request, each known address took the mail server's whole second.
    assert known < slow_mail.DELAY / 4, times
    assert abs(known - unknown) < slow_mail.DELAY / 10, times

    sent = WARM_UP + ROUNDS
    wait_for(lambda: _messages(mail_dir) >= sent, sent * slow_mail.DELAY + 30, "mails not sent")
    text = "".join(path.read_text() for path in Path(mail_dir).iterdir())
    assert text.count("To: ada@example.com") == sent
    assert "nobody@example.com" not in text
    assert f"{SITE_URL}/accounts/password/reset/" in text


def _messages(mail_dir):
    return sum(path.read_text().count("To: ada@example.com") for path in Path(mail_dir).iterdir())
