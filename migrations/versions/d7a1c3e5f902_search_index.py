"""search index in the store: prepared names, their characters and the text tokens

Revision ID: d7a1c3e5f902
Revises: d7c3e5a1b9f2
Create Date: 2026-11-26 17:00:00.000000

The searchable forms of the glossary, cardgame and opinions collections are written at seed and
import time (`twlookup.domain.search.sync`) and read by each query, instead of being built in
every serving process. The seed fingerprint is cleared, so the next `twlookup serve` (or `twlookup
seed`) of an existing store fills the new tables.
"""

import sqlalchemy as sa
from alembic import op

revision = "d7a1c3e5f902"
down_revision = "d7c3e5a1b9f2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    clustered = {"sqlite_with_rowid": False}  # SQLite: the rows live in the primary key's B-tree
    op.create_table(
        "search_document",
        sa.Column("collection", sa.String(length=60), nullable=False),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("digest", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("collection", "key", name=op.f("pk_search_document")),
        **clustered,
    )
    op.create_table(
        "search_name",
        sa.Column("collection", sa.String(length=60), nullable=False),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("field", sa.String(length=40), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("compact", sa.Text(), nullable=False),
        sa.Column("units", sa.Text(), nullable=False),
        sa.Column("length", sa.Integer(), nullable=False),
        sa.Column("unit_length", sa.Integer(), nullable=False),
        sa.Column("weight", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("collection", "key", "position", name=op.f("pk_search_name")),
        **clustered,
    )
    op.create_table(
        "search_gram",
        sa.Column("collection", sa.String(length=60), nullable=False),
        sa.Column("gram", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("collection", "gram", "key", "position", name=op.f("pk_search_gram")),
        **clustered,
    )
    op.create_table(
        "search_token",
        sa.Column("collection", sa.String(length=60), nullable=False),
        sa.Column("token", sa.Text(), nullable=False),
        sa.Column("key", sa.String(length=300), nullable=False),
        sa.PrimaryKeyConstraint("collection", "token", "key", name=op.f("pk_search_token")),
        **clustered,
    )
    # filled by the next seed: `serve` seeds a store whose seed fingerprint is not the data's
    op.execute("DELETE FROM store_meta WHERE key = 'seed_fingerprint'")


def downgrade() -> None:
    op.drop_table("search_token")
    op.drop_table("search_gram")
    op.drop_table("search_name")
    op.drop_table("search_document")
