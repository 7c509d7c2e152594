"""Keeping private services' queries out of logs.

Services marked `private` (health, wellness: "queries are not stored") must not have a query
string reach a log line. Uvicorn's access log writes the full path with its query; this filter
cuts the query from records of requests to those services (by path prefix or host name).
"""

from __future__ import annotations

import logging


class RedactPrivateQueries(logging.Filter):
    def __init__(self, prefixes: set[str], hosts: set[str]) -> None:
        super().__init__("twlookup-privacy")
        self.prefixes = tuple(f"/{p}/" for p in prefixes) + tuple(f"/{p}?" for p in prefixes)
        self.private_host = bool(hosts)

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            path = args[2]
            if "?" in path and (path.startswith(self.prefixes) or self.private_host):
                record.args = (*args[:2], path.split("?", 1)[0] + "?[redacted]", *args[3:])
        return True


def install(prefixes: set[str], hosts: set[str]) -> None:
    """Attach the filter to uvicorn's access logger (replacing one attached before)."""
    logger = logging.getLogger("uvicorn.access")
    for old in [f for f in logger.filters if isinstance(f, RedactPrivateQueries)]:
        logger.removeFilter(old)
    if prefixes:
        logger.addFilter(RedactPrivateQueries(prefixes, hosts))
