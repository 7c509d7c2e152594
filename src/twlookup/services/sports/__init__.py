"""sports: events, calendar, Taiwan broadcast platforms, countdowns, knowledge-base lookup (spec document 2, "sports")."""
