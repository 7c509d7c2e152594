"""holiday, life, stocks, trip, motion: tables derived from their records

Revision ID: d8b2f4a6c1e3
Revises: d7a3c5e1b924
Create Date: 2026-11-26 16:41:11.127802

The tables of these services are now derived from their records (`record_table`), and a few
stored columns follow the record's declaration instead of a type written by hand:

- a `Literal` field is a String as long as its longest value (holiday_flight_rule.haul,
  holiday_peak_season.level); every stored value is one of those values, so it fits;
- motion's records had one table for four kinds (motion_record: kind, id and the record as a JSON
  payload); each kind now has its table with a column per field (motion_easing, motion_support,
  motion_library, motion_a11y). The rows are moved across (what the feeds imported included), and
  back on downgrade.

Generated with autogenerate, then read, and the row moves written, by hand.
"""

from datetime import date

import sqlalchemy as sa
from alembic import op

revision = "d8b2f4a6c1e3"
down_revision = "d7a3c5e1b924"
branch_labels = None
depends_on = None

# (table, column, type before, type after)
CHANGES = (
    ("holiday_flight_rule", "haul", sa.String(20), sa.String(10)),  # Literal["short_haul", "long_haul"]
    ("holiday_peak_season", "level", sa.String(10), sa.String(6)),  # Literal["high", "medium"]
)

PROVENANCE = ("source", "source_title", "checked", "licence", "sample")


def _provenance() -> list[sa.Column]:
    return [
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
    ]


# motion: the kind's name in motion_record, its table and the columns of its fields
MOTION = {
    "easing": (
        "motion_easing",
        lambda: [
            sa.Column("id", sa.String(length=40), nullable=False),
            sa.Column("kind", sa.String(length=7), nullable=False),
            sa.Column("x1", sa.Float(), nullable=False),
            sa.Column("y1", sa.Float(), nullable=False),
            sa.Column("x2", sa.Float(), nullable=False),
            sa.Column("y2", sa.Float(), nullable=False),
        ],
    ),
    "support": (
        "motion_support",
        lambda: [
            sa.Column("id", sa.String(length=120), nullable=False),
            sa.Column("name", sa.String(length=200), nullable=False),
            sa.Column("baseline", sa.String(length=4), nullable=False),
            sa.Column("baseline_low_date", sa.Date(), nullable=True),
            sa.Column("baseline_high_date", sa.Date(), nullable=True),
            sa.Column("support", sa.JSON(), nullable=False),
            sa.Column("data_version", sa.String(length=40), nullable=False),
        ],
    ),
    "library": (
        "motion_library",
        lambda: [
            sa.Column("id", sa.String(length=120), nullable=False),
            sa.Column("name", sa.String(length=214), nullable=False),
            sa.Column("version", sa.String(length=100), nullable=False),
            sa.Column("package_licence", sa.Text(), nullable=False),
            sa.Column("unpacked_bytes", sa.Integer(), nullable=True),
            sa.Column("tarball_bytes", sa.Integer(), nullable=True),
            sa.Column("released", sa.Date(), nullable=True),
            sa.Column("note", sa.Text(), nullable=False),
        ],
    ),
    "a11y": (
        "motion_a11y",
        lambda: [
            sa.Column("id", sa.String(length=120), nullable=False),
            sa.Column("criterion", sa.String(length=60), nullable=False),
            sa.Column("level", sa.String(length=3), nullable=False),
            sa.Column("title", sa.String(length=200), nullable=False),
            sa.Column("rule", sa.Text(), nullable=False),
            sa.Column("check", sa.Text(), nullable=False),
        ],
    ),
}


def _motion_record() -> list[sa.Column]:
    return [
        sa.Column("record_type", sa.String(length=20), nullable=False),
        sa.Column("id", sa.String(length=120), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        *_provenance(),
    ]


def _stored(column: sa.Column, value: object) -> object:
    """A payload value (JSON: dates as text) as its column stores it."""
    if isinstance(column.type, sa.Date) and isinstance(value, str):
        return date.fromisoformat(value)
    return value


def _payload(row: dict) -> dict:
    """A row as the JSON payload motion_record held (the record's fields, dates as text)."""
    return {k: v.isoformat() if isinstance(v, date) else v for k, v in row.items()}


def upgrade() -> None:
    for table, column, before, after in CHANGES:
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, existing_type=before, type_=after, existing_nullable=False)

    bind = op.get_bind()
    old = sa.Table("motion_record", sa.MetaData(), *_motion_record())
    rows = [dict(r) for r in bind.execute(sa.select(old)).mappings()]
    for kind, (name, columns) in MOTION.items():
        table = op.create_table(
            name, *columns(), *_provenance(), sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{name}"))
        )
        fields = [c for c in table.columns if c.name not in PROVENANCE]
        moved = [
            {**{c.name: _stored(c, r["payload"].get(c.name)) for c in fields}, **{k: r[k] for k in PROVENANCE}}
            for r in rows
            if r["record_type"] == kind
        ]
        if moved:
            op.bulk_insert(table, moved)
    op.drop_table("motion_record")


def downgrade() -> None:
    bind = op.get_bind()
    old = op.create_table(
        "motion_record", *_motion_record(), sa.PrimaryKeyConstraint("record_type", "id", name=op.f("pk_motion_record"))
    )
    for kind, (name, columns) in MOTION.items():
        table = sa.Table(name, sa.MetaData(), *columns(), *_provenance())
        rows = [dict(r) for r in bind.execute(sa.select(table)).mappings()]
        if rows:
            op.bulk_insert(
                old,
                [{"record_type": kind, "payload": _payload(r), **{k: r[k] for k in ("id", *PROVENANCE)}} for r in rows],
            )
        op.drop_table(name)

    for table, column, before, after in reversed(CHANGES):
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, existing_type=after, type_=before, existing_nullable=False)
