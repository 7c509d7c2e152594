"""Which browser origins may call the MCP endpoints (Streamable HTTP transport, 2025-11-25:
"If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden").

A request without an `Origin` header (agents, curl, server-side clients) is always allowed: the
rule protects against web pages, which browsers make send one. Allowed by default: the origin of
the configured public URL (TWLOOKUP_PUBLIC_URL, else http://HOST:PORT and its localhost twin)
and the service's own configured host. TWLOOKUP_MCP_ALLOWED_ORIGINS adds origins ("*" allows any):
a browser-based agent served from another origin needs its origin listed there, and listing it
lets any page on that origin use the tools with the visitor's network position.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit


def _origin(url: str) -> str:
    parts = urlsplit(url.strip())
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}" if parts.scheme and parts.netloc else url.strip().lower()


class OriginPolicy:
    def __init__(self, allowed: list[str]) -> None:
        self.any = "*" in allowed
        self.allowed = {_origin(o) for o in allowed if o != "*"}

    @classmethod
    def from_settings(cls, settings: Any, service: str | None = None) -> OriginPolicy:
        allowed = [*settings.mcp_allowed_origins, settings.base_url()]
        if not settings.public_url and settings.host in ("127.0.0.1", "localhost", "0.0.0.0"):
            allowed += [f"http://localhost:{settings.port}", f"http://127.0.0.1:{settings.port}"]
        host = settings.host_for(service) if service else None
        if host:
            allowed += [f"https://{host}", f"http://{host}"]
        return cls(allowed)

    def allows(self, origin: bytes | None) -> bool:
        if origin is None or self.any:
            return True
        return _origin(origin.decode("latin-1")) in self.allowed
