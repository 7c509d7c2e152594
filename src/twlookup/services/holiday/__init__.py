"""holiday: 2027 long weekends, leave planning, destination holidays and crowds, flight timing,
ticket booking guide (spec document 3, "holiday")."""
