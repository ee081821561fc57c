"""`tlatelolco users`: the operator's commands for accounts, run on the server's machine.

    tlatelolco users list
    tlatelolco users reset-password NAME      # prints a new random password, once
    tlatelolco users reset-password NAME --stdin < file
    tlatelolco users disable NAME             # no login; its sessions end at once
    tlatelolco users enable NAME

Each takes `--db URL` (default: $TLATELOLCO_DB, else sqlite:///tlatelolco.db, as `serve`).
A reset or a disable logs every session of the account out.
"""

from __future__ import annotations

import os
import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from tlatelolco.cli.common import FAILURE, fail

users_app = typer.Typer(name="users", no_args_is_help=True,
                        help="List accounts, reset a password, disable or enable an account.")

Db = Annotated[str | None, typer.Option(
    help="Database URL: sqlite:///FILE (default sqlite:///tlatelolco.db, or $TLATELOLCO_DB) "
    "or postgresql://user:pass@host/db.")]
Name = Annotated[str, typer.Argument(help="The account's name (in any capitals).")]


@contextmanager
def database(db: str | None) -> Iterator[Any]:
    """The engine of the server's database, its schema brought up to date as `serve` does;
    a one-line error when it cannot be."""
    from sqlalchemy.exc import SQLAlchemyError

    from tlatelolco.web.storage.db import DEFAULT_URL, SchemaTooNew, make_engine, upgrade

    url = db or os.environ.get("TLATELOLCO_DB") or DEFAULT_URL
    engine = make_engine(url)
    try:
        upgrade(engine)
    except (SchemaTooNew, SQLAlchemyError) as err:
        engine.dispose()
        fail(str(err).splitlines()[0], FAILURE)
    try:
        yield engine
    finally:
        engine.dispose()


def account(engine: Any, name: str) -> Any:
    from tlatelolco.web.accounts import users

    found = users.find(engine, name)
    if found is None:
        fail(f"there is no account named {name[:40]!r} (see `tlatelolco users list`)", FAILURE)
    return found


@users_app.command("list")
def list_users(db: Db = None) -> None:
    """The accounts: name, e-mail, when made, disabled or not, sessions logged in."""
    from tlatelolco.web.accounts import users

    with database(db) as engine:
        found = users.listing(engine)
    if not found:
        Console().print("No accounts yet.")
        return
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("name", "e-mail", "created", "state", "sessions"):
        table.add_column(column, justify="right" if column == "sessions" else "left")
    for user in found:
        table.add_row(user["name"], user["email"] or "", user["created_at"].strftime(
            "%Y-%m-%d %H:%M UTC"), "disabled" if user["disabled"] else "active",
            str(user["sessions"]))
    Console().print(table, markup=False)


@users_app.command("reset-password")
def reset_password(name: Name, db: Db = None, stdin: Annotated[bool, typer.Option(
        "--stdin", help="Read the new password from the first line of standard input "
        "instead of making a random one.")] = False) -> None:
    """Give an account a new password (printed once when random) and log it out everywhere."""
    from tlatelolco.web.accounts import passwords, sessions, users
    from tlatelolco.web.http.errors import ApiError

    password = sys.stdin.readline().rstrip("\r\n") if stdin else secrets.token_urlsafe(12)
    with database(db) as engine:
        user = account(engine, name)
        try:
            users.check_password(password, user.name)
        except ApiError as err:
            fail(f"the new password was refused: {err.message}")
        users.set_password(engine, user.id, passwords.hash_password(password))
        ended = sessions.end_all(engine, user.id)
    Console(stderr=True).print(f"{user.name}: password changed, {ended} session(s) logged "
                               "out", markup=False, highlight=False)
    if not stdin:
        print(password)  # alone on stdout, for a script to take


@users_app.command()
def disable(name: Name, db: Db = None) -> None:
    """Refuse the account's logins and end its sessions (its seats stay, idle)."""
    from tlatelolco.web.accounts import sessions, users

    with database(db) as engine:
        user = account(engine, name)
        users.set_disabled(engine, user.id, True)
        ended = sessions.end_all(engine, user.id)
    Console().print(f"{user.name}: disabled, {ended} session(s) logged out", markup=False,
                    highlight=False)


@users_app.command()
def enable(name: Name, db: Db = None) -> None:
    """Let a disabled account log in again."""
    from tlatelolco.web.accounts import users

    with database(db) as engine:
        user = account(engine, name)
        users.set_disabled(engine, user.id, False)
    Console().print(f"{user.name}: enabled", markup=False, highlight=False)
