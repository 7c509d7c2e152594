"""glossary: how each term's Taiwan name is attested, and the kind of each Taiwan usage source

Revision ID: d7a3c9e1f5b2
Revises: d7a1c3e5f902
Create Date: 2026-11-26 18:00:00.000000

Every term states the strongest kind of Taiwan source found showing its Chinese name (or
`unverified`); every usage source states its kind (government, university, media, ...).
"""

import sqlalchemy as sa
from alembic import op

revision = "d7a3c9e1f5b2"
down_revision = "d7a1c3e5f902"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("glossary_term") as batch:
        batch.add_column(sa.Column("taiwan_usage", sa.String(30), nullable=False, server_default="unverified"))
    with op.batch_alter_table("glossary_source") as batch:
        batch.add_column(sa.Column("usage_kind", sa.String(30), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("glossary_source") as batch:
        batch.drop_column("usage_kind")
    with op.batch_alter_table("glossary_term") as batch:
        batch.drop_column("taiwan_usage")
