"""The server's VAPID key pair, which signs every Web Push it sends.

Browsers subscribe with the public key (the "application server key") and push services
refuse pushes signed with another, so the pair is made once, at the first start, and kept in
the `server_keys` table: every server process signs with it, and restarts keep the browsers'
subscriptions working.
"""

from __future__ import annotations

import base64
import datetime as dt
from dataclasses import dataclass, field

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid
from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import IntegrityError

from tlatelolco.web.storage.db import server_keys

PRIVATE_KEY = "vapid_private"  # its row in server_keys: the private key as PKCS#8 PEM


def b64url(raw: bytes) -> str:
    """Base64url without padding, as the Push API writes keys."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


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


def vapid_keys(engine: Engine) -> VapidKeys:
    """The stored pair, made and stored first if there is none. Processes starting together
    may each make one: the first stored wins and the others read it."""
    query = select(server_keys.c.value).where(server_keys.c.name == PRIVATE_KEY)
    with engine.connect() as db:
        pem = db.execute(query).scalar()
    if pem is None:
        try:
            with engine.begin() as db:
                db.execute(insert(server_keys).values(name=PRIVATE_KEY, value=new_pem(),
                                                      created_at=dt.datetime.now(dt.UTC)))
        except IntegrityError:
            pass  # another process stored its pair first
        with engine.connect() as db:
            pem = db.execute(query).scalar_one()
    return VapidKeys.from_pem(pem)
