"""Store table of the movie service, derived from its record (records.Title)."""

from __future__ import annotations

from twlookup.platform.store.record_tables import record_table
from twlookup.services.movie.records import Title

TitleRow = record_table(Title, "movie_title", index=("type",))
