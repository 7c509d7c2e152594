"""movie: film, series and anime release data, calendar, delay records, countdowns (spec document 2, "movie")."""
