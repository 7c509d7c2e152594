"""Paid tools over MCP, paid the x402 way for MCP, with the x402 SDK's own MCP client
(`x402.mcp.x402MCPSession`) over the official MCP SDK's Streamable HTTP client, against a real
`twlookup serve --port N` on the local ledger: tools/list shows the price, a call without
payment gets the PaymentRequired result, the SDK pays, the payment is settled once (receipt in
`_meta["x402/payment-response"]`), a replay is refused, and a tool that fails charges nothing.
Food's free quota over MCP counts tool calls only and answers a readable tool result."""

from __future__ import annotations

import json
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import copy_store, fund
from eth_account import Account
from mcp import Client
from served import serve
from x402 import x402Client
from x402.mcp.client import x402MCPSession
from x402.mechanisms.evm.exact import ExactEvmClientScheme
from x402.mechanisms.evm.signers import EthAccountSigner

from twlookup.platform.errors import Problem
from twlookup.platform.payments.ledger import Ledger
from twlookup.platform.store.engine import make_engine
from twlookup.services import load_services

pytestmark = [pytest.mark.asyncio, pytest.mark.slow]
AUDIT = {"ids": ["gpt-4-0613", "no-such-model"]}
MAINNET = "eip155:8453"  # the models service's network (and food's)


class McpSession:
    """The official MCP SDK's client as the x402 SDK's MCP session expects a session: x402 2.25
    reads mcp 1.x attribute names (`isError`, `structuredContent`) and passes timedeltas; mcp 2.x
    has `is_error`, `structured_content` and seconds. Records the `_meta` of each call."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.sent_meta: list[dict[str, Any] | None] = []

    async def initialize(self) -> None:  # the Client has done the handshake
        return None

    async def list_tools(self) -> Any:
        return await self.client.list_tools()

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        read_timeout_seconds: timedelta | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Any:
        self.sent_meta.append(meta)
        seconds = read_timeout_seconds.total_seconds() if read_timeout_seconds else None
        r = await self.client.call_tool(name, arguments, read_timeout_seconds=seconds, meta=meta)
        return SimpleNamespace(
            isError=r.is_error, structuredContent=r.structured_content, content=r.content, meta=r.meta
        )


def _payer(db_url: str) -> tuple[Any, x402Client]:
    payer = Account.create()
    fund(payer.address, db_url, "1", MAINNET)
    client = x402Client()
    client.register("eip155:*", ExactEvmClientScheme(EthAccountSigner(payer)))
    return payer, client


@pytest.fixture(scope="module")
def server(template_store, tmp_path_factory):
    folder = tmp_path_factory.mktemp("paid-mcp")
    db_url = copy_store(template_store, folder)
    with serve(db_url, folder / "serve.log") as base:
        yield base, db_url


async def test_pay_for_a_tool_with_the_sdk_settle_once_and_refuse_the_replay(server):
    base, db_url = server
    ledger = Ledger(MAINNET, engine=make_engine(db_url))
    payer, x402 = _payer(db_url)
    treasury = ledger.balance("0xC24cD25fdb9bBc24524B456AdF1b302e8519979c")
    async with Client(f"{base}/models/mcp") as mcp:
        tools = {t.name: t for t in (await mcp.list_tools()).tools}
        # every paid route of the service is a tool, with its price and network
        assert {"pro_audit", "pro_export"} <= set(tools)
        audit = tools["pro_audit"]
        assert audit.meta == {"x402/price": "$0.02", "x402/networks": [MAINNET], "x402/open": True}
        assert "$0.02" in audit.description and audit.annotations.read_only_hint

        probe = await mcp.call_tool("pro_audit", AUDIT)
        assert probe.is_error
        required = probe.structured_content
        assert json.loads(probe.content[0].text) == required  # both forms, as the transport spec says
        assert required["x402Version"] == 2 and required["accepts"][0]["amount"] == "20000"
        assert required["accepts"][0]["network"] == MAINNET
        assert required["resource"]["url"] == f"{base}/models/mcp#pro_audit"  # this server's own port
        assert required["extensions"]["bazaar"]["info"]["input"]["toolName"] == "pro_audit"

        session = McpSession(mcp)
        paid = await x402MCPSession(session, x402).call_tool("pro_audit", AUDIT)
        assert paid.payment_made and not paid.is_error
        receipt = paid.payment_response
        assert receipt.success and receipt.transaction.startswith("0x") and receipt.network == MAINNET
        assert receipt.payer.lower() == payer.address.lower()
        answer = paid.raw_result.structuredContent
        assert answer["unknown"] == ["no-such-model"]
        assert ledger.balance(payer.address) == 1_000_000 - 20_000
        assert ledger.balance("0xC24cD25fdb9bBc24524B456AdF1b302e8519979c") == treasury + 20_000

        # the same signed payment again: refused, nothing charged twice
        replay = await mcp.call_tool("pro_audit", AUDIT, meta=session.sent_meta[-1])
        assert replay.is_error and "x402Version" in replay.structured_content
        assert "already used" in replay.structured_content["error"] or "nonce" in replay.structured_content["error"]
        assert "x402/payment-response" not in (replay.meta or {})
        assert ledger.balance(payer.address) == 1_000_000 - 20_000

        # a payment that is not a payload, and bad arguments: refused before anything is asked
        bad = await mcp.call_tool("pro_audit", AUDIT, meta={"x402/payment": {"x402Version": 2, "payload": 5}})
        assert bad.is_error and bad.structured_content["error"].startswith("invalid_payload")
        wrong = await mcp.call_tool("pro_audit", {"ids": "gpt-4"})
        assert wrong.is_error and wrong.structured_content["status"] == 422
        assert wrong.structured_content["errors"][0]["parameter"] == "ids"


async def test_a_tool_that_fails_charges_nothing(live_url, settings, monkeypatch):
    payer, x402 = _payer(settings.database_url)
    ledger = Ledger(MAINNET)
    export = next(
        op for s in load_services() if s.name == "models" for op in s.operations if op.path == "/api/pro/export"
    )

    def away(_params: Any) -> Any:
        raise Problem(503, "The store is not answering; nothing was charged.", headers={"Retry-After": "5"})

    async with Client(f"{live_url}/models/mcp") as mcp:
        monkeypatch.setattr(export, "fn", away)
        paid = await x402MCPSession(McpSession(mcp), x402).call_tool("pro_export", {})
    assert paid.payment_made and paid.is_error and paid.payment_response is None
    problem = paid.raw_result.structuredContent
    assert problem["status"] == 503 and problem["retry_after"] == 5
    assert ledger.balance(payer.address) == 1_000_000  # verified, never settled


async def test_food_quota_counts_tool_calls_only_and_answers_a_readable_tool_result(template_store, tmp_path):
    db_url = copy_store(template_store, tmp_path)
    with serve(db_url, tmp_path / "serve.log", TWLOOKUP_FREE_QUOTA_PER_MINUTE="3") as base:
        args = {"meal": "dinner"}
        async with Client(f"{base}/food/mcp") as mcp:  # initialize, initialized, tools/list: not counted
            assert (await mcp.list_tools()).tools
            for _ in range(3):
                assert not (await mcp.call_tool("list_food_categories", args)).is_error
            spent = await mcp.call_tool("list_food_categories", args)
        assert spent.is_error
        problem = spent.structured_content
        assert problem["status"] == 402 and problem["type"].endswith("/quota-exceeded")
        assert "3 calls per minute" in problem["detail"] and f"{base}/pay/pass" in problem["detail"]
        assert spent.content[-1].text == problem["detail"]  # in words, for a client without x402
        # and an x402 client can pay this one call instead (the quota price)
        assert problem["x402Version"] == 2 and problem["accepts"][0]["amount"] == "1000"
        _payer_account, x402 = _payer(db_url)
        async with Client(f"{base}/food/mcp") as mcp:
            paid = await x402MCPSession(McpSession(mcp), x402).call_tool("list_food_categories", args)
        assert paid.payment_made and not paid.is_error and paid.payment_response.success
