"""Store table of the games service, derived from its record (records.Game)."""

from __future__ import annotations

from twlookup.platform.store.record_tables import record_table
from twlookup.services.games.records import Game

GameRow = record_table(Game, "games_game", index=("release",))
