"""opinions: real human-written product opinions and an AI-text check (spec document 2, "opinions")."""

from twlookup.services.opinions.operations import SERVICE

__all__ = ["SERVICE"]
