"""The errors the server answers with: an HTTP status, a short code and a sentence for people."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """Raised anywhere below the routes; answered as {"error": code, "message": message}."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, "status": self.status,
                **self.extra}


def not_found(game_id: str) -> ApiError:
    return ApiError(404, "not_found", f"there is no game {game_id!r}")


def unauthorized() -> ApiError:
    return ApiError(401, "no_credential", "this needs a seat credential: send the token from "
                    "your invite link as 'Authorization: Bearer TOKEN'")


def forbidden(game_id: str) -> ApiError:
    return ApiError(403, "bad_credential", f"that credential holds no seat in game {game_id!r}; "
                    "use the invite link of your seat, or join an open seat")
