"""The request path's own pieces that replaced library calls: they answer as the libraries did."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from twlookup.platform.errors import InvalidParameter
from twlookup.platform.http import query_params
from twlookup.platform.ratelimit import LocalWindows


@pytest.mark.parametrize(
    "raw",
    [b"id=gpt-4-0613", b"a=1&b=2", b"a=b=c", b"flag", b"a=&b", b"&&a=1&", b"q=%E5%A4%A7&x=a+b", b"q=a%26b"],
)
def test_query_params_match_parse_qsl(raw):
    assert query_params({"query_string": raw}) == dict(parse_qsl(raw.decode("latin-1"), keep_blank_values=True))


def test_a_repeated_parameter_is_refused_on_both_paths():
    for raw in (b"id=a&id=b", b"id=%41&id=b"):
        with pytest.raises(InvalidParameter):
            query_params({"query_string": raw})


def test_local_windows_allow_what_the_limits_fixed_window_allows(monkeypatch):
    clock = [1_000.0]
    monkeypatch.setattr("twlookup.platform.ratelimit.time.time", lambda: clock[0])
    ours, item = LocalWindows(), parse("3/minute")
    theirs = FixedWindowRateLimiter(MemoryStorage())
    assert [ours.hit(item, "svc", "1.2.3.4") for _ in range(5)] == [True, True, True, False, False]
    assert [theirs.hit(item, "svc", "1.2.3.4") for _ in range(5)] == [True, True, True, False, False]
    assert ours.hit(item, "svc", "5.6.7.8") and ours.hit(parse("3/second"), "svc", "1.2.3.4")  # own keys
    stats = ours.get_window_stats(item, "svc", "1.2.3.4")
    assert stats.remaining == 0 and stats.reset_time == 1_060.0
    clock[0] = 1_060.0  # the window has ended: a new one opens, and ended ones are swept out
    assert ours.hit(item, "svc", "1.2.3.4")
    assert ours.get_window_stats(item, "svc", "1.2.3.4").remaining == 2
    assert len(ours._windows) == 1
