"""Accounts in the database: their names' rules, creation, look-up, passwords, settings.

A name is shown to everybody (on seats, profiles, leaderboards), so one name must not pass
for another: it is stored in Unicode's compatibility form (NFKC: a full-width "Ａｎａ" is
"Ana"), holds letters, ASCII digits, spaces and `_-.` only (no control or formatting
characters: no bidi override, no zero-width joiner), and the letters of one script (a
Cyrillic "а" among Latin letters is refused). Two names are the same account when they are
equal casefolded (`name_key`): "Ana", "ANA" and "ａｎａ" are one.

Synchronous: the server runs these in its threads.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, false, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.storage.db import sessions, users

NAME_MIN, NAME_MAX = 2, 24  # characters of an account's name
KEY_MAX = 40  # characters of its key (users.name_key)
PUNCTUATION = " _-."
DIGITS = "0123456789"  # other scripts' digits look like these ("৪" and "8")
MARKS_IN_A_ROW = 2  # accents after a letter (a stack of them hides what is beneath)
PASSWORD_MIN, PASSWORD_MAX = 8, 200
EMAIL_MAX = 254
EMAIL = re.compile(r"[^@\s]{1,64}@[^@\s.]+(\.[^@\s.]+)+")
# scripts written together in one language: a Japanese name mixes these
SCRIPT_GROUPS = {"CJK": "HAN", "HIRAGANA": "HAN", "KATAKANA": "HAN", "KATAKANA-HIRAGANA": "HAN"}


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def utc(stamp: dt.datetime) -> dt.datetime:
    """A stored time with its zone: SQLite hands back UTC times without one."""
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=dt.UTC)


def bad_name(message: str) -> ApiError:
    return ApiError(422, "bad_name", message)


def name_key(name: str) -> str:
    """What two names must differ in to be two accounts: compatibility form, casefolded."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def script(char: str) -> str:
    """The script of a letter, by the first word of its Unicode name (LATIN, CYRILLIC...)."""
    first = unicodedata.name(char, "UNKNOWN").split(" ")[0]
    return SCRIPT_GROUPS.get(first, first)


def check_name(name: str) -> str:
    """The name as it is stored and shown; ApiError 422 `bad_name` saying what is wrong and
    what is allowed."""
    typed, name = len(name), unicodedata.normalize("NFKC", name)
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise bad_name(f"a name has {NAME_MIN} to {NAME_MAX} characters; this one has "
                       f"{len(name)}" + (" in Unicode's compatibility form (NFKC)"
                                         if len(name) != typed else ""))
    if name != name.strip(" "):
        raise bad_name("a name cannot begin or end with a space")
    if "  " in name:
        raise bad_name("a name cannot hold two spaces in a row")
    marks = 0  # accents in a row so far
    for at, char in enumerate(name):
        kind = unicodedata.category(char)
        if kind[0] == "M":
            marks += 1
            base = name[at - marks] if at >= marks else ""
            if marks <= MARKS_IN_A_ROW and base and unicodedata.category(base)[0] == "L":
                continue
            raise bad_name(f"accents follow a letter, at most {MARKS_IN_A_ROW} of them "
                           f"(U+{ord(char):04X} does not)")
        marks = 0
        if kind[0] != "L" and char not in DIGITS and char not in PUNCTUATION:
            what = unicodedata.name(char, "a control character").lower()
            raise bad_name(f"a name holds letters, digits 0-9, spaces and _ - . only; "
                           f"U+{ord(char):04X} ({what}) is none of them")
    scripts = sorted({script(c) for c in name if unicodedata.category(c)[0] == "L"})
    if len(scripts) > 1:
        raise bad_name(f"a name's letters come from one script, and this one mixes "
                       f"{' and '.join(s.lower() for s in scripts)}: letters of different "
                       "scripts look alike, so one name could pass for another")
    if len(name_key(name)) > KEY_MAX:
        raise bad_name(f"this name is too long once normalised (more than {KEY_MAX} "
                       "characters); choose a shorter one")
    return name


def check_password(password: str, name: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(422, "bad_password", f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} "
                       f"characters; this one has {len(password)}")
    if name_key(password) == name_key(name):
        raise ApiError(422, "bad_password", "a password cannot be the account's name")


def check_email(email: str | None) -> str | None:
    if email is None:
        return None
    if len(email) > EMAIL_MAX or not EMAIL.fullmatch(email) or any(
            unicodedata.category(c)[0] == "C" for c in email):
        raise ApiError(422, "bad_email", f"an e-mail address is NAME@DOMAIN, at most "
                       f"{EMAIL_MAX} characters, without spaces or control characters")
    return email


@dataclass(slots=True)
class User:
    id: int
    name: str
    password_hash: str
    email: str | None
    email_verified: bool  # its owner followed the link mailed to it
    lang: str | None
    notify_email: bool
    notify_push: bool
    disabled: bool
    created_at: dt.datetime

    def public(self) -> dict[str, Any]:
        """USER of the API: sent only to the account itself (never the hash, never to others)."""
        return {"id": self.id, "name": self.name, "email": self.email,
                "email_verified": self.email_verified, "lang": self.lang,
                "notify_email": self.notify_email, "notify_push": self.notify_push,
                "created_at": utc(self.created_at).isoformat()}


def _user(row: Any) -> User:
    return User(id=int(row.id), name=row.name, password_hash=row.password_hash,
                email=row.email, email_verified=bool(row.email_verified), lang=row.lang,
                notify_email=bool(row.notify_email), notify_push=bool(row.notify_push),
                disabled=bool(row.disabled),
                created_at=utc(row.created_at))


def create(engine: Engine, name: str, password_hash: str, email: str | None = None,
           lang: str | None = None) -> User:
    """A new account; ApiError 409 `name_taken` when the name's key has one already."""
    try:
        with engine.begin() as db:
            made = db.execute(insert(users).values(
                name=name, name_key=name_key(name), password_hash=password_hash, email=email,
                lang=lang, created_at=now()).returning(users.c.id)).scalar_one()
    except IntegrityError:
        raise name_taken(name) from None
    found = get(engine, int(made))
    assert found is not None
    return found


def name_taken(name: str) -> ApiError:
    return ApiError(409, "name_taken", f"the name {name!r} is taken (names differing only in "
                    "capitals or letter widths are the same); choose another")


def find(engine: Engine, name: str) -> User | None:
    """The account of a name, as typed in any capitals or widths."""
    key = name_key(name)
    if len(key) > KEY_MAX:
        return None
    with engine.connect() as db:
        row = db.execute(select(users).where(users.c.name_key == key)).first()
    return _user(row) if row is not None else None


def get(engine: Engine, user_id: int) -> User | None:
    with engine.connect() as db:
        row = db.execute(select(users).where(users.c.id == user_id)).first()
    return _user(row) if row is not None else None


def set_password(engine: Engine, user_id: int, password_hash: str) -> None:
    with engine.begin() as db:
        db.execute(update(users).where(users.c.id == user_id).values(
            password_hash=password_hash, password_changed_at=now()))


def set_disabled(engine: Engine, user_id: int, disabled: bool) -> None:
    """Disable (or enable again) an account: a disabled one cannot log in, and its sessions
    are refused at once (`identity.session_account`)."""
    with engine.begin() as db:
        db.execute(update(users).where(users.c.id == user_id).values(disabled=disabled))


def update_settings(engine: Engine, user_id: int, changes: dict[str, Any]) -> User:
    """Store the given settings (email, lang, notify_email, notify_push) of an account. A new
    e-mail address is not verified (the old one's verification says nothing of it)."""
    allowed = {"email", "lang", "notify_email", "notify_push"}
    assert set(changes) <= allowed, changes
    if changes:
        with engine.begin() as db:
            values = dict(changes)
            if "email" in changes:
                old = db.execute(select(users.c.email).where(users.c.id == user_id)).scalar()
                if old != changes["email"]:
                    values["email_verified"] = False
            db.execute(update(users).where(users.c.id == user_id).values(**values))
    found = get(engine, user_id)
    assert found is not None
    return found


def mark_verified(engine: Engine, user_id: int, address: str) -> bool:
    """The account's address is verified, if it is still `address`; whether it is."""
    with engine.begin() as db:
        done = db.execute(update(users).where(users.c.id == user_id, users.c.email == address,
                                              users.c.disabled == false())
                          .values(email_verified=True))
    return bool(done.rowcount)


def listing(engine: Engine) -> list[dict[str, Any]]:
    """Every account, oldest first, with its sessions still current (for the operator)."""
    current = (select(sessions.c.user_id, func.count().label("sessions"))
               .where(sessions.c.expires_at > now()).group_by(sessions.c.user_id).subquery())
    query = (select(users.c.id, users.c.name, users.c.email, users.c.disabled,
                    users.c.created_at, func.coalesce(current.c.sessions, 0).label("sessions"))
             .outerjoin(current, current.c.user_id == users.c.id).order_by(users.c.id))
    with engine.connect() as db:
        return [{"id": int(r.id), "name": r.name, "email": r.email,
                 "disabled": bool(r.disabled), "created_at": utc(r.created_at),
                 "sessions": int(r.sessions)} for r in db.execute(query)]
