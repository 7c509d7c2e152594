"""Schemathesis against each implemented service's own OpenAPI document: no 500s, and every
response matches the status codes, content types and schemas the document declares."""

import tempfile
from pathlib import Path

import pytest
import schemathesis
import service_examples
from hypothesis import HealthCheck, settings
from schemathesis.checks import load_all_checks, negative_data_rejection, not_a_server_error, positive_data_acceptance
from schemathesis.core.failures import FailureGroup, as_reported_failure
from schemathesis.core.result import Err
from schemathesis.pytest.lazy import get_all_tests
from stores import copy_store, seeded_template

from twlookup.app import create_app
from twlookup.services import IMPLEMENTED
from twlookup.settings import Settings

# Rules a JSON schema cannot state (one parameter against another, or against today's date):
# schema-valid input may still get its 422 there, with the rule named in the problem body. Each
# service lists its own in tests/services/<name>/examples.py.
CROSS_PARAMETER_RULES = {(n, path) for n in IMPLEMENTED for path in service_examples.cross_parameter_rules(n)}
# Paths that call an upstream: with no network here, their documented 503 (upstream unreachable,
# Retry-After) is the right answer for what nothing has cached.
UPSTREAM_PATHS = {(n, path) for n in IMPLEMENTED for path in service_examples.upstream_paths(n)}


def _service(request) -> str:
    return request.node.name.split("[")[0].removeprefix("test_").removesuffix("_conforms_to_its_openapi")


@pytest.fixture(scope="module")
def app():
    """The app on a copy of the seeded template, built when the first of these tests runs (not
    when the module is collected: every pytest-xdist worker collects every module, and this one's
    operations and their coverage cases are now found at run time, in the worker that runs them)."""
    url = copy_store(seeded_template(), Path(tempfile.mkdtemp()))
    # The free quota (food) is lifted here: this test is about the documents, not the quota (tested
    # in tests/platform/test_free_quota_pass.py and each quota service's own tests).
    # So are share's spec limit of 60 calls a minute and the hourly limit on public submissions
    # (both tested in tests/services/share and tests/platform/test_review.py); the per-service limit
    # is read when share loads, on its first request, so the variable stays set for the module.
    with pytest.MonkeyPatch.context() as env:
        env.setenv("TWLOOKUP_RATE_LIMIT_SHARE", "1000000/minute")
        yield create_app(
            Settings(
                database_url=url,
                rate_limit_default="1000000/minute",
                free_quota_per_minute=100_000,
                review_submissions_per_hour=10_000,
                _env_file=None,
            )
        )


@pytest.fixture
def service_schema(request, app):
    """The OpenAPI document of the service this test is named for, served by the app."""
    return schemathesis.openapi.from_asgi(f"/{_service(request)}/openapi.json", app)


@pytest.fixture(autouse=True)
def upstreams(request):
    """The upstreams a service reaches, mocked (no outside traffic) once for all its cases:
    building the mocks for each case cost seo's test about a tenth of its time."""
    with service_examples.mocks(_service(request)):
        yield


SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))


def _make(name: str):
    def check(case):
        """One generated case: called, and its response checked against the document."""
        path = case.operation.path
        # conformance, not speed: a route's first call on a busy machine (the motion curves are
        # computed once, then kept) may take longer than schemathesis's default 10 s
        response = case.call(timeout=60)
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

    def test(service_schema, subtests):
        # One test per service, each of its operations a subtest: the operations' Hypothesis tests
        # (with schemathesis's coverage cases) are built here, when the test runs, rather than when
        # the module is collected, which every pytest-xdist worker does for every module. This is
        # what schemathesis's lazy schema (`from_fixture`) does, which pytest 9.2 no longer runs.
        load_all_checks()
        schema = service_schema.clone(test_function=check)
        built = list(get_all_tests(schema=schema, test_func=check, settings=SETTINGS, given_kwargs={}))
        assert built, f"no operation found in /{name}/openapi.json"
        for result in built:
            if isinstance(result, Err):
                with subtests.test(msg=result.err().label):
                    raise result.err()
                continue
            operation, run = result.ok()
            with subtests.test(msg=operation.label):
                try:
                    run()
                except FailureGroup as exc:  # the checks that failed, as schemathesis reports them
                    raise as_reported_failure(exc) from None

    test.__name__ = f"test_{name}_conforms_to_its_openapi"
    return test


for _name in IMPLEMENTED:
    globals()[f"test_{_name}_conforms_to_its_openapi"] = _make(_name)
