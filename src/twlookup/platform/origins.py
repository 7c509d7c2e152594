"""Which browser origins may call the MCP endpoints (Streamable HTTP transport, 2025-11-25:
"If the Origin header is present and invalid, servers MUST respond with HTTP 403 Forbidden").

A request without an `Origin` header (agents, curl, server-side clients) is always allowed: the
rule protects against web pages, which browsers make send one. Allowed by default: the origin of
the configured public URL (TWLOOKUP_PUBLIC_URL, else http://HOST:PORT and its localhost twin),
the service's own configured host, and the server's own origin as this request reached it
(platform/public_origin.py) where that can be believed: an IP literal or `localhost` as Host (so
`twlookup serve --port N` and a browser on http://127.0.0.1:N agree), or what a trusted proxy
forwards. A host name sent by a direct client is not taken as ours: that is what a DNS-rebinding
page sends. TWLOOKUP_MCP_ALLOWED_ORIGINS adds origins ("*" allows any):
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
    def __init__(self, allowed: list[str], public: Any = None) -> None:
        self.any = "*" in allowed
        self.allowed = {_origin(o) for o in allowed if o != "*"}
        self.public = public  # platform/public_origin.PublicOrigin: the request's own origin

    @classmethod
    def from_settings(cls, settings: Any, service: str | None = None, public: Any = None) -> OriginPolicy:
        allowed = [*settings.mcp_allowed_origins, settings.base_url()]
        if not settings.public_url and settings.host in ("127.0.0.1", "localhost", "0.0.0.0"):
            allowed += [f"http://localhost:{settings.port}", f"http://127.0.0.1:{settings.port}"]
        host = settings.host_for(service) if service else None
        if host:
            allowed += [f"https://{host}", f"http://{host}"]
        return cls(allowed, public)

    def allows(self, origin: bytes | None, scope: dict[str, Any] | None = None) -> bool:
        if origin is None or self.any:
            return True
        asked = _origin(origin.decode("latin-1"))
        if asked in self.allowed:
            return True
        if self.public is None or scope is None:
            return False
        own, believed = self.public.request_origin(scope)  # the server's own origin, as this client reached it
        return believed and asked == own
