"""release trackers' and seo's tables derived from their records

Revision ID: d7a3c5e1b924
Revises: c4e9a2f7b813
Create Date: 2026-11-26 17:00:00.000000

games_game, movie_title, sports_event and the seo tables are now derived from their records
(record_table): the release trackers' `record_origin` is stored (the tables only hold curated
records, so existing rows are "curated"), and a Literal field's column is as long as its longest
value (movie_title.type 12, sports_event.sport 10, seo_crawler.type 9 and honours_robots 7,
seo_engine.id 10; every stored value is one of them).
"""

import sqlalchemy as sa
from alembic import op

revision = "d7a3c5e1b924"
down_revision = "c4e9a2f7b813"
branch_labels = None
depends_on = None


# Literal columns sized to their longest value: (table, column, length before, length now)
RESIZED = (
    ("movie_title", "type", 20, 12),
    ("sports_event", "sport", 20, 10),
    ("seo_crawler", "type", 20, 9),
    ("seo_crawler", "honours_robots", 10, 7),
    ("seo_engine", "id", 20, 10),
)


def upgrade() -> None:
    for table in ("games_game", "movie_title"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("record_origin", sa.String(8), nullable=False, server_default="curated"))
    for table, column, before, now in RESIZED:
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, existing_type=sa.String(before), type_=sa.String(now), existing_nullable=False)


def downgrade() -> None:
    for table, column, before, now in reversed(RESIZED):
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, existing_type=sa.String(now), type_=sa.String(before), existing_nullable=False)
    for table in ("movie_title", "games_game"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("record_origin")
