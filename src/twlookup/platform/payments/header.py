"""Reading a PAYMENT-SIGNATURE (or X-PAYMENT) header into an x402 version 2 payload, or the
x402 reason and sentence why not.

Hostile headers are stopped before the expensive steps: the header's size is checked before it
is decoded at all (a real payment header echoes the 402's discovery metadata and stays under
about 35 KB), and the JSON's nesting depth is counted before `json.loads` sees it, so the
decoder's depth is bounded here, not by the interpreter's recursion limit (which a dependency
may raise; see platform/payments/sdk.py). `x402Version` must be the JSON integer 2: the SDK's
model would take the string "2" (or nothing) as 2.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from twlookup.platform.payments.payload import validated_payload

if TYPE_CHECKING:
    from x402 import PaymentPayload

# A real payload nests about a dozen levels (its discovery schemas included); deeper is hostile.
MAX_DEPTH = 64
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # a run at a time, not a character at a time
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}

Refusal = tuple[str, str]


def nesting_depth(text: str, stop: int = MAX_DEPTH) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets inside strings do not
    count); a depth past `stop` is given as `stop + 1`. Linear in the text, no recursion: the
    strings and everything but brackets are cut out by two regular expressions, and the depth is
    a running sum over what is left (the header's size is bounded before this is called)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    deepest = max(accumulate(map(_STEP.__getitem__, brackets)), default=0)
    return min(max(deepest, 0), stop + 1)


def decode_payment_header(raw: bytes, limit: int) -> tuple[PaymentPayload | None, Refusal]:
    """The header as a version 2 payload and ("", ""), or None and the x402 reason and sentence."""
    if len(raw) > limit:
        return None, ("invalid_payload", f"the payment header is {len(raw)} bytes; at most {limit} are accepted.")
    try:
        text = base64.b64decode(raw, validate=True).decode("utf-8")
    except (binascii.Error, ValueError):
        return None, ("invalid_payload", "the payment header is not a base64 JSON x402 payload (not base64 UTF-8).")
    if nesting_depth(text) > MAX_DEPTH:
        return None, ("invalid_payload", f"the payment header nests deeper than {MAX_DEPTH} levels.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None, ("invalid_payload", "the payment header is not a base64 JSON x402 payload (not JSON).")
    if not isinstance(data, dict):
        return None, ("invalid_payload", "the payment header is not a base64 JSON x402 payload (not a JSON object).")
    version = data.get("x402Version")
    if type(version) is not int or version != 2:
        return None, (
            "invalid_x402_version",
            f"x402Version must be the JSON integer 2; this payload has {_shown(version)}.",
        )
    return validated_payload(data, "the payment header")


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, str):
        return f"the string {json.dumps(value[:20])}"
    if isinstance(value, bool | int | float):
        return json.dumps(value)
    return f"a JSON {'array' if isinstance(value, list) else 'object'}"
