"""stocks tables

Revision ID: b6282a6441c3
Revises: 78c58991123a
Create Date: 2026-11-22 13:42:25
"""

import sqlalchemy as sa
from alembic import op

revision = "b6282a6441c3"
down_revision = "78c58991123a"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "stocks_close",
        sa.Column("code", sa.String(length=10), nullable=False),
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("close", sa.Numeric(precision=14, scale=4), nullable=False),
        sa.Column("change", sa.Numeric(precision=14, scale=4), nullable=True),
        sa.Column("market", sa.String(length=10), nullable=True),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("code", "date", name=op.f("pk_stocks_close")),
    )
    op.create_table(
        "stocks_deduction",
        sa.Column("key", sa.String(length=20), nullable=False),
        sa.Column("params", sa.JSON(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("sources", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_stocks_deduction")),
    )
    op.create_table(
        "stocks_etf",
        sa.Column("code", sa.String(length=10), nullable=False),
        sa.Column("issuer", sa.String(length=120), nullable=False),
        sa.Column("frequency", sa.String(length=10), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_stocks_etf")),
    )
    op.create_table(
        "stocks_import",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("market", sa.String(length=10), nullable=False),
        sa.Column("trading_date", sa.Date(), nullable=False),
        sa.Column("imported_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rows", sa.Integer(), nullable=False),
        sa.Column("file_name", sa.String(length=300), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stocks_import")),
    )
    op.create_table(
        "stocks_member",
        sa.Column("theme", sa.String(length=30), nullable=False),
        sa.Column("code", sa.String(length=10), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("theme", "code", name=op.f("pk_stocks_member")),
    )
    op.create_table(
        "stocks_payout",
        sa.Column("code", sa.String(length=10), nullable=False),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("ex_date", sa.Date(), nullable=True),
        sa.Column("pay_date", sa.Date(), nullable=True),
        sa.Column("amount", sa.Numeric(precision=14, scale=4), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("code", "period", name=op.f("pk_stocks_payout")),
    )
    op.create_table(
        "stocks_security",
        sa.Column("code", sa.String(length=10), nullable=False),
        sa.Column("name_zh", sa.String(length=60), nullable=False),
        sa.Column("name_en", sa.String(length=120), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_stocks_security")),
    )
    op.create_table(
        "stocks_theme",
        sa.Column("id", sa.String(length=30), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name_en", sa.String(length=100), nullable=False),
        sa.Column("name_zh", sa.String(length=60), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_stocks_theme")),
    )


def downgrade() -> None:
    op.drop_table("stocks_theme")
    op.drop_table("stocks_security")
    op.drop_table("stocks_payout")
    op.drop_table("stocks_member")
    op.drop_table("stocks_import")
    op.drop_table("stocks_etf")
    op.drop_table("stocks_deduction")
    op.drop_table("stocks_close")
