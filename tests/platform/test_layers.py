"""Platform layers on a small test service: CORS, rate limit, host routing, x402 challenge, errors."""

import base64

import httpx
import pytest
from pydantic import BaseModel, Field
from x402 import PaymentRequired
from x402.http.utils import decode_payment_required_header

from twlookup.app import create_app
from twlookup.platform.operations import Params
from twlookup.platform.schemas import Source
from twlookup.platform.service import Service

pytestmark = pytest.mark.asyncio


class EchoParams(Params):
    n: int = Field(ge=1, le=5, description="a number from 1 to 5")


class Echo(BaseModel):
    n: int
    source: Source


def make_service(name: str, cors: bool, network: str = "mainnet") -> Service:
    service = Service(name=name, title=name, description="test service", cors=cors, network=network)  # type: ignore[arg-type]

    @service.operation("GET", "/api/echo", tool="echo")
    def echo(p: EchoParams) -> Echo:
        """Echo n."""
        return Echo(n=p.n, source=Source(url="https://example.org", checked="2026-11-22"))

    @service.operation("GET", "/api/pro/echo", price="$0.02")
    def pro_echo(p: EchoParams) -> Echo:
        """Echo n, paid."""
        return Echo(n=p.n, source=Source(url="https://example.org", checked="2026-11-22"))

    return service


def client_for(settings, services, **overrides):
    app = create_app(settings.model_copy(update=overrides), services=services)
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app, client=("203.0.113.7", 1234)), base_url="http://testserver"
    )


@pytest.fixture
def services():
    return [make_service("sports", cors=True), make_service("bikes", cors=False, network="testnet")]


async def test_cors_only_where_the_spec_says(settings, services):
    async with client_for(settings, services) as c:
        r = await c.get("/sports/api/echo?n=1", headers={"Origin": "https://a.example"})
        assert r.headers["access-control-allow-origin"] == "*"
        pre = await c.options(
            "/sports/api/echo", headers={"Origin": "https://a.example", "Access-Control-Request-Method": "GET"}
        )
        assert pre.status_code == 200 and "GET" in pre.headers["access-control-allow-methods"]
        r = await c.get("/bikes/api/echo?n=1", headers={"Origin": "https://a.example"})
        assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
        pre = await c.options(
            "/bikes/api/echo", headers={"Origin": "https://a.example", "Access-Control-Request-Method": "GET"}
        )
        assert "access-control-allow-origin" not in pre.headers


async def test_rate_limit_429_with_headers(settings, services):
    async with client_for(settings, services, rate_limit_default="3/minute") as c:
        codes = [(await c.get("/bikes/api/echo?n=1")).status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        r = await c.get("/bikes/api/echo?n=1")
        assert r.headers["content-type"] == "application/problem+json"
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert r.headers["ratelimit-limit"] == "3" and r.headers["ratelimit-remaining"] == "0"
        assert (await c.get("/sports/api/echo?n=1")).status_code == 200  # per service


async def test_share_gets_the_spec_limit_of_60(settings):
    assert settings.rate_limit_for("share") == "60/minute"
    assert settings.rate_limit_for("models") == settings.rate_limit_default


async def test_forwarded_for_only_from_trusted_proxies(settings, services):
    async with client_for(settings, services, rate_limit_default="1/minute", trusted_proxies=["203.0.113.0/24"]) as c:
        assert (await c.get("/bikes/api/echo?n=1", headers={"X-Forwarded-For": "198.51.100.1"})).status_code == 200
        assert (await c.get("/bikes/api/echo?n=1", headers={"X-Forwarded-For": "198.51.100.2"})).status_code == 200
        assert (await c.get("/bikes/api/echo?n=1", headers={"X-Forwarded-For": "198.51.100.1"})).status_code == 429
    async with client_for(settings, services, rate_limit_default="1/minute") as c:
        assert (await c.get("/bikes/api/echo?n=1", headers={"X-Forwarded-For": "198.51.100.1"})).status_code == 200
        # untrusted peer: the header is ignored, so a new value does not buy a new budget
        assert (await c.get("/bikes/api/echo?n=1", headers={"X-Forwarded-For": "198.51.100.9"})).status_code == 429


async def test_host_routing_reaches_the_same_sub_app(settings, services, monkeypatch):
    monkeypatch.setenv("TWLOOKUP_HOST_BIKES", "bikes.example.com")
    async with client_for(settings, services) as c:
        r = await c.get("/api/echo?n=2", headers={"Host": "bikes.example.com"})
        assert r.status_code == 200 and r.json()["n"] == 2
        assert (await c.get("/bikes/api/echo?n=2")).json()["n"] == 2
        assert (await c.get("/api/echo?n=2")).status_code == 404


async def test_x402_challenge_parsed_by_the_sdk(settings, services):
    async with client_for(settings, services) as c:
        r = await c.get("/bikes/api/pro/echo?n=1")
        assert r.status_code == 402
        body = PaymentRequired.model_validate_json(r.content)
        header = decode_payment_required_header(r.headers["payment-required"])
        assert header == body
        assert body.x402_version == 2
        accept = body.accepts[0]
        assert accept.scheme == "exact" and accept.network == settings.evm_testnet  # bikes: testnet in this test
        assert accept.amount == "20000"  # $0.02 in USDC's 6 decimals
        assert accept.pay_to == settings.pay_to_evm
        assert body.resource.url == "http://testserver/bikes/api/pro/echo?n=1"  # the URL the client used
        r = await c.get("/sports/api/pro/echo?n=1")
        assert PaymentRequired.model_validate_json(r.content).accepts[0].network == settings.evm_mainnet
        r = await c.get("/sports/api/pro/echo?n=9")
        assert r.status_code == 422
        r = await c.get("/sports/api/pro/echo?n=1", headers={"PAYMENT-SIGNATURE": base64.b64encode(b"{}").decode()})
        assert r.status_code == 402 and r.json()["error"].startswith("invalid_payload")
        r = await c.get("/sports/api/pro/echo?n=1", headers={"PAYMENT-SIGNATURE": "%%% not base64"})
        assert r.status_code == 402 and r.json()["error"].startswith("invalid_payload")


async def test_problem_shapes(settings, services):
    async with client_for(settings, services) as c:
        r = await c.get("/bikes/api/echo?n=1&n=2")
        assert r.status_code == 422 and "more than once" in r.json()["detail"]
        r = await c.get("/bikes/api/echo?n=x")
        problem = r.json()
        assert problem["status"] == 422 and problem["errors"][0] == {
            "parameter": "n",
            "message": "Input should be a valid integer, unable to parse string as an integer",
            "allowed": {"minimum": 1, "maximum": 5},
        }
        r = await c.get("/nowhere")
        assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
        r = await c.delete("/healthz")
        assert r.status_code == 405
        r = await c.head("/bikes/api/echo?n=1")
        assert r.status_code == 200 and r.content == b""


async def test_index_health_and_openapi(client):
    index = (await client.get("/")).json()
    names = [s["name"] for s in index["services"]]
    assert len(names) == 20
    models = next(s for s in index["services"] if s["name"] == "models")
    assert models["state"] == "available" and models["tools"] == 6
    assert {p["path"] for p in models["paid_routes"]} == {"/models/api/pro/audit", "/models/api/pro/export"}
    health = (await client.get("/healthz")).json()
    assert health["status"] == "ok" and health["data_version"] >= 1
    spec = (await client.get("/models/openapi.json")).json()
    assert spec["openapi"].startswith("3.1")
    assert spec["paths"]["/api/model"]["get"]["x-mcp-tool"] == "get_model"
    assert spec["paths"]["/api/pro/export"]["get"]["x-price-usd"] == "$0.05"
    assert (await client.get("/models/docs")).headers["content-type"].startswith("text/html")
    pro = (await client.get("/models/api/pro")).json()
    assert len(pro["paid_routes"]) == 2


class ItemParams(Params):
    game: str = Field(pattern="^(lotto649|daily539)$", description="game")
    limit: int = Field(3, ge=1, le=20)


def path_service() -> Service:
    service = Service(name="life", title="life", description="test service")

    @service.operation("GET", "/api/lottery/latest", tool="latest")
    def latest() -> Echo:
        """Latest."""
        return Echo(n=0, source=Source(url="https://example.org", checked="2026-11-22"))

    @service.operation("GET", "/api/lottery/{game}", tool="draws")
    def draws(p: ItemParams) -> Echo:
        """Draws of one game."""
        return Echo(n=len(p.game) * 100 + p.limit, source=Source(url="https://example.org", checked="2026-11-22"))

    return service


async def test_path_parameters(settings):
    async with client_for(settings, [path_service()]) as c:
        assert (await c.get("/life/api/lottery/latest")).json()["n"] == 0  # exact path wins
        assert (await c.get("/life/api/lottery/daily539?limit=5")).json()["n"] == 805
        r = await c.get("/life/api/lottery/bingo")
        assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "game"
        r = await c.get("/life/api/lottery/daily539?game=lotto649")
        assert r.status_code == 422 and "part of the path" in r.json()["detail"]
        assert (await c.get("/life/api/lottery/daily539/extra")).status_code == 404
        assert (await c.post("/life/api/lottery/daily539")).status_code == 405
        spec = (await c.get("/life/openapi.json")).json()
        params = spec["paths"]["/api/lottery/{game}"]["get"]["parameters"]
        assert {p["name"]: (p["in"], p["required"]) for p in params} == {
            "game": ("path", True),
            "limit": ("query", False),
        }
