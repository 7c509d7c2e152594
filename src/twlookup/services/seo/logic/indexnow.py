"""IndexNow submissions: the key's form, the key file's scope, batches and what each answer code
means. Pure functions."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

INDEXNOW_KEY = re.compile(r"^[A-Za-z0-9-]{8,128}$")
INDEXNOW_BATCH = 10_000  # URLs per POST in the protocol
INDEXNOW_CODES = {
    200: "OK: the URLs were submitted.",
    202: "Accepted: the URLs were received; the key is still being validated.",
    400: "Bad request: the format is invalid.",
    403: "Forbidden: the key is not valid (the key file was not found, or its content is not the key).",
    422: "Unprocessable: the URLs do not belong to the host, or the key does not match the protocol's schema.",
    429: "Too many requests: the endpoint suspects spam; submit less often.",
}


def url_host(url: str) -> str | None:
    try:
        parts = urlsplit(url)
        hostname = parts.hostname
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not hostname:
        return None
    return hostname.lower()


def url_path(url: str) -> str:
    return urlsplit(url).path or "/"


def key_scope(key_location: str) -> str:
    """The folder a key file covers: a key at /catalog/key.txt is valid for URLs under /catalog/ only."""
    path = url_path(key_location)
    return path[: path.rfind("/") + 1] or "/"


def batches(items: list[str], size: int = INDEXNOW_BATCH) -> list[list[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)]
