"""Passwords: stored as argon2id hashes (argon2-cffi's defaults: RFC 9106's second
recommended setting, 64 MiB and 3 passes), never as themselves.

A hash costs a tenth of a second and 64 MiB, on purpose: that is what makes a stolen hash
slow to guess. So a server hashes only a few at once (`HASHES_AT_ONCE`, the rest wait
their turn), in threads of their own, never on the event loop nor in the threads that reach
the database (a flood of logins must not stall the games); and an unknown name costs the same
verification as a known one (`dummy_hash`), so the time of an answer does not tell which names
have accounts.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import secrets
from collections.abc import Callable
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

HASHER = PasswordHasher()  # argon2id with the library's defaults, kept current by upgrading it
HASHES_AT_ONCE = 4  # per server process: 64 MiB each
_hashing = concurrent.futures.ThreadPoolExecutor(HASHES_AT_ONCE, thread_name_prefix="passwords")
T = TypeVar("T")


@functools.cache
def dummy_hash() -> str:
    """A hash of a random password nobody knows, verified for names without an account."""
    return HASHER.hash(secrets.token_urlsafe(24))


def hash_password(password: str) -> str:
    return HASHER.hash(password)


def verify(stored: str | None, password: str) -> bool:
    """Whether `password` matches the `stored` hash; with None (no such account) the dummy
    hash is verified instead, as slowly, and the answer is False."""
    dummy = dummy_hash()  # made by the first login whatever its name: no first-time tell
    try:
        return HASHER.verify(stored or dummy, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether a hash was made with weaker parameters than the library's current ones (it is
    made again at the next login, when the password is at hand)."""
    try:
        return HASHER.check_needs_rehash(stored)
    except InvalidHashError:
        return True


async def off_loop(function: Callable[..., T], *args: object) -> T:
    """`function(*args)` (a hash or a verification) in the hashing threads; the others
    wait in their queue."""
    return await asyncio.get_running_loop().run_in_executor(
        _hashing, functools.partial(function, *args))
