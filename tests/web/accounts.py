"""Accounts in tests: sign up or log in a client, which then writes as this server's pages do.

A cookie-carrying write must name this server in its Origin (`accounts.csrf`), as browsers'
fetch does by itself; a TestClient or an httpx client sends no Origin unless told, so these
helpers set it on the client (TestClient's base URL by default).
"""

from __future__ import annotations

from typing import Any

PASSWORD = "a long passphrase"
ORIGIN = "http://testserver"  # a TestClient's own origin


def same_origin(client: Any, origin: str | None = None) -> Any:
    """`client`, its requests from now on carrying the Origin of this server's pages."""
    client.headers["origin"] = origin or str(client.base_url).rstrip("/")
    return client


def signup(client: Any, name: str, password: str = PASSWORD, **fields: Any) -> dict[str, Any]:
    """Make an account and log `client` in as it (the session cookie in its jar); its USER."""
    same_origin(client)
    response = client.post("/api/account/signup",
                           json={"name": name, "password": password, **fields})
    assert response.status_code == 201, response.text
    return dict(response.json()["user"])


def login(client: Any, name: str, password: str = PASSWORD) -> dict[str, Any]:
    """Log `client` in (the session cookie in its jar); the account's USER."""
    same_origin(client)
    response = client.post("/api/account/login", json={"name": name, "password": password})
    assert response.status_code == 200, response.text
    return dict(response.json()["user"])
