"""holiday, life, stocks, trip, motion: columns derived from their records

Revision ID: d8b2f4a6c1e3
Revises: c4e9a2f7b813
Create Date: 2026-11-26 16:41:11.127802

The tables of these services are now derived from their records (`record_table`), and a few
stored columns follow the record's declaration instead of a length typed in by hand: a `Literal`
field is a String as long as its longest value (holiday_flight_rule.haul, holiday_peak_season.level).
Every stored value fits the new types (they are the record's own values). Generated with
autogenerate, then read and commented by hand.
"""

import sqlalchemy as sa
from alembic import op

revision = "d8b2f4a6c1e3"
down_revision = "c4e9a2f7b813"
branch_labels = None
depends_on = None

# (table, column, type before, type after)
CHANGES = (
    ("holiday_flight_rule", "haul", sa.String(20), sa.String(10)),  # Literal["short_haul", "long_haul"]
    ("holiday_peak_season", "level", sa.String(10), sa.String(6)),  # Literal["high", "medium"]
)


def upgrade() -> None:
    for table, column, before, after in CHANGES:
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, existing_type=before, type_=after, existing_nullable=False)


def downgrade() -> None:
    for table, column, before, after in reversed(CHANGES):
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, existing_type=after, type_=before, existing_nullable=False)
