"""creator: compliance helpers for group-buy creators (spec document 2, "creator")."""
