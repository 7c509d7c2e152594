"""Passes: a signed, expiring token bought once with x402 that lifts a service's free quota.

Services with a per-minute free quota (the spec's food service) let a client go past that quota
either by paying each call with x402 or by showing a pass: `Authorization: Bearer <pass>`. A pass
is `twp1.<payload>.<signature>`, the payload being base64url JSON {"exp": unix seconds, "jti":
random id} and the signature HMAC-SHA256 over it with the deployment's pass key. The key is
TWLOOKUP_PASS_SECRET, or, when unset, a random key created once in the store, so every process
sharing the store accepts the passes any of them sold and a key change voids them all.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

import orjson
from sqlalchemy.exc import IntegrityError

from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.meta import StoreMeta

PREFIX = "twp1"
STORE_KEY = "pass_secret"


@dataclass(frozen=True)
class Pass:
    token: str
    expires_at: int  # unix seconds
    pass_id: str


class PassRefused(Exception):
    """The token shown is not a valid, current pass; the message says which."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def stored_secret() -> bytes:
    """The pass key kept in the store, created on first use (the first writer wins a race)."""
    with store_engine.session() as session:
        row = session.get(StoreMeta, STORE_KEY)
        if row is None:
            session.add(StoreMeta(key=STORE_KEY, value=secrets.token_hex(32)))
            try:
                session.commit()
            except IntegrityError:
                session.rollback()
            row = session.get(StoreMeta, STORE_KEY, populate_existing=True)
        assert row is not None
        return bytes.fromhex(row.value)


class PassBook:
    def __init__(self, secret: str | None, hours: int) -> None:
        self._secret = secret.encode() if secret else None
        self.hours = hours

    @property
    def secret(self) -> bytes:
        if self._secret is None:
            self._secret = stored_secret()
        return self._secret

    async def check_async(self, token: str) -> Pass:
        """`check` from the event loop: the first use reads the key from the store in a worker
        thread, bounded, so a stalled store answers 503 instead of freezing the process."""
        if self._secret is None:
            from twlookup.platform.operations import read_store

            await read_store(lambda: self.secret)
        return self.check(token)

    def _sign(self, payload: str) -> str:
        return _b64(hmac.new(self.secret, payload.encode(), hashlib.sha256).digest())

    def issue(self, now: float | None = None) -> Pass:
        now = time.time() if now is None else now
        expires = int(now) + self.hours * 3600
        jti = secrets.token_hex(8)
        payload = _b64(orjson.dumps({"exp": expires, "jti": jti}))
        return Pass(f"{PREFIX}.{payload}.{self._sign(payload)}", expires, jti)

    def check(self, token: str, now: float | None = None) -> Pass:
        """The pass, or PassRefused saying why it is not accepted."""
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != PREFIX:
            raise PassRefused("not a twlookup pass (expected twp1.<payload>.<signature>)")
        _, payload, signature = parts
        if not hmac.compare_digest(signature, self._sign(payload)):
            raise PassRefused("the pass signature does not verify on this server")
        try:
            data = orjson.loads(_unb64(payload))
            expires, jti = int(data["exp"]), str(data["jti"])
        except (ValueError, KeyError, TypeError, orjson.JSONDecodeError):
            raise PassRefused("the pass payload is unreadable") from None
        now = time.time() if now is None else now
        if now >= expires:
            raise PassRefused(f"the pass expired at {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(expires))}")
        return Pass(token, expires, jti)
