"""Pages for people: the HTML index, each service's page and the docs, all served from this origin.

A browser (Accept preferring text/html) gets HTML at `/` and at each service's `/<name>/`; every
other client gets the JSON it got before (`wants_html`). What the pages load (style, the
copy script, Swagger UI for the docs) is served from this origin by `page_assets`, so no page
loads anything from another origin; a Content-Security-Policy header says the same to the browser.
The pages are plain semantic HTML, work without JavaScript (a small script only adds copy buttons)
and read at phone width.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import quote

from fastapi import Request
from fastapi.responses import HTMLResponse

from twlookup.platform.page_assets import ASSET_CACHE, docs_page, html_page, install_assets

__all__ = ["ASSET_CACHE", "docs_page", "index_html", "install_assets", "service_html", "wants_html"]

if TYPE_CHECKING:
    from twlookup.platform.feeds.status import FeedsStatus
    from twlookup.platform.listing import ServiceListing
    from twlookup.settings import Settings


class CatalogEntry(Protocol):
    """A service in the index's list (`twlookup.services.CATALOG`): the platform knows no service."""

    @property
    def name(self) -> str: ...

    @property
    def subject(self) -> str: ...

    @property
    def zh(self) -> str: ...


CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
NETWORK_NAMES = {
    "eip155:8453": "Base",
    "eip155:84532": "Base Sepolia (testnet)",
    "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": "Solana",
}


def wants_html(request: Request) -> bool:
    """True when the client prefers text/html to JSON (a browser); `*/*` alone or none means JSON.

    Compares the best quality given to HTML with the best given to JSON (exact type, then
    `application/*`, then `*/*`); HTML wins only when strictly preferred, so today's JSON
    clients (no Accept, `*/*`, `application/json`) are answered as before."""
    accept = request.headers.get("accept", "")
    html_q = 0.0
    json_q: dict[str, float] = {}
    for part in accept.split(","):
        media, *params = [p.strip() for p in part.split(";")]
        media = media.lower()
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if media in ("text/html", "application/xhtml+xml"):
            html_q = max(html_q, q)
        elif media in ("application/json", "application/*", "*/*"):
            json_q[media] = max(json_q.get(media, 0.0), q)
    best_json = next((json_q[m] for m in ("application/json", "application/*", "*/*") if m in json_q), 0.0)
    return html_q > 0 and html_q > best_json


def _page(title: str, base: str, body: str) -> HTMLResponse:
    page = html_page(
        title, base, "pages.css", f'<a class="skip" href="#main">Skip to content</a>\n{body}', ("copy.js",)
    )
    return HTMLResponse(page, headers={"Content-Security-Policy": CSP, "Vary": "Accept"})


def origin(request: Request) -> str:
    """The absolute base of the pages' links: TWLOOKUP_PUBLIC_URL, else the URL the client used
    (platform/public_origin.py; set on each app's state by create_app)."""
    public = getattr(request.app.state, "public_origin", None)
    if public is None:
        return f"{request.url.scheme}://{request.url.netloc}"
    return public.base(request.scope)


def mcp_snippet(name: str, url: str) -> str:
    config = {"mcpServers": {f"twlookup-{name}": {"type": "http", "url": url}}}
    return json.dumps(config, indent=2)


def networks(listing: ServiceListing) -> list[str]:
    return [f"USDC on {NETWORK_NAMES.get(n, n)} ({n})" for n in listing.networks]


def _zh(text: str) -> str:
    return f'<span lang="zh-Hant-TW">{escape(text)}</span>' if text else ""


def sale_words(state: dict[str, Any]) -> str:
    """A paid route's state where its price is shown: open, switched off, or not for sale and why."""
    if state["open"]:
        return "open"
    if state.get("not_for_sale") and state.get("switched_on", True):
        return "not for sale now: " + "; ".join(state["not_for_sale"])
    return "not open now"


def _paid_list(paid: list[dict[str, Any]], nets: list[str]) -> str:
    if not paid:
        return '<p class="muted">No paid routes.</p>'
    items = "".join(
        f"<li><code>{escape(r['method'])} {escape(r['path'])}</code>: {escape(r['price_usd'])} "
        f"({escape(sale_words(r))})"
        + (f'<br><span class="muted">{escape(r["summary"])}</span>' if r.get("summary") else "")
        + "</li>"
        for r in paid
    )
    return f'<ul class="routes">{items}</ul><p class="muted">Paid with x402 in {escape(" or ".join(nets))}.</p>'


def _payment_note(settings: Settings) -> str:
    if not settings.payments_enabled:
        return "Payments are switched off on this server: every paid route answers that it is not open."
    if settings.facilitator == "local":
        return "Payments settle on an in-process test ledger on this server and move no real money."
    return "Payments settle through a remote x402 facilitator and move real USDC."


def _when(value: Any) -> str:
    return value.strftime("%Y-%m-%d %H:%M UTC") if value else "never"


def _feeds_block(status: FeedsStatus | None, base: str) -> str:
    """Each feed of a service: last success, last attempt, data age, and the last error."""
    if status is None or not status.feeds:
        return ""
    items = []
    for f in status.feeds:
        flags = []
        if f.stale:
            flags.append('<span class="state planned">stale</span>')
        if f.failing:
            flags.append('<span class="state planned">failing</span>')
        age = (
            f"{f.data_age_days} days (data of {f.data_date})"
            if f.data_age_days is not None and f.data_date
            else (f"{f.data_age_days} days since the last import" if f.data_age_days is not None else "unknown")
        )
        how = "refreshed from its publisher" if f.refresh else "imported from files (no URL to refresh from)"
        error = (
            f"<dt>Last error</dt><dd>{escape(_when(f.last_error_at))}: {escape((f.last_error or '')[:300])}</dd>"
            if f.last_error
            else ""
        )
        items.append(
            f'<li><code>{escape(f.feed)}</code> {"".join(flags)}<br><span class="muted">{escape(how)}</span>'
            f"<dl><dt>Last success</dt><dd>{escape(_when(f.last_success))}</dd>"
            f"<dt>Last attempt</dt><dd>{escape(_when(f.last_attempt))}</dd>"
            f"<dt>Data age</dt><dd>{escape(age)}</dd>{error}</dl></li>"
        )
    return (
        f'<h4>Live data</h4><ul class="routes">{"".join(items)}</ul>'
        f'<p class="muted">Details: <a href="{escape(base)}/api/status">{escape(base)}/api/status</a></p>'
    )


def index_html(
    request: Request,
    settings: Settings,
    catalog: Sequence[CatalogEntry],
    listings: Mapping[str, ServiceListing],
    version: str,
    feeds: dict[str, FeedsStatus] | None = None,
) -> HTMLResponse:
    here = origin(request)
    available: list[str] = []
    planned: list[str] = []
    for entry in catalog:
        listing = listings.get(entry.name)
        state = "available" if listing else "planned"
        head = (
            f'<h3 id="{escape(entry.name)}">{escape(entry.name)} {_zh(entry.zh)}'
            f'<span class="state {state}">{state}</span></h3>'
            f"<p>{escape(entry.subject)}</p>"
        )
        if listing is None:
            planned.append(f"<li>{head}</li>")
            continue
        base = f"/{entry.name}"
        host = settings.host_for(entry.name)
        host_row = (
            f'<dt>Host</dt><dd><a href="https://{escape(host)}/">https://{escape(host)}/</a></dd>' if host else ""
        )
        snippet = mcp_snippet(entry.name, f"{here}{base}/mcp")
        available.append(
            f"<li>{head}"
            f'<nav class="links" aria-label="{escape(entry.name)} links">'
            f'<a href="{base}/">Service page</a><a href="{base}/docs">API docs</a>'
            f'<a href="{base}/openapi.json">OpenAPI</a></nav>'
            f"<dl><dt>Address</dt><dd><code>{escape(here)}{base}/</code></dd>{host_row}"
            f"<dt>MCP</dt><dd><code>{escape(here)}{base}/mcp</code> ({len(listing.service.tools)} tools)</dd></dl>"
            f"<details><summary>MCP client configuration for {escape(entry.name)}</summary>"
            f'<pre data-copy aria-label="MCP configuration for {escape(entry.name)}" tabindex="0">{escape(snippet)}</pre></details>'
            f"<h4>Paid routes</h4>{_paid_list(listing.paid_routes(base, schemas=False), networks(listing))}"
            f"{_feeds_block((feeds or {}).get(entry.name), base)}"
            "</li>"
        )
    body = f"""<header>
<h1>twlookup</h1>
<p>Twenty lookup services about Taiwan, each with free JSON routes, an MCP endpoint for agents and
paid <code>/api/pro</code> routes (x402). {len(available)} of {len(catalog)} are available now.</p>
<nav class="links" aria-label="Site"><a href="#available">Available</a><a href="#planned">Planned</a><a href="/docs">Index API docs</a><a href="/healthz">Health</a></nav>
</header>
<main id="main">
<p class="muted">Clients asking for JSON get this list as JSON at <code>{escape(here)}/</code>. {escape(_payment_note(settings))}</p>
<section aria-labelledby="available"><h2 id="available">Available now ({len(available)})</h2>
<ul class="services">{"".join(available)}</ul></section>
<section aria-labelledby="planned"><h2 id="planned">Planned ({len(planned)})</h2>
<ul class="services">{"".join(planned)}</ul></section>
</main>
<footer><p class="muted">twlookup {escape(version)}. Docs run Swagger UI (Apache License 2.0) served from this server.</p></footer>"""
    return _page("twlookup: Taiwan lookup services", "", body)


def _example(op: Any, base: str, here: str) -> str:
    """A curl line for the operation; required parameters without a fixed choice stay placeholders."""
    schema = op.params.model_json_schema()
    props = schema.get("properties", {})
    values: dict[str, Any] = {}
    placeholders: set[str] = set()
    for name in schema.get("required", []):
        choices = op.allowed.get(name)
        if isinstance(choices, list) and choices:
            values[name] = choices[0]
        elif "default" in props.get(name, {}):
            values[name] = props[name]["default"]
        else:
            values[name] = f"<{name}>"
            placeholders.add(name)

    def text(name: str) -> str:
        return values[name] if name in placeholders else quote(str(values[name]), safe="")

    path = op.path
    for name in op.path_params:  # a path parameter is always given, required in its schema or not
        path = path.replace("{" + name + "}", text(name) if name in values else f"<{name}>")
        values.pop(name, None)
    url = f"{here}{base}{path}"
    if op.method == "GET":
        query = "&".join(f"{name}={text(name)}" for name in values)
        return f"curl '{url}{'?' + query if query else ''}'"
    body = json.dumps(values, ensure_ascii=False)
    return f"curl -X POST -H 'Content-Type: application/json' -d '{body}' '{url}'"


def service_html(request: Request, listing: ServiceListing, zh: str) -> HTMLResponse:
    service = listing.service
    base = request.scope.get("root_path", "")
    here = origin(request)
    settings = listing.settings

    tool_of = {id(op): name for name, op in listing.tools.items()}  # paid routes are pro_* tools too

    def route_item(op: Any) -> str:
        name = tool_of.get(id(op))
        tool = f" · MCP tool <code>{escape(name)}</code>" if name else ""
        price = ""
        if op.paid:
            price = f" · {escape(listing.prices[op.path])} ({escape(sale_words(listing.sale_state(op)))})"
        md = ""
        if op.markdown:
            needs = op.path_params or op.params.model_json_schema().get("required")
            md = (
                f" · also as Markdown at <code>{escape(base + op.path)}.md</code>"
                if needs
                else f' · <a href="{escape(base + op.path)}.md">Markdown page</a>'
            )
        example = _example(op, base, here)
        return (
            f"<li><code>{escape(op.method)} {escape(base + op.path)}</code>{price}{tool}{md}"
            f"<br>{escape(op.summary)}"
            f'<pre data-copy aria-label="Example call of {escape(op.path)}" tabindex="0">{escape(example)}</pre></li>'
        )

    tools = "".join(
        f"<li><code>{escape(name)}</code>: {escape(op.summary)}"
        + (f" ({escape(listing.prices[op.path])} by x402)" if op.paid else "")
        + "</li>"
        for name, op in listing.tools.items()
    )
    texts = "".join(f'<li><a href="{escape(base + p)}">{escape(base + p)}</a></li>' for p in service.text_routes)
    notice = f"<p><strong>{escape(service.notice)}</strong></p>" if service.notice else ""
    free = [op for op in service.operations if not op.paid]
    paid = [op for op in service.operations if op.paid]
    paid_note = (
        f"Paid with x402 in {escape(' or '.join(networks(listing)))}; without payment a paid route "
        f"answers 402 with what to pay. A paid route whose data is sample, empty or older than twice its "
        f"feed's cadence is not for sale: it answers 503 before asking for payment. {escape(_payment_note(settings))}"
        if paid
        else "None."
    )
    home = '<p><a href="/">All twlookup services</a></p>' if base else ""  # a service's own host has no index
    body = f"""<header>
{home}
<h1>{escape(service.name)} {_zh(zh)}</h1>
<p>{escape(service.title)}. {escape(service.description)}</p>
{notice}
<nav class="links" aria-label="{escape(service.name)} links"><a href="{escape(base)}/docs">API docs</a><a href="{escape(base)}/openapi.json">OpenAPI</a><a href="{escape(base)}/api/pro">Paid routes (JSON)</a></nav>
</header>
<main id="main">
<p class="muted">Clients asking for JSON get this summary as JSON at <code>{escape(here + base)}/</code>.</p>
<h2>MCP</h2>
<p>Endpoint <code>{escape(here + base)}/mcp</code> (Streamable HTTP, JSON-RPC 2.0). A client configuration:</p>
<pre data-copy aria-label="MCP configuration" tabindex="0">{escape(mcp_snippet(service.name, here + base + "/mcp"))}</pre>
<h3>Tools</h3>
<ul class="routes">{tools or "<li>None.</li>"}</ul>
<h2>Free routes</h2>
<p class="muted">Placeholders in angle brackets stand for values you choose; the docs list what each parameter accepts.</p>
<ul class="routes">{"".join(route_item(op) for op in free)}</ul>
{"<h3>Text pages</h3><ul class='routes'>" + texts + "</ul>" if texts else ""}
<h2>Paid routes</h2>
<p>{paid_note}</p>
<ul class="routes">{"".join(route_item(op) for op in paid)}</ul>
</main>
<footer><p class="muted">twlookup {escape(service.name)}. Docs run Swagger UI (Apache License 2.0) served from this server.</p></footer>"""
    return _page(f"twlookup {service.name}: {service.title}", base, body)
