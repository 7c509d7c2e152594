"""trip: exchange rates, conversion, entry preparation, destinations, eSIM, holidays (spec document 2, "trip")."""

from twlookup.services.trip.operations import SERVICE

__all__ = ["SERVICE"]
