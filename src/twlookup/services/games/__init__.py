"""games: video game release data, calendar, delay records, countdowns (spec document 2, "games")."""
