"""`twlookup review token|list|approve|reject`: the operators' review of public submissions."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from twlookup.settings import ReadSettings


def add_review_commands(review_sub: Any) -> None:
    """`review token|list|approve|reject`, on the subparsers of `review`."""
    service = argparse.ArgumentParser(add_help=False)  # every review command names its SERVICE first
    service.add_argument("service", metavar="SERVICE")
    token = review_sub.add_parser(
        "token", parents=[service], help="make an operator token for SERVICE and print its settings entry"
    )
    token.add_argument("name", metavar="NAME", help="the operator's name, recorded with each decision")
    token.set_defaults(func=cmd_review_token)
    listing = review_sub.add_parser(
        "list", parents=[service], help="submissions of SERVICE (default: waiting for review)"
    )
    listing.add_argument("--status", default="submitted", choices=["submitted", "approved", "rejected", "all"])
    listing.add_argument("--kind", help="only this kind")
    listing.add_argument("--limit", type=int, default=50)
    listing.set_defaults(func=cmd_review_list)
    for verb in ("approve", "reject"):
        p = review_sub.add_parser(verb, parents=[service], help=f"{verb} submissions of SERVICE by id")
        p.add_argument("ids", metavar="ID", type=int, nargs="+")
        p.add_argument("--operator", required=True, help="who decides (recorded as cli:NAME)")
        p.add_argument("--reason", required=verb == "reject", help="why (required to reject; kept and shown)")
        p.set_defaults(func=cmd_review_decide)


def _review_ready(read_settings: ReadSettings) -> None:
    """Migrate, and import every service so that each registers its submission kinds."""
    from twlookup.services import load_services, upgrade_store

    upgrade_store(read_settings().database_url)
    load_services()


def _check_service(name: str) -> None:
    from twlookup.platform.review import KINDS
    from twlookup.services import IMPLEMENTED

    if name not in IMPLEMENTED and not any(service == name for service, _kind in KINDS):
        raise SystemExit(f"twlookup: unknown service {name!r}; known: {', '.join(IMPLEMENTED)}")


def cmd_review_token(args: argparse.Namespace, read_settings: ReadSettings) -> int:
    from twlookup.platform.review import new_token, operator_entry

    _check_service(args.service)
    token = new_token()
    print(f"token (give it to the operator; it is not stored anywhere): {token}")
    print("add this entry to TWLOOKUP_REVIEW_OPERATORS (a JSON list) and restart:")
    print(operator_entry(args.name, args.service, token))
    return 0


def cmd_review_list(args: argparse.Namespace, read_settings: ReadSettings) -> int:
    from twlookup.platform import review

    _check_service(args.service)
    _review_ready(read_settings)
    status = None if args.status == "all" else args.status
    items = review.queue(args.service, status, args.kind, args.limit)
    print(f"{args.service}: {review.counts(args.service)}")
    for item in items:
        decided = (
            f" by {item.decided_by} at {item.decided_at:%Y-%m-%d %H:%M}" if item.decided_by and item.decided_at else ""
        )
        why = f" ({item.reason})" if item.reason else ""
        print(f"  #{item.id} {item.kind} {item.status}{decided}{why} {item.subject or ''}".rstrip())
        print(f"     {item.payload}")
    return 0


def cmd_review_decide(args: argparse.Namespace, read_settings: ReadSettings) -> int:
    from twlookup.platform import review
    from twlookup.platform.errors import Problem

    _check_service(args.service)
    _review_ready(read_settings)
    decision: Literal["approve", "reject"] = "approve" if args.review_command == "approve" else "reject"
    try:
        done = review.decide(args.service, args.ids, decision, f"cli:{args.operator}", args.reason)
    except Problem as exc:
        print(f"twlookup: {exc.detail}", file=sys.stderr)
        return 1
    for item in done:
        print(f"#{item.id} {item.kind}: {item.status} by {item.decided_by}")
    return 0
