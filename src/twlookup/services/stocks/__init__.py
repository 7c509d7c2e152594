"""stocks: Taiwan stock themes, daily closes, high-dividend ETF payouts (spec document 3, "stocks")."""
