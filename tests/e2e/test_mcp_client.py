"""MCP through the official SDK's Streamable HTTP client, against a real server."""

import pytest
import service_examples
from mcp import Client

from twlookup.platform.tools import paid_tool_name
from twlookup.services import load_services

pytestmark = pytest.mark.asyncio


async def test_models_tools_list_and_call(live_url):
    async with Client(f"{live_url}/models/mcp") as client:
        tools = (await client.list_tools()).tools
        assert {t.name for t in tools if not t.name.startswith("pro_")} == {
            "list_models",
            "get_model",
            "upcoming_retirements",
            "find_replacement",
            "retirement_calendar",
            "check_code",
        }
        assert all(t.annotations and t.annotations.read_only_hint for t in tools)
        result = await client.call_tool("get_model", {"id": "gpt-4-0613"})
        assert not result.is_error
        assert result.structured_content["model"]["id"] == "gpt-4-0613"
        found = await client.call_tool("check_code", {"text": 'model="claude-2.1"'})
        assert found.structured_content["findings"][0]["model"]["id"] == "claude-2.1"


async def test_tool_errors_carry_the_same_text_as_rest(live_url):
    import httpx

    async with Client(f"{live_url}/models/mcp") as client:
        result = await client.call_tool("upcoming_retirements", {"days": 0})
        assert result.is_error
        text = result.content[0].text
    async with httpx.AsyncClient() as http:
        problem = (await http.get(f"{live_url}/models/api/upcoming", params={"days": 0})).json()
    assert text == problem["detail"]


async def test_every_tool_of_every_service_answers(live_url):
    for service in load_services():
        examples = service_examples.tool_args(service.name)
        await service_examples.prepare(service.name)
        with service_examples.mocks(service.name):
            async with Client(f"{live_url}/{service.name}/mcp") as client:
                listed = {t.name for t in (await client.list_tools()).tools}
                assert listed - {op.tool for op in service.tools} == {  # and each paid route as a tool
                    paid_tool_name(op) for op in service.operations if op.paid
                }
                listed = {op.tool for op in service.tools}  # called here without payment: the free ones
                empty = service_examples.tools_empty_by_design(service.name)
                for name in listed:
                    result = await client.call_tool(name, examples.get(name, {}))
                    if name in empty:  # the store holds no such record yet (by design): a 404 naming it
                        assert not result.is_error or result.meta["problem"]["status"] == 404, (service.name, name)
                        continue
                    assert not result.is_error, (service.name, name, result.content)
                    assert result.structured_content
