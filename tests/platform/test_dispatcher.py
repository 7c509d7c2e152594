"""The dispatcher: templates found by their literal prefix, and bugs answered and logged once,
whether the operation or the service's FastAPI app has them."""

from __future__ import annotations

import logging

import httpx
import pytest
from pydantic import BaseModel, Field

from twlookup.app import create_app
from twlookup.platform.operations import Params
from twlookup.platform.router import literal_prefix
from twlookup.platform.service import Service


class Slug(Params):
    slug: str = Field(description="a slug")


class Kind(Params):
    kind: str = Field(description="a kind")


class Where(BaseModel):
    route: str
    value: str


def make_service() -> Service:
    service = Service("gamma", "gamma test", "a test service")

    @service.operation("GET", "/api/model/{slug}")
    def model(p: Slug) -> Where:
        """One model."""
        return Where(route="model", value=p.slug)

    @service.operation("GET", "/api/{kind}/latest")
    def latest(p: Kind) -> Where:
        """The latest of a kind."""
        return Where(route="latest", value=p.kind)

    @service.operation("GET", "/api/broken")
    def broken() -> Where:
        """Has a bug."""
        raise RuntimeError("a bug in an operation")

    @service.api.get("/api/ordinary-bug")
    def ordinary_bug() -> dict:
        raise RuntimeError("a bug in an ordinary route")

    return service


def test_literal_prefix_is_the_segments_before_the_first_parameter():
    assert literal_prefix("/api/model/{slug}") == "/api/model"
    assert literal_prefix("/api/{kind}/latest") == "/api"
    assert literal_prefix("/{x}") == ""


async def test_templates_under_different_prefixes_each_answer(settings):
    app = create_app(settings, [make_service()])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        assert (await c.get("/gamma/api/model/gpt-4")).json() == {"route": "model", "value": "gpt-4"}
        assert (await c.get("/gamma/api/film/latest")).json() == {"route": "latest", "value": "film"}
        # both templates could take it: the longer literal prefix is tried first
        assert (await c.get("/gamma/api/model/latest")).json() == {"route": "model", "value": "latest"}
        missing = await c.get("/gamma/api/model/a/b")
        assert missing.status_code == 404 and missing.headers["content-type"] == "application/problem+json"
        wrong = await c.post("/gamma/api/film/latest")
        assert wrong.status_code == 405 and wrong.headers["allow"] == "GET, HEAD"


@pytest.mark.parametrize("path", ["/gamma/api/broken", "/gamma/api/ordinary-bug"])
async def test_a_bug_is_a_500_problem_logged_once(settings, caplog, path):
    app = create_app(settings, [make_service()])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        with caplog.at_level(logging.ERROR, logger="twlookup"):
            r = await c.get(path)
    assert r.status_code == 500 and r.headers["content-type"] == "application/problem+json"
    assert r.json()["detail"] == "An internal error occurred; it has been logged."
    logged = [rec for rec in caplog.records if rec.name == "twlookup" and "unhandled" in rec.getMessage()]
    assert len(logged) == 1 and isinstance(logged[0].exc_info[1], RuntimeError)
