"""The client's address, as far as it can be trusted.

Behind `TRUSTED_PROXY_COUNT` reverse proxies (load balancers), each of which appends the address
it received the request from to X-Forwarded-For, the client is the entry that many places from
the right: everything left of it was written by the client and proves nothing. With no proxy
(the default) the header is ignored and the address is the connection's.
"""

import ipaddress

from django.conf import settings
from django.http import HttpRequest


def _valid(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str | None:
    """The client's IP address as text, or None when it cannot be told."""
    remote = _valid(request.META.get("REMOTE_ADDR", ""))
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    entries = [e for e in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if e.strip()]
    if len(entries) < proxies:
        # Fewer hops than the proxies in front of us append: the request did not come through
        # them (or a proxy was removed without updating the setting); the connection is all
        # we know.
        return remote
    return _valid(entries[-proxies])
