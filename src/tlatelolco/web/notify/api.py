"""Web Push subscriptions over the JSON API: the server's key, and an account's browsers.

    GET    /api/push/key       {"public_key"}: the applicationServerKey to subscribe with
    POST   /api/account/push   {endpoint, keys: {p256dh, auth}} -> 201 (logged-in only)
    DELETE /api/account/push   {endpoint} -> 200 (logged-in only)

A subscription is stored as the browser gives it (`PushSubscription.toJSON()` without its
`expirationTime`). Endpoints are https:// URLs of public hosts (see `push.check_endpoint`);
an account keeps its newest 10.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import Field

from tlatelolco.web.accounts.api import login_needed
from tlatelolco.web.http.api import ERRORS, Strict, account, hub
from tlatelolco.web.http.errors import ApiError
from tlatelolco.web.notify.push import (
    AUTH_MAX,
    ENDPOINT_MAX,
    KEY_MAX,
    PER_ACCOUNT,
    Subscription,
    check_endpoint,
    check_keys,
    subscribe,
    unsubscribe,
)
from tlatelolco.web.notify.reminders import Reminders, reminders_of

router = APIRouter(prefix="/api")


class PushKeys(Strict):
    p256dh: str = Field(min_length=1, max_length=KEY_MAX, description="The subscription's "
                        "P-256 public key, base64url (`subscription.toJSON().keys.p256dh`).")
    auth: str = Field(min_length=1, max_length=AUTH_MAX, description="Its 16-byte auth "
                      "secret, base64url.")


class Subscribe(Strict):
    endpoint: str = Field(min_length=1, max_length=ENDPOINT_MAX, description="The push "
                          "service's https:// URL for this browser.")
    keys: PushKeys


class Unsubscribe(Strict):
    endpoint: str = Field(min_length=1, max_length=ENDPOINT_MAX)


def reminders(request: Request) -> Reminders:
    found = reminders_of(hub(request))
    if found is None:
        raise ApiError(503, "starting", "the server is starting; ask again in a moment")
    return found


async def logged_in(request: Request) -> int:
    who = await account(request)
    if who is None:
        raise login_needed()
    return who.id


@router.get("/push/key", summary="The server's Web Push key (VAPID application server key)")
async def push_key(request: Request) -> dict[str, Any]:
    """Give it to `PushManager.subscribe({userVisibleOnly: true, applicationServerKey})`."""
    return {"public_key": reminders(request).pusher.keys.public_key}


@router.post("/account/push", status_code=201, responses=ERRORS,
             summary="Send this browser your reminders by Web Push")
async def add_push(body: Subscribe, request: Request) -> dict[str, Any]:
    """The browser's subscription, as `PushManager.subscribe` made it. Pushes go when the
    account's `notify_push` setting is on. An account keeps its newest 10 subscriptions."""
    user_id = await logged_in(request)
    try:
        endpoint = check_endpoint(body.endpoint, request.app.state.settings.push_allow_http)
        check_keys(body.keys.p256dh, body.keys.auth)
    except ValueError as err:
        raise ApiError(422, "bad_subscription", str(err)) from None
    h = hub(request)
    count = await h.write(subscribe, h.service.store.engine, user_id,
                          Subscription(endpoint, body.keys.p256dh, body.keys.auth))
    return {"endpoint": endpoint, "subscriptions": count, "max_subscriptions": PER_ACCOUNT}


@router.delete("/account/push", responses=ERRORS,
               summary="Stop sending this browser your reminders")
async def remove_push(body: Unsubscribe, request: Request) -> dict[str, Any]:
    """`removed` is false when the account had no subscription at that endpoint."""
    user_id = await logged_in(request)
    h = hub(request)
    removed = await h.write(unsubscribe, h.service.store.engine, user_id, body.endpoint)
    return {"endpoint": body.endpoint, "removed": removed}
