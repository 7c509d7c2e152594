"""peak seasons name the calendar holidays their dates come from

Revision ID: f3b8d1c6a2e4
Revises: f3b8d1a6c2e4
Create Date: 2026-11-23 12:00:00.000000

holiday_peak_season.holidays: the destination-calendar holidays a peak season that is a holiday
break takes its dates from (empty for peaks with sourced dates). Existing rows get an empty list
until the next `twlookup seed`.
"""

import sqlalchemy as sa
from alembic import op

revision = "f3b8d1c6a2e4"
down_revision = "f3b8d1a6c2e4"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("holiday_peak_season") as batch:
        batch.add_column(sa.Column("holidays", sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("holiday_peak_season") as batch:
        batch.drop_column("holidays")
