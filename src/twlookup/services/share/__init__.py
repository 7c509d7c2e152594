"""share: rankings of videos and posts that Taiwan users share (spec document 3, "share")."""

from twlookup.services.share.operations import SERVICE

__all__ = ["SERVICE"]
