"""Where clients reach this server: the one base every absolute URL is written with.

Used for the 402 challenge's `resource.url`, the MCP endpoint's own origin (platform/origins.py),
OpenAPI `servers`, text pages such as /llms.txt, and the pages for people.

- `TWLOOKUP_PUBLIC_URL` set: that URL (it may carry a path prefix), for every request; a service
  reached at its own host (`TWLOOKUP_HOST_<NAME>`) is at that host's root, same scheme.
- Unset: the request's own scheme, host and port: the ASGI scheme and the `Host` header (or the
  socket's address when there is none). `X-Forwarded-Proto`, `X-Forwarded-Host` and
  `X-Forwarded-Port` are believed only when the peer is a trusted proxy
  (`TWLOOKUP_TRUSTED_PROXIES`, as for X-Forwarded-For); of a list, the last value is the one that
  proxy set. A header that is not a plain scheme, host or port is ignored, never copied into a URL.

`twlookup serve --port N` (and `PORT=N make serve`) therefore need no setting: the URL a client
used is the URL it is told.

Whether the request's origin may also be trusted as *our* origin (the MCP Origin check) is a
separate question, answered by `believed`: a DNS-rebinding page sends its own host name as Host,
so a host name in Host is not believed (a proxy passing Host on passes that name too); an IP
literal or `localhost` is (no page can take those names), and so is the X-Forwarded-Host a trusted
proxy sets.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from twlookup.platform.http import header
from twlookup.platform.ratelimit import ClientIP

_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST = re.compile(rf"^(?P<name>{_LABEL}(?:\.{_LABEL})*\.?|\[[0-9A-Fa-f:.]+\])(?::(?P<port>[0-9]{{1,5}}))?$")
DEFAULT_PORTS = {"http": 80, "https": 443}
LOOPBACK_NAMES = ("localhost",)


def _last(value: bytes | None) -> str | None:
    if not value:
        return None
    last = value.decode("latin-1").split(",")[-1].strip()
    return last or None


def _host_header(scope: Mapping[str, Any]) -> str | None:
    value = header(scope, b"host")
    return value.decode("latin-1") if value else None


def _split_host(value: str | None) -> tuple[str, int | None] | None:
    """(host, port) of a Host-style value, or None when it is not a plain host[:port]."""
    if not value:
        return None
    match = _HOST.match(value)
    if not match:
        return None
    port = match.group("port")
    if port is not None and not 0 < int(port) < 65536:
        return None
    return match.group("name").lower().rstrip("."), int(port) if port else None


def _is_ip_literal(host: str) -> bool:
    if host.startswith("["):
        return True
    return all(part.isdigit() for part in host.split(".")) and host.count(".") == 3


def _origin(scheme: str, host: str, port: int | None) -> str:
    if port is None or DEFAULT_PORTS.get(scheme) == port:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


class PublicOrigin:
    def __init__(self, public_url: str | None, client_ip: ClientIP, service_hosts: set[str] | None = None) -> None:
        self.configured = public_url.strip().rstrip("/") if public_url else None
        self.scheme = self.configured.split("://", 1)[0].lower() if self.configured else None
        self.client_ip = client_ip
        self.service_hosts = service_hosts or set()  # TWLOOKUP_HOST_<NAME> values, lower case

    @classmethod
    def from_settings(cls, settings: Any, client_ip: ClientIP | None = None, services: list[str] | None = None) -> Any:
        hosts = {h for name in services or [] if (h := settings.host_for(name))}
        return cls(settings.public_url, client_ip or ClientIP(settings.trusted_proxies), hosts)

    def request_origin(self, scope: Mapping[str, Any]) -> tuple[str, bool]:
        """scheme://host[:port] as this request reached us, and whether it is believed to be ours
        (see the module's doc)."""
        scheme = str(scope.get("scheme") or "http").lower()
        if scheme not in DEFAULT_PORTS:
            scheme = "https" if scheme == "wss" else "http"
        own = _split_host(_host_header(scope))
        if own is None:
            server = scope.get("server")
            host, port = (server[0], server[1]) if server else ("127.0.0.1", None)
            own = (f"[{host}]" if ":" in str(host) else str(host), port)
        host, port = own
        believed = _is_ip_literal(host) or host in LOOPBACK_NAMES
        if self.client_ip.trusted and self._from_trusted_proxy(scope):
            proto = _last(header(scope, b"x-forwarded-proto"))
            forwarded = _split_host(_last(header(scope, b"x-forwarded-host")))
            fport = _last(header(scope, b"x-forwarded-port"))
            if proto and proto.lower() in DEFAULT_PORTS:
                scheme = proto.lower()
            if forwarded is not None:  # the proxy names the host the client used: believed
                host, port = forwarded
                believed = True
            if fport and fport.isdigit() and 0 < int(fport) < 65536:
                port = int(fport)
        return _origin(scheme, host, port), believed

    def _from_trusted_proxy(self, scope: Mapping[str, Any]) -> bool:
        client = scope.get("client")
        return client is not None and bool(client) and self.client_ip.is_trusted(client[0])

    def base(self, scope: Mapping[str, Any]) -> str:
        """The absolute base the app at `scope` hangs under (add `root_path` for a service)."""
        if self.configured:
            host = _split_host(_host_header(scope))
            if host and host[0] in self.service_hosts:  # a service at its own host's root
                return f"{self.scheme}://{host[0]}"
            return self.configured
        return self.request_origin(scope)[0]

    def url(self, scope: Mapping[str, Any], path: str = "") -> str:
        """The absolute URL of `path` within the app at `scope` (its root_path included)."""
        return self.base(scope) + scope.get("root_path", "") + path
