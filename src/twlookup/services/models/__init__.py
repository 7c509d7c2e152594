"""models: retirement and replacement schedule of AI models (spec document 3, "models")."""

from twlookup.services.models.operations import SERVICE

__all__ = ["SERVICE"]
