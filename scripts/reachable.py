"""Exit 0 when the service at a URL accepts TCP connections, 1 (saying why) when it does not.

Usage: python scripts/reachable.py postgres://postgres@127.0.0.1:5432/trainer
"""

import socket
import sys
from urllib.parse import urlsplit

url = urlsplit(sys.argv[1])
default_ports = {"postgres": 5432, "postgresql": 5432, "redis": 6379}
address = (url.hostname or "127.0.0.1", url.port or default_ports.get(url.scheme, 0))
try:
    socket.create_connection(address, timeout=2).close()
except OSError as error:
    print(f"{url.scheme} at {address[0]}:{address[1]} is not reachable ({error})", file=sys.stderr)
    sys.exit(1)
