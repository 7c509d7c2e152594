"""glossary terms: mainland names, abbreviations and common misspellings

Revision ID: c4e9a2f7b813
Revises: c5d2e8f1a3b7
Create Date: 2026-11-26 15:00:00.000000

Search finds a term by its Taiwan name, mainland name, English name, abbreviations and common
misspellings; each kind of name is its own column so that answers can say which one matched.
"""

import sqlalchemy as sa
from alembic import op

revision = "c4e9a2f7b813"
down_revision = "c5d2e8f1a3b7"
branch_labels = None
depends_on = None

COLUMNS = ("mainland", "abbreviations", "misspellings")


def upgrade() -> None:
    with op.batch_alter_table("glossary_term") as batch:
        for name in COLUMNS:
            batch.add_column(sa.Column(name, sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("glossary_term") as batch:
        for name in COLUMNS:
            batch.drop_column(name)
