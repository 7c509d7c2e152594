"""trip tables

Revision ID: c3a7e2d41f90
Revises: d5f2b8e3c0a4
Create Date: 2026-11-22 14:10:00.000000

The trip service's rate board (trip_fx_rate) and its sourced guide records (trip_guide_record).
"""

import sqlalchemy as sa
from alembic import op

revision = "c3a7e2d41f90"
down_revision = "d5f2b8e3c0a4"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "trip_fx_rate",
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name_zh", sa.String(length=50), nullable=True),
        sa.Column("cash_buy", sa.Float(), nullable=True),
        sa.Column("cash_sell", sa.Float(), nullable=True),
        sa.Column("spot_buy", sa.Float(), nullable=True),
        sa.Column("spot_sell", sa.Float(), nullable=True),
        sa.Column("posted_at", sa.DateTime(), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("currency", name=op.f("pk_trip_fx_rate")),
    )
    op.create_table(
        "trip_guide_record",
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("id", sa.String(length=80), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("kind", "id", name=op.f("pk_trip_guide_record")),
    )


def downgrade() -> None:
    op.drop_table("trip_guide_record")
    op.drop_table("trip_fx_rate")
