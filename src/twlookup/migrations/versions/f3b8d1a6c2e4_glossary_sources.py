"""glossary source registry

Revision ID: f3b8d1a6c2e4
Revises: e7a4c2b9d1f0
Create Date: 2026-11-23 03:00:00.000000

glossary_source holds every source the glossary cites with the check of the citation itself
(kind citation: verified day and what was seen), and the Taiwan documents its Chinese names were
checked against (kind usage: the names each shows and the day it was read).
"""

import sqlalchemy as sa
from alembic import op

revision = "f3b8d1a6c2e4"
down_revision = "e7a4c2b9d1f0"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "glossary_source",
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("url", sa.String(length=500), nullable=False),
        sa.Column("title", sa.String(length=300), nullable=False),
        sa.Column("verified", sa.Date(), nullable=True),
        sa.Column("checked", sa.Date(), nullable=True),
        sa.Column("evidence", sa.Text(), nullable=True),
        sa.Column("names", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("kind", "url", name=op.f("pk_glossary_source")),
    )


def downgrade() -> None:
    op.drop_table("glossary_source")
