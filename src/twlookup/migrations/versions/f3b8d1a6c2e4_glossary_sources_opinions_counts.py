"""glossary source registry; opinions thread counts may be unknown

Revision ID: f3b8d1a6c2e4
Revises: e7a4c2b9d1f0
Create Date: 2026-11-23 03:00:00.000000

glossary_source holds every source the glossary cites with the check of the citation itself
(kind citation: verified day and what was seen), and the Taiwan documents its Chinese names were
checked against (kind usage: the names each shows and the day it was read). opinions_thread's
score and comments become nullable: some communities have no score, and some copies a thread was
read from show no reply count; those are stored as unknown, never guessed.
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
    with op.batch_alter_table("opinions_thread") as batch:
        batch.alter_column("score", existing_type=sa.Integer(), nullable=True)
        batch.alter_column("comments", existing_type=sa.Integer(), nullable=True)


def downgrade() -> None:
    # threads whose counts were never shown cannot be kept in the older, non-null shape
    op.execute("DELETE FROM opinions_thread WHERE score IS NULL OR comments IS NULL")
    with op.batch_alter_table("opinions_thread") as batch:
        batch.alter_column("comments", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("score", existing_type=sa.Integer(), nullable=False)
    op.drop_table("glossary_source")
