"""Concurrent writes on the default SQLite set-up get queued, not refused.

A stock Django SQLite configuration answered 16 concurrent write requests with hundreds of
"database is locked" errors (docs/reference.md, "Operations"); WAL, IMMEDIATE transactions and a
busy timeout are what make the laptop default safe.
"""

import http.cookiejar
import re
import threading
import urllib.parse
import urllib.request

import pytest
from django.db import connection

CLIENTS = 16
SIGNUPS_EACH = 3


def _signup_many(base_url, index, errors):
    for n in range(SIGNUPS_EACH):
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        try:
            page = opener.open(base_url + "/accounts/signup/").read().decode()
            token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
            body = urllib.parse.urlencode(
                {
                    "csrfmiddlewaretoken": token,
                    "username": f"user{index}x{n}",
                    "password1": "a long pass phrase",
                    "password2": "a long pass phrase",
                }
            ).encode()
            request = urllib.request.Request(
                base_url + "/accounts/signup/", data=body, headers={"Referer": base_url}
            )
            response = opener.open(request)
            if response.status != 200 or "/accounts/signup/" in response.geturl():
                errors.append(f"client {index}: signup {n} did not complete")
        except Exception as error:  # every failure is a finding, whatever its type
            errors.append(f"client {index}: {error!r}")


@pytest.mark.django_db(transaction=True)
def test_it_takes_concurrent_writes_without_errors(live_server, django_user_model, settings):
    if connection.vendor != "sqlite":
        pytest.skip("this run uses PostgreSQL; the test is about the SQLite default")
    # Every client comes from 127.0.0.1, one address: the sign-up limit per address must let
    # them all through (its counter is one more concurrent writer).
    settings.SIGNUP_RATE_LIMIT = CLIENTS * SIGNUPS_EACH
    errors = []
    threads = [
        threading.Thread(target=_signup_many, args=(live_server.url, i, errors))
        for i in range(CLIENTS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    assert django_user_model.objects.count() == CLIENTS * SIGNUPS_EACH
