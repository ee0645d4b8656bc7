"""Web push to one device (pywebpush: the payload encrypted for the device's keys, RFC 8291, and signed with the
site's VAPID key, RFC 8292). Push is on only when the three VAPID settings are set.

The request itself is ours, not requests' (issue 46 finding 4): posted to the address the endpoint's check
resolved (endpoints.py), never following a redirect (a 3xx is a failure: a registered https endpoint answering 307
must not make the worker post to an internal address), and within one total DEADLINE for connect, TLS, sending
and the answer's status line, so an endpoint that drips its answer cannot hold the worker (requests' timeout is
per read: a byte every few seconds held it 75 s)."""

from __future__ import annotations

import json
import logging
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from django.conf import settings

from . import endpoints
from .models import PushSubscription, push_on

logger = logging.getLogger(__name__)

TTL = 12 * 3600  # seconds a push service keeps a message for a phone that is off: a table is stale by then
DEADLINE = 10.0  # seconds for one device's whole request, whatever the push service does


class Gone(Exception):
    """The push service says this subscription no longer exists (404/410): the row is deleted."""


def push_enabled() -> bool:
    return push_on()


@dataclass
class _Answer:
    """What pywebpush reads of a response."""

    status_code: int
    reason: str
    text: str = ""
    headers: dict = field(default_factory=dict)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)  # wakes a recv or a TLS handshake blocked in another thread
    except OSError:
        pass


class _PinnedSession:
    """pywebpush's `requests_session`: its one `post`, to the checked address, within DEADLINE."""

    def __init__(self, target: endpoints.Target) -> None:
        self.target = target

    def _request(self, url: str, data: bytes, headers) -> bytes:
        parts = urlsplit(url)
        host = self.target.host if ":" not in self.target.host else f"[{self.target.host}]"
        if self.target.port != (443 if self.target.scheme == "https" else 80):
            host += f":{self.target.port}"
        lines = [
            f"POST {parts.path or '/'}{'?' + parts.query if parts.query else ''} HTTP/1.1",
            f"Host: {host}",
            "Connection: close",
            f"Content-Length: {len(data)}",
        ]
        lines += [
            f"{name}: {value}"
            for name, value in dict(headers or {}).items()
            if name.lower() not in ("host", "connection", "content-length")
        ]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + data

    def post(
        self, url: str, data: bytes | None = None, headers=None, timeout: float | None = None, **_kwargs
    ) -> _Answer:
        end = time.monotonic() + DEADLINE
        request = self._request(url, data or b"", headers)
        raw = socket.create_connection((self.target.address, self.target.port), timeout=DEADLINE)
        watchdog = threading.Timer(max(end - time.monotonic(), 0), _shut, args=(raw,))
        watchdog.daemon = True
        watchdog.start()
        sock: socket.socket = raw
        try:
            if self.target.scheme == "https":
                sock = ssl.create_default_context().wrap_socket(raw, server_hostname=self.target.host)
            sock.sendall(request)
            answer = b""
            while b"\r\n" not in answer and len(answer) < 8192:  # the status line is all we read
                sock.settimeout(max(end - time.monotonic(), 0.001))
                chunk = sock.recv(1024)
                if not chunk:
                    break
                answer += chunk
        except OSError as error:
            if time.monotonic() >= end:
                raise TimeoutError(f"no answer within {DEADLINE:g} s") from error
            raise
        finally:
            watchdog.cancel()
            sock.close()
        if b"\r\n" not in answer:
            if time.monotonic() >= end:
                raise TimeoutError(f"no answer within {DEADLINE:g} s")
            raise ConnectionError("the push service closed without an answer")
        status = answer.split(b"\r\n", 1)[0].decode("latin-1").split(" ", 2)
        if len(status) < 2 or not status[0].startswith("HTTP/") or not status[1].isdigit():
            raise ConnectionError("the push service's answer is not HTTP")
        return _Answer(int(status[1]), status[2] if len(status) > 2 else "")


def send(subscription: PushSubscription, message: dict) -> None:
    """Send one message; raises Gone for a subscription the push service forgot, endpoints.Refused for an
    endpoint the site does not post to (never contacted), WebPushException (a 3xx among them) or OSError
    otherwise."""
    from pywebpush import WebPushException, webpush

    target = endpoints.check(subscription.endpoint)
    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    try:
        webpush(
            info,
            data=json.dumps(message),
            vapid_private_key=settings.VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=TTL,
            timeout=DEADLINE,
            requests_session=_PinnedSession(target),
        )  # type: ignore[arg-type]
    except WebPushException as error:
        status = getattr(error.response, "status_code", None)
        if status in (404, 410):
            raise Gone(subscription.endpoint) from error
        raise
