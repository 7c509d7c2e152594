"""life tables

Revision ID: 3c1d7e2a9b40
Revises: c3a7e2d41f90
Create Date: 2026-11-22 14:30:00.000000

The life service's tables: receipt-lottery periods, lottery draws and CPC fuel prices.
"""

import sqlalchemy as sa
from alembic import op

revision = "3c1d7e2a9b40"
down_revision = "c3a7e2d41f90"
branch_labels = None
depends_on = None


def _provenance() -> list[sa.Column]:
    return [
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "life_invoice_period",
        sa.Column("period", sa.String(length=9), nullable=False),
        sa.Column("special", sa.String(length=8), nullable=False),
        sa.Column("grand", sa.String(length=8), nullable=False),
        sa.Column("first", sa.JSON(), nullable=False),
        sa.Column("additional_sixth", sa.JSON(), nullable=False),
        sa.Column("reported_by", sa.String(length=500), nullable=True),
        *_provenance(),
        sa.PrimaryKeyConstraint("period", name=op.f("pk_life_invoice_period")),
    )
    op.create_table(
        "life_lottery_draw",
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("period", sa.String(length=12), nullable=False),
        sa.Column("draw_date", sa.Date(), nullable=False),
        sa.Column("numbers", sa.JSON(), nullable=False),
        sa.Column("second", sa.Integer(), nullable=True),
        sa.Column("reported_by", sa.String(length=500), nullable=True),
        *_provenance(),
        sa.PrimaryKeyConstraint("game", "period", name=op.f("pk_life_lottery_draw")),
    )
    op.create_index(op.f("ix_life_lottery_draw_draw_date"), "life_lottery_draw", ["draw_date"], unique=False)
    op.create_table(
        "life_fuel_price",
        sa.Column("product", sa.String(length=10), nullable=False),
        sa.Column("effective", sa.Date(), nullable=False),
        sa.Column("price", sa.Numeric(precision=8, scale=2), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("reported_by", sa.String(length=500), nullable=True),
        *_provenance(),
        sa.PrimaryKeyConstraint("product", "effective", name=op.f("pk_life_fuel_price")),
    )


def downgrade() -> None:
    op.drop_table("life_fuel_price")
    op.drop_index(op.f("ix_life_lottery_draw_draw_date"), table_name="life_lottery_draw")
    op.drop_table("life_lottery_draw")
    op.drop_table("life_invoice_period")
