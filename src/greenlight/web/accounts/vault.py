"""Seat tokens kept for an account, sealed with the server's key (AES-256-GCM), so a seat follows its person to any device.

The tables store only a digest of each seat token; a signed-in person's seats must open on any of their devices,
so the accounts room keeps each of their tokens, sealed: whoever reads the database without the key learns
nothing from them. The key comes from the ``GREENLIGHT_SECRET_KEY`` environment variable (any text: its SHA-256 is
the key), the same for every server process; without it the server draws one and keeps it in the database (then
a copy of the database carries the key, which docs/accounts.md says).

>>> vault = Vault(bytes(32))
>>> sealed = vault.seal("seat-token", "t1/0")
>>> vault.open(sealed, "t1/0")
'seat-token'
>>> vault.open(sealed, "t1/1") is None  # bound to its seat: moved to another, it does not open
True
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

#: The environment variable that gives the server's key.
SECRET_KEY_VARIABLE = "GREENLIGHT_SECRET_KEY"


class Vault:
    """Seals and opens short secrets, each bound to what it belongs to (``where``: table and seat)."""

    def __init__(self, key: bytes) -> None:
        self._aead = AESGCM(key)

    def seal(self, secret: str, where: str) -> str:
        """``secret`` sealed for ``where`` (URL-safe text)."""
        nonce = secrets.token_bytes(12)
        return base64.urlsafe_b64encode(nonce + self._aead.encrypt(nonce, secret.encode(), where.encode())).decode()

    def open(self, sealed: str, where: str) -> str | None:
        """The secret, or None if it was not sealed with this key for ``where``."""
        try:
            raw = base64.urlsafe_b64decode(sealed.encode())
            return self._aead.decrypt(raw[:12], raw[12:], where.encode()).decode()
        except (InvalidTag, ValueError):
            return None


def key_from_environment() -> bytes | None:
    """The key ``GREENLIGHT_SECRET_KEY`` gives, if set."""
    text = os.environ.get(SECRET_KEY_VARIABLE, "")
    return hashlib.sha256(text.encode()).digest() if text else None
