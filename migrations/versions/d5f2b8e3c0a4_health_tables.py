"""health tables

Revision ID: d5f2b8e3c0a4
Revises: b6282a6441c3
Create Date: 2026-11-22 14:30:00.000000

The health service's reference documents (data/health/*.yaml), one row per topic.
"""

import sqlalchemy as sa
from alembic import op

revision = "d5f2b8e3c0a4"
down_revision = "b6282a6441c3"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "health_document",
        sa.Column("topic", sa.String(length=40), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("topic", name=op.f("pk_health_document")),
    )


def downgrade() -> None:
    op.drop_table("health_document")
