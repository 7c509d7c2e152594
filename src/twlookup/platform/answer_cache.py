"""The JSON answers of repeatable lookups, kept for the day and the data they were worked out on.

A repeatable operation (`Operation.repeatable`: a free GET lookup that answers from memory, not
declared `varies`) is a function of its parameters, today's date in Taiwan and the reference
data (`platform/store/reference.py`). Its answer to the same parameters is the same bytes until
the date changes or a reference is rebuilt, so the bytes are kept and given again: a repeated
lookup skips reading its parameters, validating them, running the operation and serializing the
answer. REST and MCP keep their own entries (the query string; the tool arguments as JSON, MCP
keeping the whole tool result).

An entry is given again only while `clock.today()` and `Reference.generation` are what they were
when its answer was worked out; both are read before the work starts, so data rebuilt while it
ran makes the entry stale, never current. When the group's data version check is due, the request
takes the ordinary path (the check, then the work) and keeps nothing. An answer whose work read
the time of day (`clock.now()`) or the caller (`request.current()`) is not kept; neither is an
error (a Problem is raised through), nor an answer larger than an entry may be.

Private services (health, wellness) keep nothing: their queries stay in no memory past the
request. The entries are bounded in bytes (TWLOOKUP_ANSWER_CACHE_BYTES), the least recently given
dropped first; 0 turns the cache off.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import date
from typing import Any

import orjson

from twlookup.platform import clock, request
from twlookup.platform.operations import Operation
from twlookup.platform.store.reference import Reference

TOOL = "tool"  # in a tool call's key: never taken for a REST key (op, query string, path segments...)
ENTRY_OVERHEAD = 200  # bytes an entry costs beyond its answer and its key's text (tuples, a slot), roughly


class AnswerCache:
    def __init__(self, budget_bytes: int, largest_bytes: int = 65_536) -> None:
        self.budget = budget_bytes  # 0: keep nothing
        self.largest = min(largest_bytes, budget_bytes)  # an entry past this is not kept
        self.used = 0
        # key -> (today, reference generation, answer, bytes counted against the budget)
        self._entries: OrderedDict[tuple[Any, ...], tuple[date, int, bytes, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        self._entries.clear()
        self.used = 0

    def given(self, op: Operation, key: tuple[Any, ...] | None) -> bytes | None:
        """The answer kept for `key` when it is current (today's, on the reference data as they
        are, and no data version check due for `op`'s group), else None: the quick way of a
        repeated lookup, with no work to await. `answer` goes this way first."""
        if key is None:
            return None
        kept = self._entries.get(key)
        if kept is None or kept[0] != clock.today() or kept[1] != Reference.generation or Reference.due(op.group):
            return None
        self._entries.move_to_end(key)
        return kept[2]

    async def answer(
        self,
        op: Operation,
        key: tuple[Any, ...] | None,
        raw: dict[str, Any] | Callable[[], Awaitable[dict[str, Any]]],
        finish: Callable[[bytes], bytes] = bytes,
    ) -> bytes:
        """`finish` of the JSON answer of `op` to the parameters `raw` (or those `raw()` reads, when
        needed), known by `key` (which names the parameters exactly: equal keys, equal
        parameters); kept, or given from what was kept. `finish` puts the answer in its envelope
        (MCP: the tool result), kept as it is."""
        given = self.given(op, key)
        if given is not None:
            return given
        if key is None or self.budget <= 0 or Reference.due(op.group):
            return await _worked_out(op, raw, finish)
        today, generation = clock.today(), Reference.generation
        entries = self._entries
        kept = entries.get(key)
        moments = clock.readings + request.askings
        body = await _worked_out(op, raw, finish)
        size = len(body) + ENTRY_OVERHEAD + sum(len(part) for part in key[1:] if isinstance(part, bytes | str))
        if clock.readings + request.askings == moments and size <= self.largest:
            self._keep(key, (today, generation, body, size))
        elif kept is not None:  # out of date, and not replaced
            self.used -= entries.pop(key)[3]
        return body

    def _keep(self, key: tuple[Any, ...], entry: tuple[date, int, bytes, int]) -> None:
        entries = self._entries
        old = entries.pop(key, None)
        if old is not None:
            self.used -= old[3]
        entries[key] = entry
        self.used += entry[3]
        while self.used > self.budget:
            _, dropped = entries.popitem(last=False)
            self.used -= dropped[3]


async def _worked_out(
    op: Operation, raw: dict[str, Any] | Callable[[], Awaitable[dict[str, Any]]], finish: Callable[[bytes], bytes]
) -> bytes:
    return finish(op.dump_json(await op.call(raw if isinstance(raw, dict) else await raw())))


def tool_key(op: Operation, arguments: dict[str, Any]) -> tuple[Any, ...] | None:
    """The key of a tool call's arguments: their JSON, in which `1`, `1.0` and `true` differ as
    the arguments do (they are equal keys in Python; a bool for a number is refused). None for
    arguments JSON cannot hold exactly (an integer past 64 bits): not kept."""
    try:
        return (op.fn, TOOL, orjson.dumps(arguments))
    except orjson.JSONEncodeError:
        return None
