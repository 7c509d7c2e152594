"""Outbound HTTPS clients share one TLS context per process: building one loads the certificate
authorities (about 15 ms of CPU), which the safe fetcher paid twice on every fetch."""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from twlookup.platform import tls
from twlookup.platform.feeds.download import Bounds, Fetcher
from twlookup.platform.fetch_transport import PinnedTransport


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Each verifying context built (httpx builds them with ssl.create_default_context, which loads
    certifi's authorities or the environment's SSL_CERT_FILE / SSL_CERT_DIR)."""
    calls: list[str] = []
    create = ssl.create_default_context

    def counted(*args: Any, **kwargs: Any) -> ssl.SSLContext:
        calls.append("load")
        return create(*args, **kwargs)

    tls.client_context.cache_clear()
    monkeypatch.setattr(ssl, "create_default_context", counted)
    yield calls
    tls.client_context.cache_clear()


def test_fetches_and_feed_downloads_share_one_context_each(loads):
    transports = [PinnedTransport() for _ in range(3)]  # one per safe fetch
    fetchers = [Fetcher(Bounds()) for _ in range(2)]  # one per feed refresh run
    for fetcher in fetchers:
        fetcher.close()
    assert len(loads) == 2  # one context without the environment's CA settings, one with them
    assert transports[0]._pool._ssl_context is transports[2]._pool._ssl_context is tls.client_context()


def test_the_shared_context_verifies_certificates_and_host_names():
    context = tls.client_context()
    assert context.verify_mode.name == "CERT_REQUIRED" and context.check_hostname
    assert context.get_ca_certs()  # the authorities are loaded


def test_an_own_client_with_the_shared_context_loads_nothing_more(loads):
    tls.client_context()
    assert len(loads) == 1
    for _ in range(3):
        httpx.AsyncClient(verify=tls.client_context(), trust_env=False)
    assert len(loads) == 1
