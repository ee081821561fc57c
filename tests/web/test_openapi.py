"""Schemathesis: requests generated from the OpenAPI spec never cause a server error.

Driven through Hypothesis directly (one test per operation) rather than schemathesis's pytest
plugin, against a real HTTP server.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import content_type_conformance, not_a_server_error
from tests.web.apps import live_server

from tlatelolco.web import Settings, create_app

SCHEMA = schemathesis.openapi.from_dict(create_app(Settings(db="sqlite://")).openapi())
OPERATIONS = {op.label: op for op in (r.ok() for r in SCHEMA.get_all_operations())}


@pytest.fixture(scope="module")
def base_url(tmp_path_factory):
    with live_server(tmp_path_factory.mktemp("openapi")) as url:
        yield url


@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_no_request_makes_the_server_fail(base_url, label):
    operation = OPERATIONS[label]

    @given(case=operation.as_strategy())
    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck),
              derandomize=True, database=None)
    def run(case):
        case.call_and_validate(base_url=base_url,
                               checks=[not_a_server_error, content_type_conformance])

    run()
