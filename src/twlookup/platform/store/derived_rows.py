"""Rows the store derives from its records, such as the search's indexed forms.

The module that keeps such data registers how to bring it up to date (`derived_from_records`);
every seed and every feed import calls `refresh_derived` in the transaction that changed the
records, naming the services (groups) whose records changed. The store needs to know nothing of
what is derived, and the deriving module is the only one that imports the other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sqlalchemy.orm import Session

Refresh = Callable[[Session, Iterable[str] | None], object]

_REFRESHES: list[Refresh] = []


def derived_from_records(refresh: Refresh) -> Refresh:
    """Register `refresh(session, groups)`, called after records of `groups` (None: all) changed."""
    if refresh not in _REFRESHES:
        _REFRESHES.append(refresh)
    return refresh


def refresh_derived(session: Session, groups: Iterable[str] | None) -> None:
    """Bring every registered derived data up to date with the records of `groups`, in `session`."""
    names = None if groups is None else list(groups)
    for refresh in _REFRESHES:
        refresh(session, names)
