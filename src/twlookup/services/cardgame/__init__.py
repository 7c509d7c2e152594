"""cardgame: an English beginner's guide to Yu-Gi-Oh! (Asian-English cards) (spec document 3, "cardgame")."""
