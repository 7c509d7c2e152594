"""opinions: real human-written product opinions and an AI-text check (spec document 2, "opinions")."""
