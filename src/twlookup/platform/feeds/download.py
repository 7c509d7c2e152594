"""The download client of feed refreshes: httpx with a timeout, retries with back-off, a size cap and
conditional requests.

This is not the safe fetcher of user-given URLs (`platform.fetch`): the URLs here are the code's
own, naming official publishers, so no address checks are made. The bounds are of the same kind:
http(s) only, at most five redirects, a bound on each download, a cap on the bytes read (after
decoding, so a compressed body cannot expand past it), no cookies kept, and a body shorter than
its Content-Length is refused as truncated. Retries cover what may pass (a network error, a 5xx,
a 429), waiting `backoff` seconds and doubling each time (a Retry-After in seconds is followed up
to the longest wait); a 4xx other than 429 is not retried.
"""

from __future__ import annotations

import email.utils
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from twlookup.platform.feeds.fetched import Fetched
from twlookup.platform.tls import client_context

if TYPE_CHECKING:
    import httpx

RETRY_STATUS = {429, 500, 502, 503, 504}
MAX_REDIRECTS = 5


class DownloadError(Exception):
    """A download that did not give a usable file (after its retries), in words."""


@dataclass(frozen=True)
class Bounds:
    timeout: float = 60.0
    max_bytes: int = 33_554_432
    retries: int = 2
    backoff: float = 2.0
    backoff_max: float = 60.0
    user_agent: str = "twlookup-feeds/0.1"

    @classmethod
    def from_settings(cls, settings: Any) -> Bounds:
        return cls(
            timeout=settings.feeds_timeout_seconds,
            max_bytes=settings.feeds_max_bytes,
            retries=settings.feeds_retries,
            backoff=settings.feeds_backoff_seconds,
            backoff_max=settings.feeds_backoff_max_seconds,
            user_agent=settings.feeds_user_agent,
        )


@dataclass(frozen=True)
class Answer:
    status: int  # 200, or 304 (not modified)
    body: bytes
    url: str
    etag: str | None
    last_modified: str | None
    filename: str | None  # from Content-Disposition


class Fetcher:
    """Downloads with the bounds; `sleep` is injectable so that tests of retries do not wait."""

    def __init__(
        self,
        bounds: Bounds,
        *,
        max_bytes: int | None = None,
        sleep: Callable[[float], None] = time.sleep,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        import httpx  # imported by the first download, not when the app starts

        self.bounds = bounds
        self.max_bytes = max(bounds.max_bytes, max_bytes or 0)
        self.sleep = sleep
        self.client = httpx.Client(
            headers={"User-Agent": bounds.user_agent, "Accept-Encoding": "gzip, deflate"},
            timeout=httpx.Timeout(bounds.timeout, connect=min(bounds.timeout, 15.0)),
            follow_redirects=True,
            max_redirects=MAX_REDIRECTS,
            transport=transport,
            verify=client_context(trust_env=True),
        )

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def get(
        self,
        url: str,
        *,
        params: dict[str, str] | None = None,
        etag: str | None = None,
        last_modified: str | None = None,
    ) -> Answer:
        """GET with retries; a 304 answers with an empty body when validators were sent."""
        import httpx

        if urlsplit(url).scheme not in ("http", "https"):
            raise DownloadError(f"{url}: only http and https URLs are fetched")
        headers: dict[str, str] = {}
        if etag:
            headers["If-None-Match"] = etag
        if last_modified:
            headers["If-Modified-Since"] = last_modified
        attempts = self.bounds.retries + 1
        wait = self.bounds.backoff
        last = ""
        for attempt in range(1, attempts + 1):
            retry_after: float | None = None
            try:
                return self._once(url, params, headers)
            except _Retryable as exc:
                last, retry_after = str(exc), exc.retry_after
            except (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError) as exc:
                last = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            if attempt < attempts:
                delay = min(retry_after if retry_after is not None else wait, self.bounds.backoff_max)
                self.sleep(delay)
                wait *= 2
        tries = f"{attempts} tries" if attempts > 1 else "1 try"
        raise DownloadError(f"{_host(url)}: {last} ({tries})")

    def _once(self, url: str, params: dict[str, str] | None, headers: dict[str, str]) -> Answer:
        import httpx

        deadline = time.monotonic() + self.bounds.timeout
        try:
            with self.client.stream("GET", url, params=params, headers=headers) as response:
                if response.status_code in RETRY_STATUS:
                    raise _Retryable(f"HTTP {response.status_code}", _retry_after(response))
                if response.status_code == 304 and headers:
                    return self._answer(response, b"")
                if response.status_code != 200:
                    raise DownloadError(f"{_host(url)}: HTTP {response.status_code} for {response.url}")
                declared = _int(response.headers.get("content-length"))
                if declared is not None and declared > self.max_bytes and "content-encoding" not in response.headers:
                    raise DownloadError(f"{_host(url)}: the file is {declared} bytes, over the cap of {self.max_bytes}")
                chunks: list[bytes] = []
                size = 0
                for chunk in response.iter_bytes():
                    size += len(chunk)
                    if size > self.max_bytes:
                        raise DownloadError(f"{_host(url)}: the file is over the cap of {self.max_bytes} bytes")
                    if time.monotonic() > deadline:
                        raise httpx.ReadTimeout(f"the download took over {self.bounds.timeout:g} s")
                    chunks.append(chunk)
                if declared is not None and response.num_bytes_downloaded < declared:
                    raise _Retryable(
                        f"truncated body: {response.num_bytes_downloaded} of the {declared} bytes announced", None
                    )
                return self._answer(response, b"".join(chunks))
        except httpx.TooManyRedirects:
            raise DownloadError(f"{_host(url)}: more than {MAX_REDIRECTS} redirects") from None

    @staticmethod
    def _answer(response: httpx.Response, body: bytes) -> Answer:
        return Answer(
            status=response.status_code,
            body=body,
            url=str(response.url),
            etag=response.headers.get("etag"),
            last_modified=response.headers.get("last-modified"),
            filename=_disposition_name(response.headers.get("content-disposition")),
        )

    def fetch_one(
        self, url: str, filename: str, etag: str | None, last_modified: str | None, publisher_name: bool = False
    ) -> Fetched | None:
        """The file at `url`, or None when the publisher says it is not modified. It is named
        `filename`, or with `publisher_name` the name its Content-Disposition gives, if any."""
        answer = self.get(url, etag=etag, last_modified=last_modified)
        if answer.status == 304:
            return None
        return Fetched(
            body=answer.body,
            filename=(answer.filename if publisher_name else None) or filename,
            etag=answer.etag,
            last_modified=answer.last_modified,
            url=answer.url,
        )


class _Retryable(Exception):
    def __init__(self, message: str, retry_after: float | None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def _host(url: str) -> str:
    return urlsplit(url).hostname or url


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if not value:
        return None
    if value.strip().isdigit():
        return float(value.strip())
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - datetime.now(UTC)).total_seconds())


SAFE_NAME = re.compile(r"[^A-Za-z0-9@._+-]")


def _disposition_name(value: str | None) -> str | None:
    """The file name a Content-Disposition header gives, reduced to a plain base name."""
    if not value:
        return None
    match = re.search(r"filename\*\s*=\s*[^']*'[^']*'([^;]+)", value, re.I) or re.search(
        r'filename\s*=\s*"?([^";]+)"?', value, re.I
    )
    if not match:
        return None
    name = unquote(match.group(1).strip()).replace("\\", "/").rsplit("/", 1)[-1]
    name = SAFE_NAME.sub("_", name)[:120].lstrip(".")
    return name or None
