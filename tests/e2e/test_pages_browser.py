"""The pages for people in a real browser (Debian's Chromium driven by Playwright), network closed.

Every request to an origin other than the test server is aborted and recorded; the test fails if
any page asked for one, logged a console error or threw. `/`, a service page and a docs page must
render (the docs page lists the service's operations and runs one with "Try it out"), `/` must
pass an axe-core scan with no serious or critical violation, and no page may be wider than a
phone's screen. Screenshots at desktop and phone width go to test-artefacts/pages/ (gitignored;
TWLOOKUP_TEST_ARTEFACTS moves it). Skips, saying why, where Chromium, Playwright or axe-core
cannot be had.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from browser_tools import CHROMIUM, CHROMIUM_ARGS, ensure_axe, ensure_chromium, ensure_cjk_font

from twlookup.services import CATALOG, IMPLEMENTED, load_services

ARTEFACTS = (
    Path(os.environ.get("TWLOOKUP_TEST_ARTEFACTS", Path(__file__).resolve().parents[2] / "test-artefacts")) / "pages"
)
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright Python package is not installed (pip install -e '.[dev]')")
    why = ensure_chromium()
    if why:
        pytest.skip(why)
    ensure_cjk_font()
    with sync_playwright() as p:
        try:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        except Exception as exc:  # a Chromium that will not start here: say so rather than fail
            pytest.skip(f"Chromium at {CHROMIUM} did not start under Playwright: {exc}")
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def axe_source() -> str:
    source, why = ensure_axe()
    if source is None:
        pytest.skip(why or "axe-core unavailable")
    return source


class Visit:
    """One browser context with the network closed to everything but the test server."""

    def __init__(self, browser, live_url: str, viewport: dict[str, int], color_scheme: str = "light") -> None:
        self.origin = live_url
        self.foreign: list[str] = []
        self.errors: list[str] = []
        self.context = browser.new_context(viewport=viewport, color_scheme=color_scheme, service_workers="block")
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("console", lambda msg: msg.type == "error" and self.errors.append(f"console: {msg.text}"))
        self.page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        self.page.on("requestfailed", self._failed)

    def _route(self, route) -> None:
        url = route.request.url
        parts = urlsplit(url)
        if f"{parts.scheme}://{parts.netloc}" == self.origin or parts.scheme in ("data", "blob"):
            route.continue_()
        else:
            self.foreign.append(url)
            route.abort("blockedbyclient")

    def _failed(self, request) -> None:
        if request.url.startswith(self.origin):
            self.errors.append(f"request failed: {request.url} {request.failure}")

    def open(self, path: str) -> None:
        response = self.page.goto(self.origin + path, wait_until="load")
        assert response is not None and response.status == 200, (path, response and response.status)

    def shot(self, name: str) -> None:
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(ARTEFACTS / f"{name}.png"), full_page=True)

    def fits(self) -> bool:
        return self.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    def close(self) -> None:
        self.context.close()


def assert_accessible(page, axe_source: str) -> None:
    """axe-core finds no serious or critical violation on the page."""
    page.evaluate(axe_source)  # through the DevTools protocol: the page's CSP does not apply
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    assert result["testEngine"]["version"]
    bad = [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not bad, bad


def test_index_renders_and_passes_axe(browser, axe_source, live_url):
    for label, viewport, scheme in (
        ("desktop", DESKTOP, "light"),
        ("phone", PHONE, "light"),
        ("desktop-dark", DESKTOP, "dark"),
    ):
        visit = Visit(browser, live_url, viewport, scheme)
        try:
            visit.open("/")
            page = visit.page
            assert page.title() == "twlookup: Taiwan lookup services"
            assert page.locator("h1").inner_text() == "twlookup"
            assert page.locator("#available + ul.services > li").count() == len(IMPLEMENTED)
            assert page.locator("#planned + ul.services > li").count() == len(CATALOG) - len(IMPLEMENTED)
            for entry in CATALOG:
                heading = page.locator(f"h3#{entry.name}")
                assert entry.zh in heading.inner_text()
                state = "available" if entry.name in IMPLEMENTED else "planned"
                assert heading.locator(".state").inner_text() == state
            assert page.locator('a[href="/models/docs"]').count() == 1
            page.locator("details:has(pre[data-copy])").first.locator("summary").click()
            assert page.locator("button.copy").count() >= len(IMPLEMENTED)  # the script added copy buttons
            assert visit.fits(), f"/ is wider than the {label} viewport"
            visit.shot(f"index-{label}")
            if label.startswith("desktop"):  # light and dark colours
                assert_accessible(page, axe_source)
            assert visit.foreign == [], visit.foreign
            assert visit.errors == [], visit.errors
        finally:
            visit.close()


def test_service_page_renders(browser, axe_source, live_url):
    service = next(s for s in load_services() if s.name == "models")
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        visit = Visit(browser, live_url, viewport)
        try:
            visit.open("/models/")
            page = visit.page
            assert "models" in page.locator("h1").inner_text()
            assert "AI 模型退役時程" in page.locator("h1").inner_text()
            text = page.locator("main").inner_text()
            for op in service.operations:
                assert f"{op.method} /models{op.path}" in text
            for op in service.tools:
                assert op.tool in text
            assert f"curl '{live_url}/models/api/models'" in text
            assert f'"url": "{live_url}/models/mcp"' in text
            assert visit.fits(), f"/models/ is wider than the {label} viewport"
            visit.shot(f"service-models-{label}")
            if label == "desktop":
                assert_accessible(page, axe_source)
            page.locator('a:text-is("API docs")').click()
            page.wait_for_url(f"{live_url}/models/docs")
            assert visit.foreign == [], visit.foreign
            assert visit.errors == [], visit.errors
        finally:
            visit.close()


def test_docs_page_lists_operations_and_tries_one(browser, live_url):
    service = next(s for s in load_services() if s.name == "models")
    for label, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        visit = Visit(browser, live_url, viewport)
        try:
            visit.open("/models/docs")
            page = visit.page
            try:
                page.wait_for_selector(".opblock", timeout=15_000)
            except Exception as exc:
                raise AssertionError(
                    f"docs did not render: {exc}; other origins asked: {visit.foreign}; {visit.errors}"
                ) from exc
            shown = page.locator(".opblock-summary-path").all_inner_texts()
            for op in service.operations:
                assert any(p.replace("\u200b", "").strip() == op.path for p in shown), (op.path, shown)
            visit.shot(f"docs-models-{label}")
            if label == "desktop":
                block = page.locator(
                    "#operations-models-list_models, .opblock-get:has([data-path='/api/models'])"
                ).first
                block.locator(".opblock-summary").first.click()
                block.locator("button.try-out__btn").click()
                block.locator("button.execute").click()
                status = block.locator(".live-responses-table tbody .response-col_status").first
                status.wait_for(timeout=15_000)
                assert status.inner_text().strip() == "200"
                assert '"models"' in block.locator(".live-responses-table .microlight").first.inner_text()
                visit.shot("docs-models-tried")
            assert visit.foreign == [], visit.foreign
            assert visit.errors == [], visit.errors
        finally:
            visit.close()


def test_index_docs_page_renders(browser, live_url):
    visit = Visit(browser, live_url, DESKTOP)
    try:
        visit.open("/docs")
        visit.page.wait_for_selector(".opblock", timeout=15_000)
        shown = {p.replace("\u200b", "").strip() for p in visit.page.locator(".opblock-summary-path").all_inner_texts()}
        assert shown == {"/", "/healthz"}
        assert visit.foreign == [], visit.foreign
        assert visit.errors == [], visit.errors
    finally:
        visit.close()
