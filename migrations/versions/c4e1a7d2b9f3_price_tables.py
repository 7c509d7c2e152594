"""price tables

Revision ID: c4e1a7d2b9f3
Revises: 7f8cd54c9d50
Create Date: 2026-11-22 14:10:00

The price_* tables: categories, products and daily price observations.
"""

import sqlalchemy as sa
from alembic import op

revision = "c4e1a7d2b9f3"
down_revision = "7f8cd54c9d50"
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
        "price_category",
        sa.Column("slug", sa.String(length=30), nullable=False),
        sa.Column("code", sa.String(length=10), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name_zh", sa.String(length=50), nullable=False),
        sa.Column("name_en", sa.String(length=50), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("slug", name=op.f("pk_price_category")),
        sa.UniqueConstraint("code", name=op.f("uq_price_category_code")),
    )
    op.create_table(
        "price_product",
        sa.Column("id", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("category", sa.String(length=30), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_price_product")),
    )
    op.create_index(op.f("ix_price_product_category"), "price_product", ["category"], unique=False)
    op.create_table(
        "price_observation",
        sa.Column("product_id", sa.String(length=20), nullable=False),
        sa.Column("market_code", sa.String(length=10), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("market_name", sa.String(length=50), nullable=False),
        sa.Column("upper", sa.Float(), nullable=False),
        sa.Column("middle", sa.Float(), nullable=False),
        sa.Column("lower", sa.Float(), nullable=False),
        sa.Column("average", sa.Float(), nullable=False),
        sa.Column("volume", sa.Float(), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("product_id", "market_code", "day", name=op.f("pk_price_observation")),
    )
    op.create_index(op.f("ix_price_observation_day"), "price_observation", ["day"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_price_observation_day"), table_name="price_observation")
    op.drop_table("price_observation")
    op.drop_index(op.f("ix_price_product_category"), table_name="price_product")
    op.drop_table("price_product")
    op.drop_table("price_category")
