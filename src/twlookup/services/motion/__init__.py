"""motion: web animation generators (spec document 2, "motion")."""

from twlookup.services.motion.operations import SERVICE

__all__ = ["SERVICE"]
