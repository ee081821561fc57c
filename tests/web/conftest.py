"""Fixtures of the web tests: the services of `tests/web/services.py`."""

from tests.web.services import postgres_url, redis_url, servers

__all__ = ["postgres_url", "redis_url", "servers"]
