"""Issue 35: `tlatelolco users`, the operator's commands, on the database a server serves."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.web.accounts import PASSWORD, login, signup
from tests.web.apps import serve
from typer.testing import CliRunner

from tlatelolco.cli.app import app as cli
from tlatelolco.web.accounts.identity import SESSION_COOKIE


@pytest.fixture
def served(tmp_path) -> Iterator[tuple[TestClient, str]]:
    """A server with two accounts (Ana logged in on the client), and its database's URL."""
    db = f"sqlite:///{tmp_path / 'web.db'}"
    with serve(tmp_path, db=db) as client:
        signup(client, "Bea", email="bea@example.org")
        client.cookies.clear()
        signup(client, "Ana")
        yield client, db


def users(*args: str, db: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["users", *args, "--db", db], input=stdin)
    return result.exit_code, result.stdout, result.stderr


def try_login(client: TestClient, name: str, password: str) -> int:
    client.cookies.clear()
    return client.post("/api/account/login", json={"name": name,
                                                   "password": password}).status_code


def test_list_shows_every_account(served):
    _, db = served
    code, out, _ = users("list", db=db)
    assert code == 0
    lines = [line for line in out.splitlines() if "Ana" in line or "Bea" in line]
    assert len(lines) == 2 and "bea@example.org" in lines[0] and "active" in lines[1]
    assert PASSWORD not in out and "argon2" not in out


def test_reset_password_prints_a_new_one_once_and_logs_out_everywhere(served):
    client, db = served
    session = client.cookies[SESSION_COOKIE]
    code, out, err = users("reset-password", "ana", db=db)
    assert code == 0 and "Ana: password changed, 1 session(s) logged out" in err
    new = out.strip()
    assert len(new) >= 12 and "\n" not in new
    client.cookies.set(SESSION_COOKIE, session)
    assert client.get("/api/account").json()["user"] is None  # the session is gone
    assert try_login(client, "Ana", PASSWORD) == 401
    assert try_login(client, "Ana", new) == 200
    code, out, _ = users("reset-password", "Ana", "--stdin", db=db, stdin="chosen by me\n")
    assert code == 0 and out == ""  # a password given is not printed
    assert try_login(client, "Ana", "chosen by me") == 200
    code, _, err = users("reset-password", "Ana", "--stdin", db=db, stdin="short\n")
    assert code != 0 and "8 to 200" in err
    assert try_login(client, "Ana", "chosen by me") == 200


def test_disable_refuses_logins_and_sessions_and_enable_lets_them_back(served):
    client, db = served
    session = client.cookies[SESSION_COOKIE]
    code, out, _ = users("disable", "ANA", db=db)
    assert code == 0 and "Ana: disabled" in out
    client.cookies.set(SESSION_COOKIE, session)
    assert client.get("/api/account").json()["user"] is None
    assert try_login(client, "Ana", PASSWORD) == 401
    assert "disabled" in users("list", db=db)[1]
    code, out, _ = users("enable", "Ana", db=db)
    assert code == 0 and "Ana: enabled" in out
    assert login(client, "Ana")["name"] == "Ana"


def test_an_unknown_name_is_a_clear_error_with_exit_code_1(served):
    _, db = served
    for command in ("reset-password", "disable", "enable"):
        code, out, err = users(command, "Nobody", db=db)
        assert code == 1 and "no account named 'Nobody'" in err and out == "", command


def test_the_command_reads_the_servers_database_from_the_environment(served, tmp_path):
    """As `serve` does: $TLATELOLCO_DB when --db is not given (a real process here)."""
    _, db = served
    ran = subprocess.run([sys.executable, "-c", "from tlatelolco.cli.app import main; main()",
                          "users", "list"], capture_output=True, text=True, timeout=60,
                         cwd=tmp_path, env={"TLATELOLCO_DB": db, "PATH": "/usr/bin:/bin",
                                            "COLUMNS": "120"})
    assert ran.returncode == 0, ran.stderr
    assert "Ana" in ran.stdout and "Bea" in ran.stdout
