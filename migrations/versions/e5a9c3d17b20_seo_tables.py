"""seo tables

Revision ID: e5a9c3d17b20
Revises: 3c1d7e2a9b40
Create Date: 2026-11-22 18:00:00.000000

The seo service's tables: crawlers, published crawler IP-range files, engines, market share.
"""

import sqlalchemy as sa
from alembic import op

revision = "e5a9c3d17b20"
down_revision = "3c1d7e2a9b40"
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
        "seo_crawler",
        sa.Column("token", sa.String(length=80), nullable=False),
        sa.Column("type", sa.String(length=20), nullable=False),
        sa.Column("operator", sa.String(length=80), nullable=False),
        sa.Column("fetches", sa.Boolean(), nullable=False),
        sa.Column("honours_robots", sa.String(length=10), nullable=False),
        sa.Column("ip_ranges", sa.JSON(), nullable=False),
        sa.Column("rdns", sa.JSON(), nullable=False),
        sa.Column("docs", sa.String(length=500), nullable=False),
        sa.Column("purpose", sa.Text(), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("token", name=op.f("pk_seo_crawler")),
    )
    op.create_index(op.f("ix_seo_crawler_type"), "seo_crawler", ["type"], unique=False)
    op.create_table(
        "seo_ip_range_file",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("operator", sa.String(length=80), nullable=False),
        sa.Column("crawlers", sa.JSON(), nullable=False),
        sa.Column("creation_time", sa.String(length=40), nullable=True),
        sa.Column("prefixes", sa.JSON(), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seo_ip_range_file")),
    )
    op.create_table(
        "seo_engine",
        sa.Column("id", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("search_url", sa.String(length=200), nullable=False),
        sa.Column("query_param", sa.String(length=10), nullable=False),
        sa.Column("time_filters", sa.JSON(), nullable=False),
        sa.Column("operators", sa.JSON(), nullable=False),
        sa.Column("submit", sa.JSON(), nullable=False),
        *_provenance(),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seo_engine")),
    )
    op.create_table(
        "seo_market_share",
        sa.Column("region", sa.String(length=20), nullable=False),
        sa.Column("month", sa.String(length=7), nullable=True),
        sa.Column("shares", sa.JSON(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        *_provenance(),
        sa.PrimaryKeyConstraint("region", name=op.f("pk_seo_market_share")),
    )


def downgrade() -> None:
    op.drop_table("seo_market_share")
    op.drop_table("seo_engine")
    op.drop_table("seo_ip_range_file")
    op.drop_index(op.f("ix_seo_crawler_type"), table_name="seo_crawler")
    op.drop_table("seo_crawler")
