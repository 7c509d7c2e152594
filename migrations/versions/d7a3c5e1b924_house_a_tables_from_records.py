"""release trackers' tables derived from their records

Revision ID: d7a3c5e1b924
Revises: c4e9a2f7b813
Create Date: 2026-11-26 17:00:00.000000

games_game, movie_title and sports_event are now derived from their records (record_table): the
record's `record_origin` is stored (the table only holds curated records, so existing rows are
"curated"), and a Literal field's column is as long as its longest value (movie_title.type 12,
sports_event.sport 10; every stored value is one of them).
"""

import sqlalchemy as sa
from alembic import op

revision = "d7a3c5e1b924"
down_revision = "c4e9a2f7b813"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("games_game", "movie_title"):
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("record_origin", sa.String(8), nullable=False, server_default="curated"))
    with op.batch_alter_table("movie_title") as batch:
        batch.alter_column("type", existing_type=sa.String(20), type_=sa.String(12), existing_nullable=False)
    with op.batch_alter_table("sports_event") as batch:
        batch.alter_column("sport", existing_type=sa.String(20), type_=sa.String(10), existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("sports_event") as batch:
        batch.alter_column("sport", existing_type=sa.String(10), type_=sa.String(20), existing_nullable=False)
    with op.batch_alter_table("movie_title") as batch:
        batch.alter_column("type", existing_type=sa.String(12), type_=sa.String(20), existing_nullable=False)
    for table in ("movie_title", "games_game"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("record_origin")
