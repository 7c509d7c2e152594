"""What the pages load, all from this origin: Swagger UI, the pages' style and scripts, the docs page.

Swagger UI's files come from the `fastapi-offline` package (MIT; it bundles Swagger UI, Apache
License 2.0). Every page of twlookup and every service serves them at `<base>/docs/assets/<name>`
(a service at its own host included), with a day's caching.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from importlib.resources import files

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from twlookup.platform.errors import Problem

_SWAGGER = files("fastapi_offline") / "static"
ASSET_CACHE = "public, max-age=86400"
# Swagger UI sets inline styles and uses data: images (icons); it fetches only this origin.
DOCS_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
STYLE = """
:root{color-scheme:light dark;--fg:#1b1b1b;--bg:#fff;--muted:#4a4a4a;--line:#c8c8c8;--link:#0b57b0;--code:#f3f3f3;--ok:#0f6b2f;--plan:#5a5a5a}
@media (prefers-color-scheme:dark){:root{--fg:#ececec;--bg:#141414;--muted:#c2c2c2;--line:#4a4a4a;--link:#8ab8ff;--code:#242424;--ok:#7fdc9a;--plan:#bdbdbd}}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans TC","PingFang TC",sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:60rem;margin:0 auto;padding:0 1rem}
header{padding-top:1.5rem}
h1{font-size:1.8rem;margin:.2rem 0}
h2{font-size:1.4rem;margin:1.5rem 0 .3rem}
h3{font-size:1.2rem;margin:1rem 0 .3rem}
ul.services h3{margin:0}
h4{font-size:1rem;margin:1rem 0 .3rem}
a{color:var(--link)}
a:focus-visible,button:focus-visible,summary:focus-visible,pre:focus-visible{outline:3px solid var(--link);outline-offset:2px}
.muted{color:var(--muted)}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.3rem}
ul.services{list-style:none;padding:0;margin:1rem 0}
ul.services>li{border-top:1px solid var(--line);padding:1rem 0}
.state{display:inline-block;font-size:.85rem;border:1px solid currentColor;border-radius:.3rem;padding:0 .4rem;margin-left:.4rem;vertical-align:middle}
.available{color:var(--ok)}.planned{color:var(--plan)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem .8rem;margin:.5rem 0}
dt{color:var(--muted)}dd{margin:0;min-width:0;overflow-wrap:anywhere}
nav.links a{margin-right:1rem;display:inline-block}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9rem}
code{overflow-wrap:anywhere}
pre{background:var(--code);padding:.6rem;border-radius:.3rem;white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0}
ul.routes{padding-left:1.2rem}ul.routes li{margin:.3rem 0}
details{margin:.5rem 0}summary{cursor:pointer}
button.copy{font:inherit;font-size:.85rem;padding:.1rem .6rem;margin:.2rem 0}
footer{border-top:1px solid var(--line);margin-top:2rem;padding-bottom:2rem}
"""

# Progressive enhancement only: a copy button beside each snippet.
COPY_SCRIPT = """
document.querySelectorAll("pre[data-copy]").forEach(function (pre) {
  if (!navigator.clipboard) return;
  var button = document.createElement("button");
  button.type = "button";
  button.className = "copy";
  button.textContent = "Copy";
  button.setAttribute("aria-label", "Copy " + (pre.getAttribute("aria-label") || "snippet"));
  button.addEventListener("click", function () {
    navigator.clipboard.writeText(pre.textContent).then(function () { button.textContent = "Copied"; });
  });
  pre.insertAdjacentElement("afterend", button);
});
"""

DOCS_SCRIPT = """
var element = document.getElementById("swagger-ui");
window.ui = SwaggerUIBundle({
  url: element.getAttribute("data-openapi"),
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset]
});
"""

TEXT_ASSETS = {
    "pages.css": (STYLE, "text/css; charset=utf-8"),
    "copy.js": (COPY_SCRIPT, "text/javascript; charset=utf-8"),
    "docs.js": (DOCS_SCRIPT, "text/javascript; charset=utf-8"),
}
FILE_ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon.png": "image/png",
}


def install_assets(app: FastAPI) -> None:
    """GET /docs/assets/<name>: Swagger UI's files and the pages' own style and script."""

    @app.get("/docs/assets/{name}", include_in_schema=False)
    def asset(name: str) -> Response:
        if name in TEXT_ASSETS:
            body, media_type = TEXT_ASSETS[name]
            return Response(body, media_type=media_type, headers={"Cache-Control": ASSET_CACHE})
        if name in FILE_ASSETS:
            path = _SWAGGER / name
            return FileResponse(str(path), media_type=FILE_ASSETS[name], headers={"Cache-Control": ASSET_CACHE})
        problem = Problem(404, f"No docs asset {name!r}; there are {', '.join(sorted([*TEXT_ASSETS, *FILE_ASSETS]))}.")
        return JSONResponse(problem.body(), status_code=404, media_type="application/problem+json")


def html_page(title: str, base: str, style: str, body: str, scripts: Sequence[str]) -> str:
    """A page of this site: its title, one style sheet, the body and its scripts, each file from
    `<base>/docs/assets` (this origin)."""
    assets = escape(f"{base}/docs/assets")
    tags = "".join(f'<script src="{assets}/{name}"></script>\n' for name in scripts)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<link rel="stylesheet" href="{assets}/{style}">
<link rel="icon" href="{assets}/favicon.png">
</head>
<body>
{body}
{tags}</body>
</html>
"""


def docs_page(base: str, title: str) -> HTMLResponse:
    """Swagger UI for the OpenAPI document at `<base>/openapi.json`, from this origin only."""
    openapi = escape(f"{base}/openapi.json")
    body = f"""<noscript><p>These interactive docs need JavaScript. The OpenAPI document is at
<a href="{openapi}">{openapi}</a>.</p></noscript>
<main id="swagger-ui" data-openapi="{openapi}"></main>"""
    page = html_page(f"{title}: API docs", base, "swagger-ui.css", body, ("swagger-ui-bundle.js", "docs.js"))
    return HTMLResponse(page, headers={"Content-Security-Policy": DOCS_CSP})
