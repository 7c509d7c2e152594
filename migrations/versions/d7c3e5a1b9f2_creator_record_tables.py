"""creator: one table per kind of reference record, derived from its record

Revision ID: d7c3e5a1b9f2
Revises: d8b2f4a6c1e3
Create Date: 2026-11-26 17:30:00.000000

creator_record held every kind of the creator's reference records (ad terms, rules, tax
thresholds, withholding, NHI, minimum wage, platforms, listing duties, endorsement rules) as one
JSON payload per row. Each kind now has the table its record declares (records.py, `record_table`):
one column per field, provenance in the shared columns, rates as the text they were written in
(so 0.10 stays 0.10 on every store). The rows are carried over from the payloads (and back on
downgrade); the data files stay the same.
"""

from datetime import date
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "d7c3e5a1b9f2"
down_revision = "d8b2f4a6c1e3"
branch_labels = None
depends_on = None

# record_type in creator_record -> its own table
KINDS = {
    "term": "creator_ad_term",
    "rule": "creator_rule",
    "threshold": "creator_threshold",
    "income": "creator_income_kind",
    "nhi": "creator_nhi_rule",
    "agent": "creator_withholding_agent",
    "wage": "creator_minimum_wage",
    "platform": "creator_platform",
    "listing": "creator_listing_duty",
    "endorsement": "creator_endorsement_rule",
}


def _id() -> sa.Column:
    return sa.Column("id", sa.String(length=120), nullable=False)


def _decimal(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.String(length=24), nullable=nullable)


def _text(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.Text(), nullable=nullable)


def _provenance(table: str) -> list[Any]:
    return [
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{table}")),
    ]


def _kind_tables() -> dict[str, list[Any]]:
    return {
        "creator_ad_term": [
            _id(),
            sa.Column("category", sa.String(length=8), nullable=False),
            sa.Column("list", sa.String(length=10), nullable=False),
            _text("group"),
            _text("term"),
            sa.Column("match", sa.JSON(), nullable=False),
            _text("rule"),
            sa.Column("basis", sa.String(length=16), nullable=False),
            _text("suggestion", nullable=True),
        ],
        "creator_rule": [
            _id(),
            sa.Column("category", sa.String(length=8), nullable=False),
            _text("title"),
            _text("article"),
            _text("why"),
            sa.Column("penalty_min", sa.Integer(), nullable=True),
            sa.Column("penalty_max", sa.Integer(), nullable=True),
        ],
        "creator_threshold": [
            _id(),
            sa.Column("effective_from", sa.Date(), nullable=False),
            sa.Column("effective_to", sa.Date(), nullable=True),
            sa.Column("goods", sa.Integer(), nullable=False),
            sa.Column("services", sa.Integer(), nullable=False),
            sa.Column("invoice_threshold", sa.Integer(), nullable=False),
            _decimal("small_scale_rate"),
            _decimal("vat_rate"),
            _text("note"),
        ],
        "creator_income_kind": [
            _id(),
            _text("code"),
            _text("name"),
            _decimal("resident_rate"),
            sa.Column("resident_exempt_tax_upto", sa.Integer(), nullable=True),
            sa.Column("resident_start_from", sa.Integer(), nullable=True),
            _decimal("nonresident_rate"),
            _decimal("nonresident_low_rate", nullable=True),
            _decimal("nonresident_low_upto_wage_multiple", nullable=True),
            sa.Column("nonresident_exempt_payment_upto", sa.Integer(), nullable=True),
            sa.Column("nhi", sa.String(length=12), nullable=False),
            _text("note"),
        ],
        "creator_nhi_rule": [
            _id(),
            sa.Column("effective_from", sa.Date(), nullable=False),
            _decimal("rate"),
            sa.Column("threshold_general", sa.Integer(), nullable=False),
            sa.Column("cap", sa.Integer(), nullable=False),
            sa.Column("categories", sa.JSON(), nullable=False),
            sa.Column("part_time_threshold", sa.String(length=12), nullable=False),
            _text("rounding"),
        ],
        "creator_withholding_agent": [
            _id(),
            sa.Column("payer_is_business", sa.Boolean(), nullable=False),
            _text("tax_note"),
            _text("who_reports"),
        ],
        "creator_minimum_wage": [
            _id(),
            sa.Column("effective_from", sa.Date(), nullable=False),
            sa.Column("monthly", sa.Integer(), nullable=False),
        ],
        "creator_platform": [
            _id(),
            _text("name"),
            _decimal("commission_rate"),
            _decimal("payment_rate"),
            _decimal("payment_min", nullable=True),
            _decimal("fee_vat"),
            _text("note"),
        ],
        "creator_listing_duty": [
            _id(),
            sa.Column("category", sa.String(length=8), nullable=False),
            _text("title"),
            _text("duty"),
            _text("article"),
            sa.Column("risk", sa.String(length=6), nullable=False),
        ],
        "creator_endorsement_rule": [_id(), _text("title"), _text("rule"), _text("article")],
    }


def _record_table() -> list[Any]:
    return [
        sa.Column("record_type", sa.String(length=20), nullable=False),
        sa.Column("id", sa.String(length=120), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(length=500), nullable=False),
        sa.Column("source_title", sa.String(length=300), nullable=True),
        sa.Column("checked", sa.Date(), nullable=False),
        sa.Column("licence", sa.String(length=100), nullable=True),
        sa.Column("sample", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("record_type", "id", name=op.f("pk_creator_record")),
    ]


PROVENANCE = ("source", "source_title", "checked", "licence", "sample")


def upgrade() -> None:
    tables = {name: op.create_table(name, *columns, *_provenance(name)) for name, columns in _kind_tables().items()}
    old = sa.table("creator_record", sa.column("record_type", sa.String()), sa.column("payload", sa.JSON()))
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in tables}
    for kind, payload in op.get_bind().execute(sa.select(old.c.record_type, old.c.payload)):
        if kind not in KINDS:
            continue
        table = tables[KINDS[kind]]
        row = {}
        for column in table.columns:
            value = payload.get(column.name)
            if isinstance(column.type, sa.Date) and isinstance(value, str):
                value = date.fromisoformat(value)
            row[column.name] = value
        rows[table.name].append(row)
    for name, found in rows.items():
        if found:
            op.bulk_insert(tables[name], found)
    op.drop_table("creator_record")


def downgrade() -> None:
    record = op.create_table("creator_record", *_record_table())
    bind = op.get_bind()
    rows = []
    for kind, name in KINDS.items():
        table = sa.Table(name, sa.MetaData(), *_kind_tables()[name], *_provenance(name))
        for found in bind.execute(sa.select(table)).mappings():
            payload = {k: v.isoformat() if isinstance(v, date) else v for k, v in found.items()}
            rows.append(
                {"record_type": kind, "id": found["id"], "payload": payload, **{k: found[k] for k in PROVENANCE}}
            )
    if rows:
        op.bulk_insert(record, rows)
    for name in reversed(list(KINDS.values())):
        op.drop_table(name)
