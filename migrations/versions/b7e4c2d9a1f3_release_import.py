"""release_import: items the release trackers imported from Wikidata

Revision ID: b7e4c2d9a1f3
Revises: f1d3b7a9c2e4
Create Date: 2026-11-26 14:00:00.000000

One row per film, series or game a service's Wikidata feed imported (movie.wikidata,
games.wikidata): the record as the service's model holds it, replaced whole by each import.
"""

import sqlalchemy as sa
from alembic import op

revision = "b7e4c2d9a1f3"
down_revision = "f1d3b7a9c2e4"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "release_import",
        sa.Column("service", sa.String(length=20), nullable=False),
        sa.Column("id", sa.String(length=80), nullable=False),
        sa.Column("qid", sa.String(length=20), nullable=False),
        sa.Column("imported", sa.Date(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("service", "id", name=op.f("pk_release_import")),
    )
    op.create_index(op.f("ix_release_import_qid"), "release_import", ["qid"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_release_import_qid"), table_name="release_import")
    op.drop_table("release_import")
