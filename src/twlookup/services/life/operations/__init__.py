"""The life service's operations."""

from twlookup.services.life.operations.invoice import SERVICE

__all__ = ["SERVICE"]
