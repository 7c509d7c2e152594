"""price: NT$ wholesale prices of vegetables and fruits, updated daily (spec document 3, "price")."""
