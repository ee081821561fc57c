"""Skipping a test for a developer who lacks something, never under CI, where it must run."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

SERVICES = ".ci/run starts the services and sets the variables"


def under_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def unavailable(message: str, remedy: str = SERVICES) -> NoReturn:
    """Skip for a developer without what `message` names; fail under CI, saying `remedy`."""
    if under_ci():
        pytest.fail(f"{message} (CI=true: this test must run, not skip; {remedy})",
                    pytrace=False)
    pytest.skip(message)
