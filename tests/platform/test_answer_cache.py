"""The answer cache (platform/answer_cache.py): a repeated free lookup is answered from what was
kept for the same parameters, day and reference data, over REST and MCP alike; an answer that
rests on the time of day, the caller, randomness or anything outside its parameters, the date and
the reference data is worked out again every time; errors are never kept; the bytes are bounded."""

from __future__ import annotations

from datetime import date
from typing import Any

import httpx
import orjson
import pytest
from pydantic import BaseModel, Field

from twlookup.app import create_app
from twlookup.platform import clock, request
from twlookup.platform.answer_cache import ENTRY_OVERHEAD, AnswerCache, tool_key
from twlookup.platform.errors import NotFound
from twlookup.platform.operations import Params
from twlookup.platform.service import Service
from twlookup.platform.store.reference import Reference
from twlookup.settings import Settings

RUNS: dict[str, int] = {}  # how many times each operation below has run


class N(Params):
    n: int = Field(0, ge=-5, le=5_000_000)


class Slug(Params):
    slug: str


class Answer(BaseModel):
    n: int
    runs: int
    day: date
    text: str = ""


def ran(name: str) -> int:
    RUNS[name] = RUNS.get(name, 0) + 1
    return RUNS[name]


def demo(name: str = "memo", private: bool = False) -> Service:
    service = Service(name=name, title=name, description="answer cache demo", private=private)

    @service.operation("GET", "/api/plain", tool="plain", markdown=lambda r: f"# {r.n}, run {r.runs}\n")
    def plain(p: N) -> Answer:
        """A lookup of its parameters and the date."""
        runs = ran(f"{name}.plain")
        if p.n < 0:
            raise NotFound("number", str(p.n))
        return Answer(n=p.n, runs=runs, day=clock.today())

    @service.operation("GET", "/api/item/{slug}", tool="item")
    def item(p: Slug) -> Answer:
        """A lookup by a path segment."""
        return Answer(n=0, runs=ran(f"{name}.item"), day=clock.today(), text=p.slug)

    @service.operation("GET", "/api/big", tool="big")
    def big(p: N) -> Answer:
        """An answer of p.n bytes of text."""
        return Answer(n=p.n, runs=ran(f"{name}.big"), day=clock.today(), text="x" * p.n)

    @service.operation("GET", "/api/clocked", tool="clocked")
    def clocked(p: N) -> Answer:
        """It reads the time of day."""
        clock.now()
        return Answer(n=p.n, runs=ran(f"{name}.clocked"), day=clock.today())

    @service.operation("GET", "/api/caller")
    def caller(p: N) -> Answer:
        """It reads who is asking."""
        return Answer(n=p.n, runs=ran(f"{name}.caller"), day=clock.today(), text=request.current().client)

    @service.operation("GET", "/api/drawn", tool="drawn", varies=True)
    def drawn(p: N) -> Answer:
        """Declared to vary from call to call."""
        return Answer(n=p.n, runs=ran(f"{name}.drawn"), day=clock.today())

    @service.operation("POST", "/api/posted", tool="posted")
    def posted(p: N) -> Answer:
        """A POST: not a lookup kept."""
        return Answer(n=p.n, runs=ran(f"{name}.posted"), day=clock.today())

    return service


@pytest.fixture
async def memo(db_url, settings):
    # the data version is checked once an hour here: a request made while a check is due takes
    # the ordinary way and keeps nothing, and the tests count what is kept
    db = settings
    own = Settings(database_url=db_url, rate_limit_default="100000/minute", data_check_seconds=3600, _env_file=None)
    app = create_app(own, services=[demo(), demo("hush", private=True)])
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        assert (await c.get("/memo/api/item/warm-up")).status_code == 200  # the first check
        RUNS.clear()
        app.answers.clear()
        c.app = app  # type: ignore[attr-defined]
        yield c
    Reference.set_timing(  # as the session's settings have them, for the tests after these
        db.data_check_seconds, db.store_grace_seconds, db.store_stall_wait_seconds
    )


async def runs_of(client: httpx.AsyncClient, path: str, times: int = 3, **params: Any) -> list[int]:
    out = []
    for _ in range(times):
        r = await client.get(path, params=params)
        assert r.status_code == 200, r.text
        out.append(r.json()["runs"])
    return out


async def test_a_repeated_lookup_is_worked_out_once_for_the_same_parameters(memo):
    assert await runs_of(memo, "/memo/api/plain", n=1) == [1, 1, 1]
    assert await runs_of(memo, "/memo/api/plain", n=2) == [2, 2, 2]  # other parameters: its own answer
    assert await runs_of(memo, "/memo/api/item/abc") == [1, 1, 1]
    assert (await memo.get("/memo/api/item/abd")).json() == {
        "n": 0,
        "runs": 2,
        "day": str(clock.today()),
        "text": "abd",
    }
    head = await memo.head("/memo/api/plain", params={"n": 1})
    assert (
        head.status_code == 200
        and head.content == b""
        and head.headers["content-length"] == str(len((await memo.get("/memo/api/plain", params={"n": 1})).content))
    )


async def test_a_new_day_or_rebuilt_reference_data_is_worked_out_again(memo, monkeypatch):
    monkeypatch.setattr(clock, "_fixed", date(2026, 11, 27))
    assert await runs_of(memo, "/memo/api/plain", 2, n=1) == [1, 1]
    monkeypatch.setattr(clock, "_fixed", date(2026, 11, 28))
    r = await memo.get("/memo/api/plain", params={"n": 1})
    assert r.json()["runs"] == 2 and r.json()["day"] == "2026-11-28"
    Reference.generation += 1  # what a reference's rebuild does (a re-seed, an import)
    assert await runs_of(memo, "/memo/api/plain", 2, n=1) == [3, 3]


async def test_errors_the_time_of_day_the_caller_and_declared_variety_are_never_kept(memo):
    for _ in range(2):
        r = await memo.get("/memo/api/plain", params={"n": -1})
        assert r.status_code == 404
    assert RUNS["memo.plain"] == 2
    r = await memo.get("/memo/api/plain", params={"n": 9_000_000})  # refused by validation, each time
    assert r.status_code == 422 and "n" in r.text
    assert await runs_of(memo, "/memo/api/clocked", n=1) == [1, 2, 3]
    assert await runs_of(memo, "/memo/api/caller", n=1) == [1, 2, 3]
    assert await runs_of(memo, "/memo/api/drawn", n=1) == [1, 2, 3]
    for expected in (1, 2):
        assert (await memo.post("/memo/api/posted", json={"n": 1})).json()["runs"] == expected


async def test_a_private_service_keeps_nothing(memo):
    assert await runs_of(memo, "/hush/api/plain", n=1) == [1, 2, 3]
    assert len(memo.app.answers) == 0


async def test_the_markdown_page_is_its_own_answer(memo):
    await runs_of(memo, "/memo/api/plain", 1, n=1)
    page = await memo.get("/memo/api/plain.md", params={"n": 1})
    assert page.headers["content-type"].startswith("text/markdown") and page.text == "# 1, run 2\n"
    r = await memo.get("/memo/api/plain", params={"n": 1})
    assert r.headers["content-type"] == "application/json" and r.json()["runs"] == 1


async def test_tool_calls_are_kept_as_their_results_and_bool_is_not_taken_for_a_number(memo):
    async def call(arguments: dict[str, Any], ident: Any = 1) -> dict[str, Any]:
        message = {
            "jsonrpc": "2.0",
            "id": ident,
            "method": "tools/call",
            "params": {"name": "plain", "arguments": arguments},
        }
        r = await memo.post("/memo/mcp", json=message)
        assert r.status_code == 200
        return r.json()

    first, second = await call({"n": 1}), await call({"n": 1}, ident="b")
    assert first["id"] == 1 and second["id"] == "b"  # the id is the caller's each time
    assert first["result"] == second["result"] and second["result"]["structuredContent"]["runs"] == 1
    assert orjson.loads(second["result"]["content"][0]["text"]) == second["result"]["structuredContent"]
    refused = await call({"n": True})  # equal to 1 as a Python key; refused as an argument
    assert refused["result"]["isError"] is True and "n" in refused["result"]["content"][0]["text"]
    assert (await call({"n": 1.0}))["result"]["structuredContent"]["runs"] == 2  # its own key
    rest = (await memo.get("/memo/api/plain", params={"n": 1})).json()
    assert rest == {**second["result"]["structuredContent"], "runs": 3}  # REST keeps its own entry
    missing = await call({"n": -1})
    assert missing["result"]["isError"] is True


async def test_a_repeated_tool_call_is_given_its_kept_result_byte_for_byte(memo, monkeypatch):
    """A call asked before goes the short way (`MCPEndpoint._kept_reply`): the same bytes the
    ordinary way sends, with the caller's id; anything it does not take goes the ordinary way."""
    from twlookup.platform.mcp import MCPEndpoint

    ordinary = MCPEndpoint.handle
    handled: list[Any] = []

    async def counted(self: MCPEndpoint, message: dict[str, Any], scope: Any = None) -> dict[str, Any]:
        handled.append(message.get("id"))
        return await ordinary(self, message, scope)

    monkeypatch.setattr(MCPEndpoint, "handle", counted)

    async def call(ident: Any, **params: Any) -> httpx.Response:
        message = {"jsonrpc": "2.0", "id": ident, "method": "tools/call", "params": params}
        return await memo.post("/memo/mcp", json=message)

    first = await call(1, name="plain", arguments={"n": 7})
    assert handled == [1]
    result = first.json()["result"]
    for ident in (2, 'q"\u00fc', 2.5, -3):
        kept = await call(ident, name="plain", arguments={"n": 7})
        assert kept.content == orjson.dumps({"jsonrpc": "2.0", "id": ident, "result": result})
    assert handled == [1] and RUNS["memo.plain"] == 1
    # the ordinary way for everything else, with its own answers
    assert (await call(True, name="plain", arguments={"n": 7})).json()["error"]["code"] == -32600
    assert (await call(3, name=["plain"], arguments={"n": 7})).json()["error"]["code"] == -32602
    assert (await call(4, name="plain", arguments=[7])).json()["error"]["code"] == -32602
    assert (await call(5, name="plain")).json()["result"]["structuredContent"]["n"] == 0
    assert (await call(6, name="drawn", arguments={"n": 7})).json()["result"]["structuredContent"]["runs"] == 1
    assert (await call(7, name="drawn", arguments={"n": 7})).json()["result"]["structuredContent"]["runs"] == 2
    assert handled == [1, True, 3, 4, 5, 6, 7]
    # not JSON-RPC 2.0, or a notification (no id): never given the kept result, nor worked out
    runs = RUNS["memo.plain"]
    wrong = {"jsonrpc": "1.0", "id": 9, "method": "tools/call", "params": {"name": "plain", "arguments": {"n": 7}}}
    assert (await memo.post("/memo/mcp", json=wrong)).json()["error"]["code"] == -32600
    told = {k: v for k, v in wrong.items() if k != "id"} | {"jsonrpc": "2.0"}
    answered = await memo.post("/memo/mcp", json=told)
    assert answered.status_code == 202 and answered.content == b""
    assert handled == [1, True, 3, 4, 5, 6, 7] and RUNS["memo.plain"] == runs
    monkeypatch.setattr(clock, "_fixed", date(2031, 1, 1))  # another day: worked out again, the ordinary way
    assert (await call(8, name="plain", arguments={"n": 7})).json()["result"]["structuredContent"]["runs"] == 3
    assert handled[-1] == 8


class Op:
    """What the cache reads of an operation, for the unit tests of its bounds."""

    def __init__(self, body: bytes = b"{}") -> None:
        self.group = None
        self.body = body
        self.calls = 0
        self.fn = object()

    async def call(self, raw: Any) -> Any:
        self.calls += 1
        return raw

    def dump_json(self, _result: Any) -> bytes:
        return self.body


async def nothing() -> dict[str, Any]:
    return {}


@pytest.fixture
def checked(monkeypatch):
    """The data version needs no check (the unit tests' operations read no reference data)."""
    monkeypatch.setattr(Reference, "due", classmethod(lambda cls, group=None: False))


@pytest.mark.usefixtures("checked")
async def test_the_cache_keeps_within_its_bytes_dropping_the_least_recently_given():
    size = 100 + ENTRY_OVERHEAD + 1  # an answer of 100 bytes under a key of one byte
    cache = AnswerCache(budget_bytes=3 * size)
    op = Op(b"x" * 100)
    for key in (b"a", b"b", b"c"):
        await cache.answer(op, (op.fn, key), nothing)  # type: ignore[arg-type]
    assert len(cache) == 3 and cache.used == 3 * size and op.calls == 3
    await cache.answer(op, (op.fn, b"a"), nothing)  # given again: now the most recent
    await cache.answer(op, (op.fn, b"d"), nothing)  # one too many: "b", the least recent, goes
    assert cache.used == 3 * size and op.calls == 4
    await cache.answer(op, (op.fn, b"a"), nothing)
    await cache.answer(op, (op.fn, b"b"), nothing)
    assert op.calls == 5  # "a" was kept, "b" was dropped


@pytest.mark.usefixtures("checked")
async def test_an_answer_larger_than_an_entry_may_be_and_a_cache_of_nothing_keep_nothing():
    cache = AnswerCache(budget_bytes=10_000, largest_bytes=1_000)
    op = Op(b"x" * 2_000)
    for _ in range(2):
        await cache.answer(op, (op.fn, b"k"), nothing)  # type: ignore[arg-type]
    assert op.calls == 2 and len(cache) == 0 and cache.used == 0
    off = AnswerCache(budget_bytes=0)
    small = Op()
    for _ in range(2):
        await off.answer(small, (small.fn, b"k"), nothing)  # type: ignore[arg-type]
    assert small.calls == 2 and len(off) == 0


@pytest.mark.usefixtures("checked")
async def test_a_long_query_counts_against_the_budget():
    cache = AnswerCache(budget_bytes=10_000)
    op = Op(b"{}")
    await cache.answer(op, (op.fn, b"q" * 5_000), nothing)  # type: ignore[arg-type]
    assert cache.used == 2 + ENTRY_OVERHEAD + 5_000


@pytest.mark.usefixtures("checked")
async def test_an_out_of_date_entry_that_is_not_replaced_is_dropped(monkeypatch):
    cache = AnswerCache(budget_bytes=10_000)
    op = Op(b"{}")
    await cache.answer(op, (op.fn, b"k"), nothing)  # type: ignore[arg-type]
    Reference.generation += 1
    monkeypatch.setattr(clock, "readings", clock.readings)

    async def reads_the_clock() -> dict[str, Any]:
        clock.now()
        return {}

    await cache.answer(op, (op.fn, b"k"), reads_the_clock)  # type: ignore[arg-type]
    assert len(cache) == 0 and cache.used == 0


async def test_while_a_data_version_check_is_due_nothing_is_given_or_kept(monkeypatch):
    monkeypatch.setattr(Reference, "due", classmethod(lambda cls, group=None: True))
    cache = AnswerCache(budget_bytes=10_000)
    op = Op(b"{}")
    for _ in range(2):
        await cache.answer(op, (op.fn, b"k"), nothing)  # type: ignore[arg-type]
    assert op.calls == 2 and len(cache) == 0


def test_tool_keys_tell_apart_what_python_takes_for_equal():
    op = Op()
    keys = {tool_key(op, {"n": v}) for v in (1, 1.0, True, "1")}  # type: ignore[arg-type]
    assert len(keys) == 4
    assert tool_key(op, {"a": [1, 2]}) == tool_key(op, {"a": [1, 2]})  # type: ignore[arg-type]
    assert tool_key(op, {"n": 2**70}) is None  # type: ignore[arg-type]  # JSON cannot hold it: not kept


async def test_every_kept_answer_of_every_service_is_the_answer_worked_out_again(app, client, monkeypatch):
    """Over every repeatable operation of the twenty services (a tool with its example arguments,
    else its REST route without parameters, where that answers): two answers
    worked out afresh agree (an operation whose answer differs between calls must say `varies`),
    and the kept answer is that answer."""
    import service_examples

    from twlookup.services import load_services

    async def call_tool(path: str, tool: str, arguments: dict[str, Any]) -> Any:
        message = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": tool, "arguments": arguments}}
        r = await client.post(path, json=message)
        assert r.status_code == 200, (path, tool)
        return r.json()["result"]

    async def get(path: str, _tool: str, _arguments: dict[str, Any]) -> Any:
        r = await client.get(path)
        return {"isError": r.status_code != 200, "body": r.content}

    monkeypatch.setattr(Reference, "check_seconds", 3600.0)  # no check falls due (and keeps nothing) meanwhile
    kept = 0
    for service in load_services():
        examples = service_examples.tool_args(service.name)
        for op in service.operations:
            if not op.repeatable or not (op.tool or not op.pattern):
                continue
            # a tool with its example arguments; an operation with no tool by REST, without parameters
            call = call_tool if op.tool else get
            path = f"/{service.name}/mcp" if op.tool else f"/{service.name}{op.path}"
            arguments = examples.get(op.tool, {}) if op.tool else {}
            await call(path, op.tool or "", arguments)  # loads the service and its reference data
            moments = clock.readings + request.askings
            app.answers.clear()
            first = await call(path, op.tool or "", arguments)
            app.answers.clear()
            second = await call(path, op.tool or "", arguments)
            if clock.readings + request.askings != moments:
                continue  # it read the time of day or the caller: never kept, nothing to compare
            assert first == second, f"{service.name} {op.path} answers differently each time: declare varies=True"
            again = await call(path, op.tool or "", arguments)
            assert again == second, (service.name, op.path)
            kept += len(app.answers)  # one entry where it was kept (a private service keeps none)
    assert kept >= 80  # (84 on 2026-11-27; seven lists are larger than an entry may be)
