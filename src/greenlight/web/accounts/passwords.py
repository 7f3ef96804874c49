"""Passwords: Argon2id hashes (``argon2-cffi``, RFC 9106's low-memory profile), checked in a worker thread.

Hashing costs tens of milliseconds and 64 MiB, on purpose: a few at a time per process
(:data:`HASHES_AT_ONCE`), so a flood of sign-ins cannot take the server's memory. A sign-in for a name no account
has still checks a password against a hash made once, so an answer never tells by its time whether a name exists.

>>> hashed = hash_password("correct horse")
>>> verify_password(hashed, "correct horse"), verify_password(hashed, "wrong horse")
(True, False)
"""

from __future__ import annotations

import asyncio
import functools

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

#: Password lengths accepted (characters).
MIN_PASSWORD = 8
MAX_PASSWORD = 200
#: Hashes computed at once per server process.
HASHES_AT_ONCE = 2

_hasher = PasswordHasher()


def password_problem(password: str) -> str | None:
    """Why a new password is refused, or None."""
    if len(password) < MIN_PASSWORD:
        return f"a password needs at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password may have at most {MAX_PASSWORD} characters"
    return None


def hash_password(password: str) -> str:
    """An Argon2id hash of ``password`` (salted, with its parameters)."""
    return _hasher.hash(password)


def verify_password(hashed: str, password: str) -> bool:
    """Whether ``password`` matches ``hashed``."""
    try:
        return _hasher.verify(hashed, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def needs_rehash(hashed: str) -> bool:
    """Whether ``hashed`` was made with older parameters than the hasher's."""
    return _hasher.check_needs_rehash(hashed)


@functools.cache
def _stand_in() -> str:
    """The hash checked when no account has the name: the same work as a real check."""
    return hash_password("no account has this name")


async def hash_async(password: str, slots: asyncio.Semaphore) -> str:
    """:func:`hash_password` in a worker thread, at most as many at once as ``slots`` allows."""
    async with slots:
        return await asyncio.to_thread(hash_password, password)


async def verify_async(hashed: str | None, password: str, slots: asyncio.Semaphore) -> bool:
    """:func:`verify_password` in a worker thread (within ``slots``); a missing hash is checked against a stand-in."""
    async with slots:
        if hashed is None:
            await asyncio.to_thread(verify_password, await asyncio.to_thread(_stand_in), password)
            return False
        return await asyncio.to_thread(verify_password, hashed, password)
