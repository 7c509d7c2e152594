"""Domain rules of the life service."""

from twlookup.services.life.logic.invoice import *  # noqa: F403 (split by subject in the next change)
