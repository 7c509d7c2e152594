"""opinions threads keep the author's handle and the post's own opening words

Revision ID: c5d2e8f1a3b7
Revises: b7e4c2d9a1f3
Create Date: 2026-11-26 15:00:00.000000

Threads imported from Taiwan forums (PTT, Dcard) carry the author's handle as the forum shows it
and the opening of the post in the author's own words; the credibility's text checks (specificity,
sponsorship disclosure, the AI-text check) run on that text, never on this site's summary.
"""

import sqlalchemy as sa
from alembic import op

revision = "c5d2e8f1a3b7"
down_revision = "b7e4c2d9a1f3"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("opinions_thread") as batch:
        batch.add_column(sa.Column("author", sa.String(length=80), nullable=True))
        batch.add_column(sa.Column("quote", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("opinions_thread") as batch:
        batch.drop_column("quote")
        batch.drop_column("author")
