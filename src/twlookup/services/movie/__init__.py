"""movie: film, series and anime release data, calendar, delay records, countdowns (spec document 2, "movie")."""

from twlookup.services.movie.operations import SERVICE

__all__ = ["SERVICE"]
