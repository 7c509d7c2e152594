"""trip: exchange rates, conversion, entry preparation, destinations, eSIM, holidays (spec document 2, "trip")."""
