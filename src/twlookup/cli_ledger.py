"""`twlookup ledger fund|show`: the local USDC ledger of the "local" facilitator mode."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from twlookup.platform.payments.ledger import Ledger
    from twlookup.settings import ReadSettings


def add_ledger_commands(ledger_sub: Any) -> None:
    """`ledger fund` and `ledger show`, on the subparsers of `ledger`."""
    fund = ledger_sub.add_parser("fund", help="credit ADDRESS with AMOUNT USDC on the local ledger")
    fund.add_argument("address", metavar="ADDRESS", help="0x-prefixed EVM address")
    fund.add_argument("amount", metavar="AMOUNT", help="USDC, e.g. 10 or 0.25")
    show = ledger_sub.add_parser("show", help="balance and recent transfers of ADDRESS")
    show.add_argument("address", metavar="ADDRESS")
    show.add_argument("--limit", type=int, default=20, help="transfers to list (default 20)")
    for p in (fund, show):
        p.add_argument("--network", help="CAIP-2 network (default TWLOOKUP_EVM_MAINNET, eip155:8453)")
    fund.set_defaults(func=cmd_ledger_fund)
    show.set_defaults(func=cmd_ledger_show)


def _ledger(args: argparse.Namespace, read_settings: ReadSettings) -> Ledger:
    from eth_utils import is_address

    from twlookup.platform.payments.ledger import Ledger
    from twlookup.services import upgrade_store

    if not is_address(args.address):
        raise SystemExit(f"twlookup: ADDRESS must be a 0x-prefixed 20-byte EVM address, got {args.address!r}")
    settings = read_settings()
    network = args.network or settings.evm_mainnet
    if network not in (settings.evm_mainnet, settings.evm_testnet):
        raise SystemExit(f"twlookup: --network must be {settings.evm_mainnet} or {settings.evm_testnet}")
    upgrade_store(settings.database_url)
    return Ledger(network)


def cmd_ledger_fund(args: argparse.Namespace, read_settings: ReadSettings) -> int:
    from decimal import Decimal, InvalidOperation

    ledger = _ledger(args, read_settings)
    token = ledger.token
    try:
        units = Decimal(args.amount) * (10**token.decimals)
    except InvalidOperation:
        print(f"twlookup: AMOUNT must be a number of {token.symbol}, e.g. 10 or 0.25", file=sys.stderr)
        return 2
    if units <= 0 or units != units.to_integral_value():
        print(f"twlookup: AMOUNT must be positive with at most {token.decimals} decimals", file=sys.stderr)
        return 2
    tx = ledger.fund(args.address, int(units))
    print(f"funded {args.address} with {args.amount} {token.symbol} on {token.network} (local ledger, tx {tx})")
    print(f"balance: {Decimal(ledger.balance(args.address)) / 10**token.decimals} {token.symbol}")
    return 0


def cmd_ledger_show(args: argparse.Namespace, read_settings: ReadSettings) -> int:
    from decimal import Decimal

    ledger = _ledger(args, read_settings)
    token = ledger.token
    print(
        f"{args.address} on {token.network}: {Decimal(ledger.balance(args.address)) / 10**token.decimals} {token.symbol}"
    )
    for t in ledger.transfers(args.address, limit=args.limit):
        print(
            f"  {t.created_at:%Y-%m-%d %H:%M:%S}  {t.kind:8s} {t.from_address} -> {t.to_address}  {Decimal(t.amount) / 10**token.decimals} {token.symbol}  {t.tx_hash}"
        )
    return 0
