"""Live feeds: each importer's official source, refreshed on a schedule (see docs/feeds.md).

- `declare`: what a feed is (`Feed`, `Part`, `Stamp`).
- `described`: a feed declared from its facts in `data/<service>/feeds.toml` and its code (`declared_feed`).
- `download`: the bounded download client (timeout, retries with back-off, size cap, conditional GET).
- `run`: importing a file in one transaction with its feed state; the refresh lock; `Refresher`.
- `schedule`: the scheduler (`twlookup scheduler`, and `twlookup serve`'s background refresh).
- `status`: what `/<name>/api/status` and the index say about each feed.
"""

from twlookup.platform.feeds.declare import Feed, Fetched, Part, PartsContext, Stamp, static_parts
from twlookup.platform.feeds.described import declared_feed

__all__ = ["Feed", "Fetched", "Part", "PartsContext", "Stamp", "declared_feed", "static_parts"]
