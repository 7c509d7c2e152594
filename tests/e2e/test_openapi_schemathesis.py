"""Schemathesis against each implemented service's own OpenAPI document: no 500s, and every
response matches the status codes, content types and schemas the document declares."""

import os
import tempfile
from pathlib import Path

import schemathesis
import service_examples
from hypothesis import HealthCheck, settings
from schemathesis.checks import negative_data_rejection, not_a_server_error, positive_data_acceptance
from stores import copy_store, seeded_template

from twlookup.app import create_app
from twlookup.services import IMPLEMENTED
from twlookup.settings import Settings

_url = copy_store(seeded_template(), Path(tempfile.mkdtemp()))  # the session's seeded template, copied
# The free quota (food) is lifted here: this test is about the documents, not the quota (tested in
# tests/platform/test_free_quota_pass.py and each quota service's own tests).
# So are share's spec limit of 60 calls a minute and the hourly limit on public submissions
# (both tested in tests/services/share and tests/platform/test_review.py).
os.environ["TWLOOKUP_RATE_LIMIT_SHARE"] = "1000000/minute"
try:
    APP = create_app(
        Settings(
            database_url=_url,
            rate_limit_default="1000000/minute",
            free_quota_per_minute=100_000,
            review_submissions_per_hour=10_000,
            _env_file=None,
        )
    )
finally:
    del os.environ["TWLOOKUP_RATE_LIMIT_SHARE"]

# Rules a JSON schema cannot state (one parameter against another, or against today's date):
# schema-valid input may still get its 422 there, with the rule named in the problem body. Each
# service lists its own in tests/services/<name>/examples.py.
CROSS_PARAMETER_RULES = {(n, path) for n in IMPLEMENTED for path in service_examples.cross_parameter_rules(n)}
# Paths that call an upstream: with no network here, their documented 503 (upstream unreachable,
# Retry-After) is the right answer for what nothing has cached.
UPSTREAM_PATHS = {(n, path) for n in IMPLEMENTED for path in service_examples.upstream_paths(n)}


def _make(name: str):
    schema = schemathesis.openapi.from_asgi(f"/{name}/openapi.json", APP)

    @schema.parametrize()
    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
    def test(case):
        path = case.operation.path
        with service_examples.mocks(name):  # upstreams a service reaches, mocked (no outside traffic)
            response = case.call()
        excluded = []
        # A paid route answers a valid request with 402 until paid: not a rejection of the data.
        if path.startswith("/api/pro/") or (name, path) in CROSS_PARAMETER_RULES:
            excluded.append(positive_data_acceptance)
        # 413 (body over the size limit) is a rejection schemathesis does not list; it is documented.
        if response.status_code == 413:
            excluded.append(negative_data_rejection)
        if response.status_code == 503 and (name, path) in UPSTREAM_PATHS:
            assert response.headers.get("retry-after") and response.json()["upstream"]
            excluded.append(not_a_server_error)
        # A paid route whose data is sample, empty or stale is not for sale on the seeded store: its
        # documented 503 (platform/payments/sale.py), before any payment is asked for.
        if response.status_code == 503 and path.startswith("/api/pro/"):
            problem = response.json()
            assert problem["type"].endswith("/not-for-sale") and problem["not_for_sale"], problem
            assert response.headers.get("retry-after")
            excluded.append(not_a_server_error)
        case.validate_response(response, excluded_checks=excluded)

    return test


for _name in IMPLEMENTED:
    globals()[f"test_{_name}_conforms_to_its_openapi"] = _make(_name)
