"""source kinds for bike specs and deity customs

Revision ID: f3b8d2a6c4e1
Revises: a5c2e9f4d7b1
Create Date: 2026-11-23 12:00:00.000000

bikes_model.source_kind says what kind of page a model's spec was read on (maker, manual,
encyclopedia, press, spec-database, catalogue, website); food_deity.custom_source_kind how strong
the page behind an offering custom is (temple, news, website). Both are filled by `twlookup seed`.
"""

import sqlalchemy as sa
from alembic import op

revision = "f3b8d2a6c4e1"
down_revision = "a5c2e9f4d7b1"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("bikes_model") as batch:
        batch.add_column(sa.Column("source_kind", sa.String(length=20), nullable=True))
    with op.batch_alter_table("food_deity") as batch:
        batch.add_column(sa.Column("custom_source_kind", sa.String(length=20), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("food_deity") as batch:
        batch.drop_column("custom_source_kind")
    with op.batch_alter_table("bikes_model") as batch:
        batch.drop_column("source_kind")
