"""local ledger

Revision ID: 7f8cd54c9d50
Revises: b07cb4f81dfc
Create Date: 2026-11-22 09:40:00.000000
"""

import sqlalchemy as sa
from alembic import op

revision = "7f8cd54c9d50"
down_revision = "b07cb4f81dfc"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ledger_authorization",
        sa.Column("network", sa.String(length=64), nullable=False),
        sa.Column("asset", sa.String(length=42), nullable=False),
        sa.Column("authorizer", sa.String(length=42), nullable=False),
        sa.Column("nonce", sa.String(length=66), nullable=False),
        sa.Column("tx_hash", sa.String(length=66), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("network", "asset", "authorizer", "nonce", name=op.f("pk_ledger_authorization")),
    )
    op.create_table(
        "ledger_balance",
        sa.Column("network", sa.String(length=64), nullable=False),
        sa.Column("asset", sa.String(length=42), nullable=False),
        sa.Column("address", sa.String(length=42), nullable=False),
        sa.Column("amount", sa.Numeric(precision=78, scale=0), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("amount >= 0", name=op.f("ck_ledger_balance_amount_not_negative")),
        sa.PrimaryKeyConstraint("network", "asset", "address", name=op.f("pk_ledger_balance")),
    )
    op.create_table(
        "ledger_transfer",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tx_hash", sa.String(length=66), nullable=False),
        sa.Column("network", sa.String(length=64), nullable=False),
        sa.Column("asset", sa.String(length=42), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("from_address", sa.String(length=42), nullable=False),
        sa.Column("to_address", sa.String(length=42), nullable=False),
        sa.Column("amount", sa.Numeric(precision=78, scale=0), nullable=False),
        sa.Column("nonce", sa.String(length=66), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_transfer")),
        sa.UniqueConstraint("tx_hash", name=op.f("uq_ledger_transfer_tx_hash")),
    )
    with op.batch_alter_table("ledger_transfer", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ledger_transfer_from_address"), ["from_address"], unique=False)
        batch_op.create_index(batch_op.f("ix_ledger_transfer_to_address"), ["to_address"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("ledger_transfer", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_transfer_to_address"))
        batch_op.drop_index(batch_op.f("ix_ledger_transfer_from_address"))

    op.drop_table("ledger_transfer")
    op.drop_table("ledger_balance")
    op.drop_table("ledger_authorization")
