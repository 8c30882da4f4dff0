"""The client's address, as far as it can be trusted.

Behind `TRUSTED_PROXY_COUNT` reverse proxies (load balancers), each of which appends the address
it received the request from to X-Forwarded-For, the client is the entry that many places from
the right: everything left of it was written by the client and proves nothing. Some proxies
append the port too (`203.0.113.7:51234`, `[2001:db8::7]:51234`). With no proxy (the default)
the header is ignored and the address is the connection's, as it is when the entry cannot be
read: an address shared by a few misread clients is better than none, which would turn the
per-address limits off for them and put them all in one budget.
"""

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _address(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def _port(text: str) -> bool:
    return text.isascii() and text.isdigit() and int(text) <= 65535


def parse_entry(entry: str) -> str | None:
    """The address of one X-Forwarded-For entry (`ip`, `ip:port`, `[ipv6]` or `[ipv6]:port`),
    or None when it is none of these."""
    entry = entry.strip()
    if entry.startswith("["):
        inside, bracket, rest = entry[1:].partition("]")
        if not bracket or (rest and not (rest[0] == ":" and _port(rest[1:]))):
            return None
        address = _address(inside)
        return address if address is not None and ":" in address else None
    if entry.count(":") == 1:  # IPv4 with a port; a bare IPv6 address has two colons or more
        host, _, port = entry.partition(":")
        return _address(host) if _port(port) else None
    return _address(entry)


def client_address(request: HttpRequest) -> str | None:
    """The client's IP address as text, or None when not even the connection's can be read."""
    remote = _address(request.META.get("REMOTE_ADDR", "").strip())
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    entries = request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
    if len(entries) < proxies:
        # Fewer hops than the proxies in front of us append: the request did not come through
        # them (or a proxy was removed without updating the setting); the connection is all
        # we know.
        return remote
    return parse_entry(entries[-proxies]) or remote
