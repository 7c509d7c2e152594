"""Markdown pages at `<path>.md` for free GET operations, and plain-text routes, on a tiny test
service: content types, parameters, errors as problem+json, paid routes without pages, OpenAPI."""

import httpx
import pytest
from pydantic import BaseModel, Field

from twlookup.app import create_app
from twlookup.platform.errors import NotFound
from twlookup.platform.operations import Params
from twlookup.platform.service import Service

pytestmark = pytest.mark.asyncio


class ItemQuery(Params):
    id: str = Field(pattern=r"^[a-z]+$", description="Item id")
    lang: str = Field("en", pattern=r"^(en|zh)$", description="Language of the page")


class Item(BaseModel):
    id: str
    lang: str


class ListQuery(Params):
    limit: int = Field(2, ge=1, le=5)


class Items(BaseModel):
    ids: list[str]


def render_item(item: Item) -> str:
    return f"# Item {item.id}\n\nLanguage: {item.lang}\n"


def stall() -> Service:
    service = Service(name="bikes", title="t", description="markdown test service")

    @service.operation("GET", "/api/item/{id}", tool="get_item", markdown=render_item)
    def item(p: ItemQuery) -> Item:
        """One item."""
        if p.id == "none":
            raise NotFound("item", p.id)
        return Item(id=p.id, lang=p.lang)

    @service.operation("GET", "/api/items", markdown=lambda r: "\n".join(f"- {i}" for i in r.ids) + "\n")
    def items(p: ListQuery) -> Items:
        """Some items."""
        return Items(ids=["a", "b", "c", "d", "e"][: p.limit])

    @service.operation("GET", "/api/plain")
    def plain() -> Items:
        """A route without a Markdown page."""
        return Items(ids=[])

    @service.operation("GET", "/api/pro/item/{id}", price="$0.01")
    def paid(p: ItemQuery) -> Item:
        """A paid item."""
        return Item(id=p.id, lang=p.lang)

    service.text_route("/llms.txt", lambda: "items: a, b, c\n")
    return service


@pytest.fixture
async def c(settings):
    app = create_app(settings, services=[stall()])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://testserver") as client:
        yield client


async def test_markdown_page_of_a_path_parameter_route(c):
    r = await c.get("/bikes/api/item/abc.md", params={"lang": "zh"})
    assert r.status_code == 200
    assert r.headers["content-type"] == "text/markdown; charset=utf-8"
    assert r.text == "# Item abc\n\nLanguage: zh\n"
    # the JSON route is unchanged and gives the same data
    assert (await c.get("/bikes/api/item/abc", params={"lang": "zh"})).json() == {"id": "abc", "lang": "zh"}


async def test_markdown_page_of_an_exact_route_reads_the_query(c):
    r = await c.get("/bikes/api/items.md", params={"limit": 3})
    assert r.status_code == 200 and r.text == "- a\n- b\n- c\n"
    head = await c.head("/bikes/api/items.md")
    assert head.status_code == 200 and head.content == b"" and head.headers["content-type"].startswith("text/markdown")


@pytest.mark.parametrize(
    ("url", "status", "parameter"),
    [
        ("/bikes/api/item/ABC.md", 422, "id"),
        ("/bikes/api/items.md?limit=9", 422, "limit"),
        ("/bikes/api/items.md?colour=red", 422, "colour"),
        ("/bikes/api/item/none.md", 404, None),
    ],
)
async def test_markdown_errors_are_problem_json(c, url, status, parameter):
    r = await c.get(url)
    assert r.status_code == status
    assert r.headers["content-type"] == "application/problem+json"
    if parameter:
        assert r.json()["errors"][0]["parameter"] == parameter
    else:
        assert r.json()["id"] == "none"


async def test_only_declared_free_get_routes_have_pages(c):
    r = await c.get("/bikes/api/plain.md")
    assert r.status_code == 404 and r.headers["content-type"] == "application/problem+json"
    # a paid route has no page: ".md" is just part of its id, which fails validation before any payment
    r = await c.get("/bikes/api/pro/item/abc.md")
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "id"
    r = await c.post("/bikes/api/items.md")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"


async def test_text_route(c):
    r = await c.get("/bikes/llms.txt")
    assert r.status_code == 200 and r.text == "items: a, b, c\n"
    assert r.headers["content-type"] == "text/plain; charset=utf-8"
    assert (await c.post("/bikes/llms.txt")).status_code == 405


async def test_summary_and_openapi_list_the_pages(c):
    summary = (await c.get("/bikes/")).json()
    assert summary["text_pages"] == ["/bikes/llms.txt"]
    pages = {r["path"]: r["markdown"] for r in summary["routes"]}
    assert pages["/bikes/api/item/{id}"] == "/bikes/api/item/{id}.md" and pages["/bikes/api/plain"] is None
    doc = (await c.get("/bikes/openapi.json")).json()
    page = doc["paths"]["/api/item/{id}.md"]["get"]
    assert "text/markdown" in page["responses"]["200"]["content"] and "x-mcp-tool" not in page
    assert {p["name"] for p in page["parameters"]} == {"id", "lang"}
    assert "/api/plain.md" not in doc["paths"] and "/api/pro/item/{id}.md" not in doc["paths"]
    assert "text/plain" in doc["paths"]["/llms.txt"]["get"]["responses"]["200"]["content"]


async def test_declaration_rules():
    service = Service(name="bikes", title="t", description="d")
    with pytest.raises(ValueError, match="only free GET"):
        service.operation("GET", "/api/pro/x", price="$0.01", markdown=str)
    with pytest.raises(ValueError, match="only free GET"):
        service.operation("POST", "/api/x", markdown=str)
    service.text_route("/llms.txt", lambda: "")
    with pytest.raises(ValueError, match="declared once"):
        service.text_route("/llms.txt", lambda: "")
