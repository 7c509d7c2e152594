"""CORS for the services the spec calls cross-origin, through Starlette's pure-ASGI middleware."""

from __future__ import annotations

from typing import Any

from starlette.middleware.cors import CORSMiddleware


def with_cors(app: Any) -> Any:
    return CORSMiddleware(
        app,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "OPTIONS"],
        allow_headers=["*"],
        expose_headers=["PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "Retry-After", "RateLimit-Limit", "RateLimit-Reset"],
        max_age=600,
    )
