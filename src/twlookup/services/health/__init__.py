"""health: counseling, weight-loss drugs, dietary carcinogens, cancer screening, BP and glucose
checks (spec document 3, "health"). Private: queries and answers are not stored or logged."""
