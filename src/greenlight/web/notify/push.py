"""Web Push (RFC 8030 delivery, RFC 8291 message encryption, RFC 8292 VAPID): the server's keys and sending.

The server draws its VAPID key pair once and keeps it in the database (every process signs with the same key, and a
browser's subscription, made for that public key, stays valid across restarts). Payloads are encrypted for the
subscription's own keys (``aes128gcm``), so the push service carries nothing it can read. Sending uses ``pywebpush``
(the optional ``notify`` extra); without it the server runs without push.

A subscription names the URL the server will POST to, so it is an invitation to make the server call any address:
only hosts on the ``push_hosts`` list (the browsers' push services by default) are accepted, over HTTPS; plain HTTP
only to a loopback host the operator listed (a test's own push service).
"""

from __future__ import annotations

import base64
import contextlib
import ipaddress
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

#: The push services of the browsers people use (Chrome and Edge through FCM, Firefox, Windows, Safari).
DEFAULT_PUSH_HOSTS = "fcm.googleapis.com,*.push.services.mozilla.com,*.notify.windows.com,web.push.apple.com,*.push.apple.com"
SENT, GONE = "sent", "gone"


def available() -> bool:
    """Whether this installation can send Web Push (``pip install 'greenlight-boardgames[notify]'``)."""
    try:
        import py_vapid  # noqa: F401
        import pywebpush  # noqa: F401
    except ImportError:
        return False
    return True


def new_keys() -> tuple[str, str]:
    """A fresh VAPID key pair: the private key (PEM) and the public key as browsers take it (base64url, uncompressed point)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return private, base64.urlsafe_b64encode(public).decode().rstrip("=")


def endpoint_problem(endpoint: str, hosts: str) -> str | None:
    """Why the server will not POST to ``endpoint`` (None: it will).

    >>> endpoint_problem("https://fcm.googleapis.com/fcm/send/abc", DEFAULT_PUSH_HOSTS) is None
    True
    >>> endpoint_problem("https://169.254.169.254/latest", DEFAULT_PUSH_HOSTS)
    'push endpoints must be on a push service this server knows (169.254.169.254 is not one)'
    >>> endpoint_problem("http://127.0.0.1:9/push", "127.0.0.1") is None
    True
    """
    parts = urlsplit(endpoint)
    host = (parts.hostname or "").lower()
    if not host or len(endpoint) > 1000:
        return "a push subscription needs its endpoint (a URL)"
    allowed = [item.strip().lower() for item in hosts.split(",") if item.strip()]
    if not any(host == item or (item.startswith("*.") and host.endswith(item[1:])) for item in allowed):
        return f"push endpoints must be on a push service this server knows ({host} is not one)"
    if parts.scheme == "https":
        return None
    loopback = host == "localhost"
    with contextlib.suppress(ValueError):
        loopback = loopback or ipaddress.ip_address(host).is_loopback
    if parts.scheme == "http" and loopback and host in allowed:
        return None
    return "push endpoints must use https"


def keys_problem(keys: dict[str, str]) -> str | None:
    """Why a subscription's keys cannot be used (None: they can): a P-256 point and a 16-byte secret, base64url."""
    try:
        p256dh = base64.urlsafe_b64decode(keys.get("p256dh", "") + "==")
        auth = base64.urlsafe_b64decode(keys.get("auth", "") + "==")
    except (ValueError, TypeError):
        return "the subscription's keys are not base64url"
    if len(p256dh) != 65 or p256dh[0] != 4 or len(auth) != 16:
        return "the subscription's keys are not a browser's push keys (p256dh: 65 bytes, auth: 16 bytes)"
    return None


@dataclass(frozen=True, slots=True)
class PushSender:
    """Sends Web Push messages with the server's key (blocking calls: run them in a worker thread)."""

    private_key: str
    contact: str
    timeout: float

    def send(self, endpoint: str, keys: dict[str, str], payload: dict[str, Any]) -> str:
        """Deliver ``payload`` (JSON) to one subscription: ``sent``, or ``gone`` (the browser dropped the subscription);
        anything else raises ``OSError``."""
        from py_vapid import Vapid
        from pywebpush import WebPushException, webpush

        vapid = Vapid.from_pem(self.private_key.encode())
        try:
            webpush(
                {"endpoint": endpoint, "keys": keys},
                data=json.dumps(payload),
                vapid_private_key=vapid,
                vapid_claims={"sub": self.contact},
                timeout=self.timeout,
                ttl=24 * 3600,
            )
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in (404, 410):
                return GONE
            raise OSError(f"the push service answered {status or error}") from None
        except Exception as error:  # requests' connection errors and friends
            raise OSError(f"the push service could not be reached ({type(error).__name__})") from None
        return SENT
