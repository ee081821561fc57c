"""The server's VAPID key pair, which signs every Web Push it sends.

Browsers subscribe with the public key (the "application server key") and push services
refuse pushes signed with another, so the pair is made once, at the first start, and kept in
the `server_keys` table: every server process signs with it, and restarts keep the browsers'
subscriptions working. The secret signing the links that verify e-mail addresses is kept
there too, for the same reasons.
"""

from __future__ import annotations

import base64
import datetime as dt
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid
from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import IntegrityError

from tlatelolco.web.storage.db import server_keys

PRIVATE_KEY = "vapid_private"  # its row in server_keys: the private key as PKCS#8 PEM
VERIFY_SECRET = "email_verify"  # the row of the secret signing e-mail verification links


def b64url(raw: bytes) -> str:
    """Base64url without padding, as the Push API writes keys."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def b64decode(text: str) -> bytes:
    """What `b64url` wrote; binascii.Error (a ValueError) for anything else."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True, slots=True)
class VapidKeys:
    private_pem: str = field(repr=False)
    public_key: str  # base64url of the uncompressed P-256 point: applicationServerKey

    @classmethod
    def from_pem(cls, pem: str) -> VapidKeys:
        key = serialization.load_pem_private_key(pem.encode(), password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey):
            raise ValueError("the stored VAPID key is not an elliptic-curve key")
        point = key.public_key().public_bytes(serialization.Encoding.X962,
                                              serialization.PublicFormat.UncompressedPoint)
        return cls(pem, b64url(point))

    def signer(self) -> Vapid:
        """py_vapid's signer. Not strict about `sub`: we choose it (see push.Pusher)."""
        key = serialization.load_pem_private_key(self.private_pem.encode(), password=None)
        return Vapid(key, conf={"no-strict": True})


def new_pem() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption()).decode()


def stored_key(engine: Engine, name: str, make: Callable[[], str]) -> str:
    """The key stored under `name` in server_keys, made with `make` and stored first if
    there is none. Processes starting together may each make one: the first stored wins and
    the others read it."""
    query = select(server_keys.c.value).where(server_keys.c.name == name)
    with engine.connect() as db:
        value = db.execute(query).scalar()
    if value is None:
        try:
            with engine.begin() as db:
                db.execute(insert(server_keys).values(name=name, value=make(),
                                                      created_at=dt.datetime.now(dt.UTC)))
        except IntegrityError:
            pass  # another process stored its key first
        with engine.connect() as db:
            value = db.execute(query).scalar_one()
    return str(value)


def vapid_keys(engine: Engine) -> VapidKeys:
    """The stored pair (made at the first start)."""
    return VapidKeys.from_pem(stored_key(engine, PRIVATE_KEY, new_pem))


def verify_secret(engine: Engine) -> bytes:
    """The secret (32 random bytes, made at the first start) that signs the links verifying
    e-mail addresses (`accounts.verification`): shared by every process, so a link mailed by
    one is good at all, and kept across restarts, so a link stays good for its 48 hours."""
    return b64decode(stored_key(engine, VERIFY_SECRET,
                                lambda: b64url(secrets.token_bytes(32))))
