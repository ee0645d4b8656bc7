"""Where the worker may post a push (issue 46 finding 4). A subscription's endpoint comes from the browser, so a
forged one could make the worker call a service on the site's own network (an admin page, a cloud's metadata
address). It is checked when it is registered and again at each delivery, after its name is resolved: https on
port 443, a public name, every address it resolves to a public one; the delivery then connects to the address
checked (push.py), so a name that resolves elsewhere a second later (DNS rebinding) gains nothing.

Tests with a push service on this machine set PUSH_LOCAL_ENDPOINTS: any scheme, port and address.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

# Names that never belong to a push service: this machine, a local network, a cloud's metadata service.
PRIVATE_SUFFIXES = (".localhost", ".local", ".localdomain", ".internal", ".lan", ".home.arpa", ".intranet", ".corp")


resolver = socket.getaddrinfo  # the tests put a resolver that needs no network here (tests/conftest.py)


class Refused(ValueError):
    """The endpoint is not a push service's public https address: never posted to."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    address: str  # the checked address the delivery connects to


def _public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    # is_global is False for private, loopback, link-local (169.254.169.254, the metadata address), shared
    # (100.64/10), reserved and documentation ranges.
    return ip.is_global and not ip.is_multicast


def _resolve(host: str, port: int) -> list[str]:
    try:
        infos = resolver(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise LookupError(f"{host} does not resolve: {error}") from error
    return list(dict.fromkeys(info[4][0] for info in infos))


def check(endpoint: str) -> Target:
    """The endpoint's target, or Refused. A name that does not resolve at all raises LookupError (perhaps the
    resolver is down: not the endpoint's fault, so the caller may try again later)."""
    parts = urlsplit(endpoint)
    host = (parts.hostname or "").lower().rstrip(".")
    try:
        port = parts.port if parts.port is not None else (443 if parts.scheme == "https" else 80)
    except ValueError as error:
        raise Refused("a port that is no number") from error
    if getattr(settings, "PUSH_LOCAL_ENDPOINTS", False):
        return Target(parts.scheme, host, port, _resolve(host, port)[0])
    if parts.scheme != "https" or port != 443:
        raise Refused("not https on port 443")
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None:
        raise Refused("an IP address, not a push service's name")
    if "." not in host or host == "localhost" or host.endswith(PRIVATE_SUFFIXES):
        raise Refused("not a public name")
    addresses = _resolve(host, port)
    if not addresses or not all(_public(address) for address in addresses):
        raise Refused("resolves to an address that is not public")
    return Target(parts.scheme, host, port, addresses[0])
