"""feed state and refresh locks

Revision ID: f1d3b7a9c2e4
Revises: f3b8d2a6c4e1
Create Date: 2026-11-24 10:00:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "f1d3b7a9c2e4"
down_revision = "f3b8d2a6c4e1"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "feed_state",
        sa.Column("feed", sa.String(length=80), nullable=False),
        sa.Column("part", sa.String(length=80), nullable=False),
        sa.Column("url", sa.String(length=500), nullable=True),
        sa.Column("last_attempt", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_success", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_import", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_outcome", sa.String(length=20), nullable=True),
        sa.Column("last_message", sa.Text(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("last_error_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("etag", sa.String(length=300), nullable=True),
        sa.Column("last_modified", sa.String(length=100), nullable=True),
        sa.Column("sha256", sa.String(length=64), nullable=True),
        sa.Column("data_key", sa.String(length=200), nullable=True),
        sa.Column("data_label", sa.String(length=100), nullable=True),
        sa.Column("data_date", sa.Date(), nullable=True),
        sa.Column("rows", sa.Integer(), nullable=True),
        sa.Column("via", sa.String(length=20), nullable=True),
        sa.PrimaryKeyConstraint("feed", "part", name=op.f("pk_feed_state")),
    )
    op.create_table(
        "feed_lock",
        sa.Column("feed", sa.String(length=80), nullable=False),
        sa.Column("owner", sa.String(length=120), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("feed", name=op.f("pk_feed_lock")),
    )


def downgrade() -> None:
    op.drop_table("feed_lock")
    op.drop_table("feed_state")
