"""MCP tool failures as the spec means them, seen through the official SDK's Streamable HTTP client
against a real server: a tool whose upstream is away, bad arguments and an unknown id are tool
results with `isError: true` (never a JSON-RPC error), whose text names the tool's arguments and
tools (not REST paths or regular expressions) and whose `structuredContent` carries the problem
fields REST answers with. And each tool's annotations say what it does."""

import httpx
import pytest
import respx
from mcp import Client

from twlookup.services import load_services

pytestmark = pytest.mark.asyncio


@respx.mock
async def test_an_unreachable_upstream_is_a_tool_error_with_the_problem(live_url):
    # the knowledge base (Wikidata) away: the REST route answers 503 with Retry-After
    respx.route(host="127.0.0.1", port=9).mock(side_effect=httpx.ConnectError("refused"))
    respx.route(host="127.0.0.1").pass_through()
    async with httpx.AsyncClient() as http:
        rest = await http.get(f"{live_url}/movie/api/lookup", params={"q": "Avengers: Doomsday"})
    assert rest.status_code == 503
    async with Client(f"{live_url}/movie/mcp") as mcp:
        result = await mcp.call_tool("lookup_any_title", {"q": "Avengers: Doomsday"})
    assert result.is_error
    problem = result.structured_content
    assert problem["status"] == 503 and problem["detail"] == rest.json()["detail"]
    assert problem["type"] == rest.json()["type"]
    assert problem["retry_after"] == int(rest.headers["retry-after"])
    assert result.content[0].text == problem["detail"]


async def test_bad_arguments_name_the_argument_and_what_it_takes(live_url):
    async with Client(f"{live_url}/models/mcp") as mcp:
        result = await mcp.call_tool("retirement_calendar", {"month": "2027-13"})
        assert result.is_error
        text = result.content[0].text
        assert text.startswith("month: ") and "YYYY-MM" in text
        assert "^" not in text and "\\d" not in text  # no raw regular expression in the words
        assert result.structured_content["errors"][0]["parameter"] == "month"
        # the pattern stays available to programs
        assert result.structured_content["errors"][0]["allowed"]["pattern"].startswith("^")

        unknown = await mcp.call_tool("get_model", {"id": "zzzz-no-such-model-zzzz"})
        assert unknown.is_error and unknown.structured_content["status"] == 404
        text = unknown.content[0].text
        assert "/api/" not in text and "list_models tool" in text


async def test_rest_keeps_its_paths_and_gets_the_words_for_patterns(client):
    r = await client.get("/models/api/model", params={"id": "zzzz-no-such-model-zzzz"})
    assert r.status_code == 404 and "/api/models" in r.json()["detail"]
    r = await client.get("/models/api/calendar", params={"month": "2027-13"})
    assert r.status_code == 422 and "^" not in r.json()["detail"] and "YYYY-MM" in r.json()["detail"]


OPEN_WORLD = {  # the tools that reach outside this server, each checked by hand against its code
    ("seo", "check_site_crawlers"),  # fetches any site's robots.txt, sitemaps and llms.txt
    ("seo", "verify_crawler_ip"),  # may ask DNS (TWLOOKUP_SEO_VERIFY_DNS)
    ("seo", "instant_index_submit"),  # posts URLs to IndexNow
    ("creator", "lookup_supplier_company"),  # asks the company register
    ("games", "lookup_any_game"),  # Wikidata and Wikipedia
    ("movie", "lookup_any_title"),
    ("sports", "lookup_any_sports_event"),
}
WRITES = {("seo", "instant_index_submit")}  # it submits URLs to search engines


async def test_annotations_say_what_each_tool_does(live_url):
    seen = set()
    for service in ("seo", "creator", "models", "movie"):
        async with Client(f"{live_url}/{service}/mcp") as mcp:
            for tool in (await mcp.list_tools()).tools:
                key = (service, tool.name)
                hints = tool.annotations
                assert hints.open_world_hint is (key in OPEN_WORLD), key
                assert hints.read_only_hint is (key not in WRITES), key
                assert hints.destructive_hint is False, key
                assert hints.idempotent_hint is (key not in WRITES), key
                seen.add(key)
    assert ("seo", "instant_index_submit") in seen and ("seo", "check_site_crawlers") in seen
    # the same rule for every service, from the declarations
    declared = {
        (s.name, op.tool) for s in load_services() for op in s.operations if op.tool and op.hints["open_world_hint"]
    }
    assert declared == OPEN_WORLD


async def test_error_results_validate_against_the_advertised_output_schema(live_url):
    """Clients such as the MCP Inspector validate an error result's structuredContent against the
    tool's outputSchema too (it once answered -32602 instead of showing our problem): each tool's
    outputSchema admits its answer, the problem, and for a paid tool the x402 payment terms."""
    import jsonschema

    calls = [
        ("models", "retirement_calendar", {"month": "2027-13"}),  # bad argument
        ("models", "get_model", {"id": "zzzz-no-such-model-zzzz"}),  # unknown id
        ("models", "get_model", {"id": "gpt-4-0613"}),  # an answer
        ("models", "pro_audit", {"ids": ["gpt-4-0613"]}),  # the payment terms
        ("models", "pro_audit", {"ids": "gpt-4"}),  # a paid tool's bad argument
    ]
    for service, name, arguments in calls:
        async with Client(f"{live_url}/{service}/mcp") as mcp:
            schema = next(t for t in (await mcp.list_tools()).tools if t.name == name).output_schema
            result = await mcp.call_tool(name, arguments)
        jsonschema.Draft202012Validator(schema).validate(result.structured_content)
        assert result.is_error is (arguments != {"id": "gpt-4-0613"}), name
