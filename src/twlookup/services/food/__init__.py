"""food: meal draw with a deity theme, fortune poem, dish and nearby open shops (spec document 2, "food")."""
