"""motion and creator tables

Revision ID: e7a4c2b9d1f0
Revises: e8a1c5d7f2b3
Create Date: 2026-11-23 01:00:00.000000

motion_record and creator_record hold each service's reference records by kind (validated
payloads); creator_company holds the extract of the company register.
"""

import sqlalchemy as sa
from alembic import op

revision = "e7a4c2b9d1f0"
down_revision = "e8a1c5d7f2b3"
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
    for table in ("motion_record", "creator_record"):
        op.create_table(
            table,
            sa.Column("record_type", sa.String(length=20), nullable=False),
            sa.Column("id", sa.String(length=120), nullable=False),
            sa.Column("payload", sa.JSON(), nullable=False),
            *_provenance(),
            sa.PrimaryKeyConstraint("record_type", "id", name=op.f(f"pk_{table}")),
        )
    op.create_table(
        "creator_company",
        sa.Column("ban", sa.String(length=8), nullable=False),
        sa.Column("name", sa.String(length=300), nullable=False),
        sa.Column("status", sa.String(length=60), nullable=False),
        sa.Column("capital", sa.BigInteger(), nullable=True),
        sa.Column("paid_in_capital", sa.BigInteger(), nullable=True),
        sa.Column("representative", sa.String(length=120), nullable=True),
        sa.Column("address", sa.String(length=300), nullable=True),
        sa.Column("registrar", sa.String(length=120), nullable=True),
        sa.Column("setup_date", sa.Date(), nullable=True),
        sa.Column("last_change", sa.Date(), nullable=True),
        *_provenance(),
        sa.PrimaryKeyConstraint("ban", name=op.f("pk_creator_company")),
    )
    op.create_index(op.f("ix_creator_company_name"), "creator_company", ["name"])


def downgrade() -> None:
    op.drop_index(op.f("ix_creator_company_name"), table_name="creator_company")
    op.drop_table("creator_company")
    op.drop_table("creator_record")
    op.drop_table("motion_record")
