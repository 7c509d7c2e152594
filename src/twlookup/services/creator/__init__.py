"""creator: compliance helpers for group-buy creators (spec document 2, "creator")."""

from twlookup.services.creator.operations import SERVICE

__all__ = ["SERVICE"]
