"""The tokens the local ledger emulates: EIP-3009 stablecoins the x402 SDK knows (USDC on Base and
Base Sepolia by default), each with its EIP-712 domain.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from x402.mechanisms.evm.default_assets import DEFAULT_ASSETS, find_default_asset
from x402.mechanisms.evm.utils import get_evm_chain_id, normalize_address


@dataclass(frozen=True)
class Token:
    """An EIP-3009 token the ledger emulates: its EIP-712 domain is (name, version, chain id,
    address), as on chain."""

    network: str
    address: str
    name: str
    version: str
    decimals: int
    symbol: str

    @property
    def chain_id(self) -> int:
        return get_evm_chain_id(self.network)


def default_token(network: str) -> Token:
    """The network's default EIP-3009 stablecoin (USDC on Base and Base Sepolia), from the SDK's
    own table of default assets."""
    for entry in DEFAULT_ASSETS.get(network, []):
        if entry.get("asset_transfer_method") != "permit2":
            return _token_from_entry(network, entry)
    raise ValueError(f"no default EIP-3009 asset for network {network}")


@functools.lru_cache(maxsize=4096)
def checksum(address: str) -> str:
    """`address` in its EIP-55 checksummed form (the SDK's `normalize_address`, which hashes the
    address each time, kept for the addresses seen: a payment checksums the same few addresses
    a dozen times between verify and settle). Raises ValueError for a malformed address."""
    return normalize_address(address)


def token_for(network: str, asset: str | None = None) -> Token:
    """The token of `asset` on `network` (the default one when asset is None), known to the SDK."""
    if asset is None:
        return default_token(network)
    entry = find_default_asset(asset, network)
    if entry is None:
        raise ValueError(f"asset {asset} is not a known asset on {network}")
    return _token_from_entry(network, entry)


def _token_from_entry(network: str, entry: Mapping[str, Any]) -> Token:
    return Token(
        network=network,
        address=checksum(entry["asset"]),
        name=entry["name"],
        version=entry["version"],
        decimals=int(entry["decimals"]),
        symbol=entry["symbol"],
    )
