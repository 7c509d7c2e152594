"""The shape of an x402 "exact" payment payload, checked before anything is asked of a
facilitator, and the sentence shown for each x402 reason code.

The SDK's models accept any JSON object as `payload.payload`; a facilitator handed one with a
number where a string belongs, or an amount that is not an integer, would fail in ways that
looked like its own fault (a 503). Here such a payment is the client's error: 402
`invalid_payload`, naming the field.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from x402 import PaymentPayload

ADDRESS = re.compile(r"^0x[0-9a-fA-F]{40}$")
HEX = re.compile(r"^0x[0-9a-fA-F]*$")
NONCE = re.compile(r"^0x[0-9a-fA-F]{64}$")
UINT = re.compile(r"^[0-9]{1,78}$")  # a uint256 in decimal
BASE64 = re.compile(r"^[A-Za-z0-9+/=]{1,20000}$")

EIP3009_FIELDS = {
    "from": ADDRESS,
    "to": ADDRESS,
    "value": UINT,
    "validAfter": UINT,
    "validBefore": UINT,
    "nonce": NONCE,
}

# The x402 reason codes a client may see, each with a sentence of ours (x402 specification v2,
# section "Error Handling", and the SDK's exact-EVM codes).
REASONS = {
    "invalid_payload": "the payment payload is malformed.",
    "invalid_x402_version": "send an x402 version 2 payload.",
    "invalid_payment_requirements": "the payment does not match what this route accepts.",
    "invalid_network": "the payment is for a network this route does not accept.",
    "invalid_scheme": "the payment uses a scheme this route does not accept.",
    "unsupported_scheme": "the facilitator does not settle this scheme on this network.",
    "insufficient_funds": "the payer's balance does not cover the price.",
    "invalid_exact_evm_insufficient_balance": "the payer's balance does not cover the price.",
    "invalid_exact_evm_payload_signature": "the signature does not match the authorization.",
    "invalid_exact_evm_payload_authorization_valid_before": "the authorization has expired; sign a new one.",
    "invalid_exact_evm_payload_authorization_valid_after": "the authorization is not valid yet.",
    "invalid_exact_evm_payload_authorization_value_mismatch": "the authorized amount differs from the price.",
    "invalid_exact_evm_payload_authorization_value": "the authorized amount differs from the price.",
    "invalid_exact_evm_payload_recipient_mismatch": "the authorization pays another receiver.",
    "invalid_exact_evm_nonce_already_used": "this authorization was already used; sign a new one.",
    "invalid_transaction_state": "the payment transaction failed.",
    "unexpected_verify_error": "the payment could not be verified.",
    "unexpected_settle_error": "the payment could not be settled; nothing was charged.",
}


INSUFFICIENT = frozenset({"insufficient_funds", "invalid_exact_evm_insufficient_balance"})


def reason_text(code: str) -> str:
    return REASONS.get(code, "the facilitator refused the payment.")


def refusal_text(code: str, network: str, local_ledger: bool) -> str:
    """The sentence for a refused payment; a balance too low names the network it is low on
    (services settle on different networks) and how to fund it."""
    if code not in INSUFFICIENT:
        return reason_text(code)
    how = (
        f"on this server's local test ledger: twlookup ledger fund ADDRESS AMOUNT --network {network}"
        if local_ledger
        else f"send USDC on {network} to the paying address"
    )
    return f"the payer's USDC balance on {network} does not cover the price; fund it ({how})."


def check_payload(payment: PaymentPayload) -> str | None:
    """None if the payload has the shape of the scheme and network it names, else what is wrong."""
    body: Any = payment.payload
    if not isinstance(body, dict):
        return "payload must be a JSON object."
    network = str(payment.accepted.network) if getattr(payment, "accepted", None) else ""
    if network.startswith("solana:"):
        tx = body.get("transaction")
        return None if isinstance(tx, str) and BASE64.match(tx) else "payload.transaction must be a base64 string."
    if "permit2Authorization" in body:
        return (
            None
            if isinstance(body["permit2Authorization"], dict)
            else "payload.permit2Authorization must be an object."
        )
    auth = body.get("authorization")
    if not isinstance(auth, dict):
        return "payload.authorization must be an object (EIP-3009 transferWithAuthorization)."
    for field, pattern in EIP3009_FIELDS.items():
        value = auth.get(field)
        if not isinstance(value, str) or not pattern.match(value):
            kind = "an integer in a string" if pattern is UINT else "a 0x hex string of the right length"
            return f"payload.authorization.{field} must be {kind}."
    signature = body.get("signature")
    if not isinstance(signature, str) or not HEX.match(signature) or len(signature) < 4:
        return "payload.signature must be a 0x hex string."
    return None


def validated_payload(data: dict[str, Any], what: str) -> tuple[PaymentPayload | None, tuple[str, str]]:
    """`data` (a version 2 JSON object) as a payload and ("", ""), or None and the x402 reason and
    sentence: `what` (the payment header, the payment) is not an x402 payload, or what is wrong."""
    from pydantic import ValidationError
    from x402 import PaymentPayload

    try:
        payload = PaymentPayload.model_validate(data)
    except (ValidationError, ValueError, TypeError) as exc:
        return None, ("invalid_payload", f"{what} is not an x402 payload ({_first_error(exc)}).")
    wrong = check_payload(payload)
    if wrong:
        return None, ("invalid_payload", wrong)
    return payload, ("", "")


def _first_error(exc: Exception) -> str:
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"field {where}: {first['msg']}" if where else first["msg"]
    return "wrong field types"
