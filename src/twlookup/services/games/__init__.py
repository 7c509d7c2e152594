"""games: video game release data, calendar, delay records, countdowns (spec document 2, "games")."""

from twlookup.services.games.operations import SERVICE

__all__ = ["SERVICE"]
