"""models: retirement and replacement schedule of AI models (spec document 3, "models")."""
