"""days off under the Labor Standards Act that the government calendar has as workdays

Revision ID: a5c2e9f4d7b1
Revises: f3b8d1c6a2e4
Create Date: 2026-11-23 13:00:00.000000

calendar_labor_law_day: Labor Day (May 1) before 2026 was a day off for workers under the Labor
Standards Act (Art. 37) but a workday on the government office calendar; the life service's
is-holiday answer says so.
"""

import sqlalchemy as sa
from alembic import op

revision = "a5c2e9f4d7b1"
down_revision = "f3b8d1c6a2e4"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "calendar_labor_law_day",
        sa.Column("date", sa.Date(), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("name_zh", sa.String(length=100), nullable=False),
        sa.Column("name_en", sa.String(length=150), nullable=False),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["year"], ["calendar_year.year"], name=op.f("fk_calendar_labor_law_day_year_calendar_year")
        ),
        sa.PrimaryKeyConstraint("date", name=op.f("pk_calendar_labor_law_day")),
    )


def downgrade() -> None:
    op.drop_table("calendar_labor_law_day")
