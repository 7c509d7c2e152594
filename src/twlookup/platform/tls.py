"""One TLS client context per process for every outbound HTTPS client.

Building a context loads the certificate authorities (certifi's bundle): about 15 ms of CPU each
time. httpx builds one for every client and transport it creates unless it is handed one, so a
route that calls out (the safe fetcher, IndexNow, the company register, the knowledge base) paid
that on every call, the fetcher twice. A context is safe to share between clients, connections and
threads; it is built on first use.
"""

from __future__ import annotations

import ssl
from functools import cache


@cache
def client_context(trust_env: bool = False) -> ssl.SSLContext:
    """httpx's default verifying context (certifi's authorities). `trust_env`: also honour
    SSL_CERT_FILE and SSL_CERT_DIR, as an httpx client with trust_env does by default."""
    import httpx  # imported by the first outbound call, not at start

    from twlookup.startup import long_lived

    context = httpx.create_ssl_context(trust_env=trust_env)
    long_lived()  # the HTTP client's modules and the authorities stay for good: out of the collector's scans
    return context
