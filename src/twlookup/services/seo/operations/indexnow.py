"""The seo service's IndexNow (instantindex) tools: a new key, and submitting changed URLs."""

from __future__ import annotations

import secrets
from typing import Any

from twlookup.platform.errors import InvalidParameter, Problem
from twlookup.platform.operations import NoParams
from twlookup.platform.schemas import Source
from twlookup.platform.tls import client_context
from twlookup.services.seo.logic import indexnow
from twlookup.services.seo.operations.service import CHECKED, SERVICE
from twlookup.services.seo.schemas import (
    BulkSubmitBody,
    InstantKey,
    SubmitBody,
    SubmitResult,
)

INDEXNOW_SOURCE = Source(
    url="https://www.indexnow.org/documentation",
    title="IndexNow documentation (key format, key file, POST of up to 10,000 URLs, response codes); the key-file "
    "folder scope as Yandex documents it: https://yandex.ru/support/webmaster/indexnow/key.html",
    checked=CHECKED,
)


@SERVICE.operation("GET", "/api/instantindex/key", varies=True)  # a new key each call
def instantindex_key(p: NoParams) -> InstantKey:
    """A new IndexNow key (32 hexadecimal characters) and where its key file goes."""
    key = secrets.token_hex(16)
    return InstantKey(
        key=key,
        key_file=f"/{key}.txt",
        content=key,
        steps=[
            f"Save a UTF-8 text file named {key}.txt containing only the key at the root of the site.",
            "Check that https://{host}/" + key + ".txt answers 200 with the key.",
            "Submit URLs with POST /api/instantindex {host, key, urls}.",
        ],
        source=INDEXNOW_SOURCE,
    )


def _check_submission(p: SubmitBody) -> None:
    host = p.host.lower()
    if p.key_location and indexnow.url_host(p.key_location) != host:
        raise InvalidParameter("key_location", f"the key file must be on host {host}", f"https://{host}/...")
    scope = indexnow.key_scope(p.key_location) if p.key_location else "/"
    for i, url in enumerate(p.urls):
        if indexnow.url_host(url) != host:
            raise InvalidParameter(f"urls[{i}]", f"{url!r} is not an http(s) URL on host {host}", f"URLs on {host}")
        if not indexnow.url_path(url).startswith(scope):
            raise InvalidParameter(
                f"urls[{i}]",
                f"{url!r} is outside {scope}, the folder of key_location: a key file outside the root "
                "only covers URLs in its own folder",
                f"URLs under https://{host}{scope}",
            )


async def _submit(p: SubmitBody) -> SubmitResult:
    import httpx  # imported when first used, not when the app starts

    from twlookup.settings import get_settings

    _check_submission(p)
    settings = get_settings()
    endpoint = settings.indexnow_endpoint
    upstream = httpx.URL(endpoint).host
    out: list[dict[str, Any]] = []
    async with httpx.AsyncClient(
        timeout=settings.indexnow_timeout_seconds, trust_env=False, verify=client_context()
    ) as client:
        for batch in indexnow.batches(list(p.urls)):
            body: dict[str, Any] = {"host": p.host.lower(), "key": p.key, "urlList": batch}
            if p.key_location:
                body["keyLocation"] = p.key_location
            try:
                response = await client.post(
                    endpoint, json=body, headers={"Content-Type": "application/json; charset=utf-8"}
                )
            except httpx.HTTPError as exc:
                raise Problem(
                    503,
                    f"IndexNow endpoint {upstream} could not be reached ({type(exc).__name__}).",
                    kind="upstream-unavailable",
                    headers={"Retry-After": "30"},
                    extra={"upstream": upstream},
                ) from None
            code = response.status_code
            meaning = indexnow.INDEXNOW_CODES.get(code, f"Unexpected answer {code}.")
            if code == 429 or code >= 500:
                raise Problem(
                    503,
                    f"IndexNow endpoint {upstream} answered {code}: {meaning}",
                    kind="upstream-unavailable",
                    headers={"Retry-After": response.headers.get("retry-after", "60")},
                    extra={"upstream": upstream},
                )
            if code in (400, 403, 422):
                param = "key" if code == 403 else "urls"
                raise Problem(
                    422,
                    f"{param}: IndexNow endpoint {upstream} answered {code}: {meaning}",
                    kind="invalid-parameter",
                    errors=[{"parameter": param, "message": meaning, "upstream_status": code}],
                )
            out.append({"urls": len(batch), "status": code, "meaning": meaning})
    return SubmitResult(
        endpoint=endpoint,
        host=p.host.lower(),
        submitted=len(p.urls),
        batches=out,
        meaning=out[-1]["meaning"] if out else "",
        source=INDEXNOW_SOURCE,
    )


@SERVICE.operation("POST", "/api/instantindex", tool="instant_index_submit", writes=True)
async def instantindex(p: SubmitBody) -> SubmitResult:
    """Submit up to 100 changed URLs of one host to IndexNow (the key file must be on the site)."""
    return await _submit(p)


@SERVICE.operation(
    "POST",
    "/api/pro/instantindex-bulk",
    price="$0.01",
    example={"host": "example.com", "key": "abcdef0123456789", "urls": ["https://example.com/a"]},
    writes=True,
)
async def instantindex_bulk(p: BulkSubmitBody) -> SubmitResult:
    """Submit up to 10,000 URLs of one host to IndexNow, in the protocol's batches."""
    return await _submit(p)
