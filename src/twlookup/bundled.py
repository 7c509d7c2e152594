"""Where the folders that ship with the code are: the Alembic migrations and the reference data.

Both live at the top of a checkout (`migrations/`, `data/`) and are mapped into the package when
a wheel is built (`twlookup.migrations`, `twlookup/data/`; see setup.py). An installed wheel finds
them inside the package; an editable install of a checkout finds the migrations through the same
package mapping and the data at the top of the checkout.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def data_dir() -> Path:
    """The reference data a fresh store is seeded from."""
    packaged = PACKAGE / "data"
    if packaged.is_dir():
        return packaged
    return PACKAGE.parents[1] / "data"  # src/twlookup -> the checkout


def migrations_dir() -> Path:
    """The Alembic script folder (env.py and versions/)."""
    import twlookup.migrations

    return Path(twlookup.migrations.__file__).resolve().parent
