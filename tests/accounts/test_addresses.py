"""The client's address behind trusted proxies (trainer/accounts/addresses.py): the entry a
proxy appended may carry a port, and whatever cannot be read falls back to the connection's."""

import pytest
from django.test import RequestFactory

from trainer.accounts.addresses import client_address

CONNECTION = "10.0.0.9"


def _address(forwarded, proxies, settings):
    settings.TRUSTED_PROXY_COUNT = proxies
    request = RequestFactory().get("/", REMOTE_ADDR=CONNECTION, HTTP_X_FORWARDED_FOR=forwarded)
    return client_address(request)


@pytest.mark.parametrize(
    ("entry", "address"),
    [
        ("9.9.9.9", "9.9.9.9"),
        ("9.9.9.9:443", "9.9.9.9"),
        (" 9.9.9.9:443 ", "9.9.9.9"),
        ("2001:db8::1", "2001:db8::1"),
        ("[2001:db8::1]", "2001:db8::1"),
        ("[2001:db8::1]:443", "2001:db8::1"),
        ("[2001:DB8:0::1]:8443", "2001:db8::1"),
        ("::ffff:9.9.9.9", "::ffff:9.9.9.9"),
    ],
)
def test_it_reads_the_address_a_trusted_proxy_appended_with_or_without_a_port(
    entry, address, settings
):
    assert _address(f"1.1.1.1, {entry}", 1, settings) == address


@pytest.mark.parametrize(
    "entry",
    [
        "not an address",
        "9.9.9.9:",
        "9.9.9.9:https",
        "9.9.9.9:99999",
        "[2001:db8::1]443",
        "[2001:db8::1",
        "[9.9.9.9]:443",
        "2001:db8::1:443:",
        "unknown",
        "",
    ],
)
def test_it_falls_back_to_the_connection_when_the_entry_cannot_be_read(entry, settings):
    assert _address(f"1.1.1.1, {entry}", 1, settings) == CONNECTION


def test_it_takes_the_entry_that_many_places_from_the_right(settings):
    forwarded = "1.2.3.4, 5.6.7.8:80"
    assert _address(forwarded, 0, settings) == CONNECTION  # no proxy: the header proves nothing
    assert _address(forwarded, 1, settings) == "5.6.7.8"  # what our proxy appended
    assert _address(forwarded, 2, settings) == "1.2.3.4"
    assert _address(forwarded, 3, settings) == CONNECTION  # fewer hops than proxies


@pytest.mark.django_db
def test_clients_with_ports_get_budgets_of_their_own(client, settings):
    """Two clients whose proxy writes a port: each has its own sign-up budget (were both
    unreadable, they would share one)."""
    settings.TRUSTED_PROXY_COUNT = 1
    settings.SIGNUP_RATE_LIMIT = 1

    def sign_up(name, forwarded):
        data = {"username": name, "email": "", "password1": "a long pass phrase 9"}
        data["password2"] = data["password1"]
        response = client.post("/accounts/signup/", data, HTTP_X_FORWARDED_FOR=forwarded)
        client.logout()
        return response.status_code

    assert sign_up("first", "9.9.9.9:443") == 302
    assert sign_up("second", "[2001:db8::1]:443") == 302
    assert sign_up("third", "9.9.9.9:444") == 429  # the same client, another source port
