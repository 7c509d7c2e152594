"""The holiday service's operations."""

from twlookup.services.holiday.operations.breaks import SERVICE

__all__ = ["SERVICE"]
