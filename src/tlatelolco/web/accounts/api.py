"""The account API: sign up, log in and out, the account and its settings, its password,
guest seats attached to it, and its games.

Accounts are optional: every game can be played as a guest with a seat's credential. A
logged-in browser holds the session cookie `tlatelolco_session` (see `sessions`), and its
writes must come from this server's pages (`csrf`). Errors are the API's: 401 `bad_login`
("wrong name or password") for any failed login, whether the name has no account, the
password is wrong or the account is disabled, after the same work; 401 `login_needed`
for the routes of an account without one; 409 `name_taken`; 422 for what breaks the
rules of names, passwords and e-mail addresses; 429 over the rate limits (with Retry-After):
logins per address and per account name, sign-ups per address, mails verifying an address
per account and per address.

An e-mail address given (at sign-up, or a new one in the settings) is mailed a link that
verifies it (`verification`); reminders go by mail only to a verified address.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import Field

from tlatelolco.web.accounts import passwords, seats, sessions, users, verification
from tlatelolco.web.accounts.identity import SESSION_COOKIE, Account, session_account
from tlatelolco.web.accounts.users import EMAIL_MAX, PASSWORD_MAX, User
from tlatelolco.web.accounts.verification import Verifier, no_mail_server
from tlatelolco.web.http.api import ERRORS, Strict, hub, summary, utc
from tlatelolco.web.http.api import limit as rate_limit
from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.http.limits import client_address
from tlatelolco.web.social.api import limit as social_limit

router = APIRouter(prefix="/api/account", tags=["account"])
NAME_FIELD = 100  # characters a name field may have before its rules are checked

Password = Annotated[str, Field(max_length=PASSWORD_MAX)]
Email = Annotated[str | None, Field(max_length=EMAIL_MAX, description="For turn reminders; "
                                    "null for none. Never shown to anybody else.")]
Language = Annotated[Literal["en", "es"] | None, Field(
    description="The language of mails and pushes (null: the browser's).")]


class Signup(Strict):
    name: str = Field(max_length=NAME_FIELD, description="2 to 24 letters (of one script), "
                      "digits 0-9, spaces (not at either end, not two in a row) and _ - .; "
                      "unique ignoring capitals and letter widths.", examples=["Ana"])
    password: Password = Field(description="8 to 200 characters, not the name.")
    email: Email = None
    lang: Language = None


class Login(Strict):
    name: str = Field(max_length=NAME_FIELD, description="In any capitals.")
    password: Password


class PasswordChange(Strict):
    old: Password = Field(description="The password now.")
    new: Password = Field(description="8 to 200 characters, not the name.")


class AccountSettings(Strict):
    """Only the fields sent change."""

    email: Email = None
    lang: Language = None
    notify_email: bool = Field(False, description="E-mail me when it is my turn (needs an "
                               "e-mail address).")
    notify_push: bool = Field(False, description="Send a browser notification when it is my "
                              "turn (to the browsers subscribed with POST /api/account/push).")


class Attach(Strict):
    game_id: str = Field(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")
    token: str = Field(min_length=1, max_length=64, description="The seat's personal "
                       "credential this browser holds (never an invite).")


def bad_login() -> ApiError:
    return ApiError(401, "bad_login", "wrong name or password")


def login_needed() -> ApiError:
    return ApiError(401, "login_needed", "this needs a logged-in account: sign up (POST "
                    "/api/account/signup) or log in (POST /api/account/login)")


def engine(request: Request) -> Any:
    return hub(request).service.store.engine


def verifier(request: Request) -> Verifier:
    return request.app.state.verifier  # type: ignore[no-any-return]


async def logged_in(request: Request) -> tuple[Account, str] | None:
    """The account of the request's session cookie and the session's id, or None."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if not cookie:
        return None
    found = await hub(request).call(session_account, engine(request), cookie)
    return (found, cookie) if found is not None else None


async def required(request: Request) -> tuple[Account, str]:
    found = await logged_in(request)
    if found is None:
        raise login_needed()
    return found


async def start_session(request: Request, response: Response, user: User) -> None:
    """Log the browser in as `user`: a new session (never the one it had: an id another
    page planted stays useless), its cookie set; the session it had ends."""
    h = hub(request)
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        await h.write(sessions.end, engine(request), old[:100])
    session_id = await h.write(sessions.create, engine(request), user.id,
                               client_address(request))
    sessions.set_cookie(response, request, session_id)


@router.post("/signup", status_code=201, responses=ERRORS, summary="Make an account")
async def signup(body: Signup, request: Request, response: Response) -> dict[str, Any]:
    """Logs the browser in as the new account (the session cookie). With an e-mail address,
    a link verifying it is mailed: `verification` says `sent`, `no_mail_server` or
    `rate_limited` (null without an address). 409 `name_taken`; 422 `bad_name`,
    `bad_password`, `bad_email`; 429 over the sign-ups an address may make in an hour."""
    rate_limit(request, "signups")
    name = users.check_name(body.name)
    users.check_password(body.password, name)
    email = users.check_email(body.email)
    h = hub(request)
    if await h.call(users.find, engine(request), name) is not None:
        raise users.name_taken(name)
    digest = await passwords.off_loop(passwords.hash_password, body.password)
    user = await h.write(users.create, engine(request), name, digest, email, body.lang)
    await start_session(request, response, user)
    return {"user": user.public(),
            "verification": verifier(request).offer(user) if user.email else None}


@router.post("/login", responses=ERRORS, summary="Log in")
async def login(body: Login, request: Request, response: Response) -> dict[str, Any]:
    """Sets the session cookie (30 days). Any failure is 401 `bad_login`, the same answer
    after the same work whatever was wrong; 429 over the logins of an address (a minute)
    or at an account name from any address (an hour)."""
    rate_limit(request, "logins")
    key = users.name_key(body.name)
    hub(request).limits.check("name_logins", key[:users.KEY_MAX])
    h = hub(request)
    user = await h.call(users.find, engine(request), body.name)
    right = await passwords.off_loop(passwords.verify, user.password_hash if user else None,
                                     body.password)
    if user is None or not right or user.disabled:
        raise bad_login()
    if passwords.needs_rehash(user.password_hash):
        digest = await passwords.off_loop(passwords.hash_password, body.password)
        await h.write(users.set_password, engine(request), user.id, digest)
    await start_session(request, response, user)
    return {"user": user.public()}


@router.post("/logout", summary="Log out")
async def logout(request: Request, response: Response) -> dict[str, Any]:
    """Ends the session (its cookie stops working on every copy) and clears the cookie."""
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        await hub(request).write(sessions.end, engine(request), cookie[:100])
    sessions.clear_cookie(response, request)
    return {"user": None}


@router.get("", summary="The logged-in account (null for a guest)")
async def get_account(request: Request, response: Response) -> dict[str, Any]:
    """`{"user": USER, "mail_server": bool}` with USER = {id, name, email, email_verified,
    lang, notify_email, notify_push, created_at}, only ever sent to the account itself;
    `{"user": null, ...}` without a current session (a stale cookie is cleared).
    `mail_server`: whether this server sends mail (reminders, links verifying addresses)."""
    response.headers["Cache-Control"] = "no-store"  # one person's data: never in a cache
    mail = verifier(request).mailer is not None
    found = await logged_in(request)
    if found is None:
        if SESSION_COOKIE in request.cookies:
            sessions.clear_cookie(response, request)
        return {"user": None, "mail_server": mail}
    user = await hub(request).call(users.get, engine(request), found[0].id)
    return {"user": user.public() if user else None, "mail_server": mail}


@router.post("/password", responses=ERRORS, summary="Change the password")
async def change_password(body: PasswordChange, request: Request) -> dict[str, Any]:
    """Every other session of the account is logged out; this one stays. 403
    `wrong_password` when `old` is not the password; counted with the logins (429)."""
    account, session_id = await required(request)
    rate_limit(request, "logins")
    hub(request).limits.check("name_logins", users.name_key(account.name))
    h = hub(request)
    user = await h.call(users.get, engine(request), account.id)
    if user is None:
        raise login_needed()
    users.check_password(body.new, user.name)
    if not await passwords.off_loop(passwords.verify, user.password_hash, body.old):
        raise ApiError(403, "wrong_password", "the old password is wrong; nothing changed")
    digest = await passwords.off_loop(passwords.hash_password, body.new)
    await h.write(users.set_password, engine(request), user.id, digest)
    ended = await h.write(sessions.end_all, engine(request), user.id, session_id)
    return {"user": user.public(), "sessions_ended": ended}


@router.post("/settings", responses=ERRORS, summary="Change the account's settings")
async def settings(body: AccountSettings, request: Request) -> dict[str, Any]:
    """Only the fields sent change (`email` null removes the address). A new address is
    unverified, and mailed a link verifying it (`verification`, as at sign-up; null when no
    new address was given); reminders by mail wait until it is verified. 422 `no_email` for
    mail reminders without an address."""
    account, _ = await required(request)
    changes = {name: getattr(body, name) for name in body.model_fields_set}
    if "email" in changes:
        changes["email"] = users.check_email(changes["email"])
    h = hub(request)
    user = await h.call(users.get, engine(request), account.id)
    if user is None:
        raise login_needed()
    email = changes.get("email", user.email)
    if changes.get("notify_email", user.notify_email) and not email:
        if "email" in changes and "notify_email" not in changes:
            changes["notify_email"] = False  # removing the address stops its mails
        else:
            raise ApiError(422, "no_email", "reminders by e-mail need an e-mail address: "
                           "send 'email' too")
    new_address = "email" in changes and changes["email"] not in (None, user.email)
    user = await h.write(users.update_settings, engine(request), account.id, changes)
    return {"user": user.public(),
            "verification": verifier(request).offer(user) if new_address else None}


@router.post("/verify", responses=ERRORS, summary="Mail the link verifying the address again")
async def send_verification(request: Request) -> dict[str, Any]:
    """`{"user": USER, "verification": "sent"}` once the mail server took the mail. 409
    `no_mail_server` (a server without --smtp), `no_email`, `verified` (nothing to do); 429
    over the mails an account or an address may be sent an hour; 502 `mail_failed`."""
    account, _ = await required(request)
    sender = verifier(request)
    if sender.mailer is None:
        raise no_mail_server()
    user = await hub(request).call(users.get, engine(request), account.id)
    if user is None:
        raise login_needed()
    if not user.email:
        raise ApiError(409, "no_email", "the account has no e-mail address to verify: give "
                       "one in the settings (POST /api/account/settings)")
    if user.email_verified:
        raise ApiError(409, "verified", "the account's e-mail address is verified already")
    await sender.send(user)
    return {"user": user.public(), "verification": "sent"}


@router.get("/verify", include_in_schema=False)
async def follow_verification(request: Request, token: str = "") -> RedirectResponse:
    """The link mailed to an address: verifies it if the token is good (made for the
    account's address now, unexpired, untouched), then sends the browser to the lobby,
    `/?verified=1` (or `/?verified=0`, nothing changed). Not logged in: the link may be
    opened anywhere. The access log masks the token (`limits.RedactSecrets`)."""
    h = hub(request)
    found = await h.call(verification.check, engine(request), verifier(request).secret,
                         token[:100])
    done = found is not None and await h.write(users.mark_verified, engine(request), *found)
    # relative, so that it lands on the lobby behind a proxy serving the site under a path
    return RedirectResponse(f"../../?verified={int(done)}", status_code=303,
                            headers={"Cache-Control": "no-store"})


@router.post("/attach", responses=ERRORS, summary="Make a guest seat the account's")
async def attach(body: Attach, request: Request) -> dict[str, Any]:
    """The seat held by a guest credential this browser keeps becomes the account's, under
    its name, on every device it logs in from (the credential keeps working). 403 for an
    invite, another game's credential or another account's seat; 409 for a finished game
    or a second seat where seats hide things from each other. Nothing changes when refused."""
    account, _ = await required(request)
    rate_limit(request, "joins")
    h = hub(request)
    seat, change = await h.write(seats.attach, h.service, body.game_id, body.token, account)
    await h.announce(change)
    return {"game_id": body.game_id, "seat": seat}


@router.get("/games", responses=ERRORS, summary="The account's unfinished games")
async def account_games(request: Request, response: Response) -> dict[str, Any]:
    """`{"games": [...], "your_turn": N}`: each game's summary (as GET /api/games/{id})
    with `my_seat`, `your_turn` (the account's seat is to move) and `deadline` (a
    turn-based game's end of your turn, ISO 8601 with its offset, else null); the games
    where it is your turn first, the nearest deadline first; at most 100. 401 without an
    account; 429 beyond the look-ups an address may make in a minute (as profiles)."""
    account, _ = await required(request)
    # up to 100 games looked at: counted as a look-up, like a profile (pages ask twice a minute)
    social_limit(request, "lookups")
    response.headers["Cache-Control"] = "no-store"
    h = hub(request)
    found = await h.call(seats.account_games, h.service, account)
    listed = [{**summary(live.row, request, h.views_connected(live.row.id)),
               "created_at": utc(live.row.created_at), "updated_at": utc(live.row.updated_at),
               "version": live.version, "my_seat": seat, "your_turn": your_turn,
               "deadline": utc(deadline)}
              for live, seat, your_turn, deadline in found]
    return {"games": listed, "your_turn": sum(1 for g in listed if g["your_turn"])}
