"""`twlookup review token|list|approve|reject`: the operators' review of public submissions."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Literal


def _settings() -> Any:
    from twlookup import cli  # read through the command module at each call: tests replace it there

    return cli._settings()


def _review_ready() -> None:
    """Migrate, and import every service so that each registers its submission kinds."""
    from twlookup.platform.store.migrate import upgrade
    from twlookup.services import load_services

    upgrade(_settings().database_url)
    load_services()


def _check_service(name: str) -> None:
    from twlookup.platform.review import KINDS
    from twlookup.services import IMPLEMENTED

    if name not in IMPLEMENTED and not any(service == name for service, _kind in KINDS):
        raise SystemExit(f"twlookup: unknown service {name!r}; known: {', '.join(IMPLEMENTED)}")


def cmd_review_token(args: argparse.Namespace) -> int:
    from twlookup.platform.review import new_token, operator_entry

    _check_service(args.service)
    token = new_token()
    print(f"token (give it to the operator; it is not stored anywhere): {token}")
    print("add this entry to TWLOOKUP_REVIEW_OPERATORS (a JSON list) and restart:")
    print(operator_entry(args.name, args.service, token))
    return 0


def cmd_review_list(args: argparse.Namespace) -> int:
    from twlookup.platform import review

    _check_service(args.service)
    _review_ready()
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


def cmd_review_decide(args: argparse.Namespace) -> int:
    from twlookup.platform import review
    from twlookup.platform.errors import Problem

    _check_service(args.service)
    _review_ready()
    decision: Literal["approve", "reject"] = "approve" if args.review_command == "approve" else "reject"
    try:
        done = review.decide(args.service, args.ids, decision, f"cli:{args.operator}", args.reason)
    except Problem as exc:
        print(f"twlookup: {exc.detail}", file=sys.stderr)
        return 1
    for item in done:
        print(f"#{item.id} {item.kind}: {item.status} by {item.decided_by}")
    return 0
