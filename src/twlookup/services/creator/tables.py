"""Store tables of the creator service, each derived from its record in records.py (`record_table`):
one table per kind of reference record, and the company register extract.

Rates and amounts are Decimals kept as the text they were written in (`DecimalText`), so 0.10 reads
back as 0.10 from every store (SQLite has no exact decimal type)."""

from __future__ import annotations

import types
from decimal import Decimal
from typing import Any, Union, get_args, get_origin

from sqlalchemy import BigInteger, String
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import mapped_column
from sqlalchemy.types import TypeDecorator

from twlookup.platform.records import Record
from twlookup.platform.store.record_tables import record_table
from twlookup.services.creator import records


class DecimalText(TypeDecorator[Decimal]):
    """A Decimal stored as its text and read back exactly."""

    impl = String(24)
    cache_ok = True

    def process_bind_param(self, value: Decimal | None, dialect: Dialect) -> str | None:
        return None if value is None else str(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Decimal | None:
        return None if value is None else Decimal(value)


def decimals(record: type[Record]) -> dict[str, Any]:
    """`override` columns for the record's Decimal fields (nullable where the field admits None)."""
    out: dict[str, Any] = {}
    for name, field in record.model_fields.items():
        kinds = get_args(field.annotation) if get_origin(field.annotation) in (Union, types.UnionType) else ()
        if field.annotation is Decimal or Decimal in kinds:
            out[name] = mapped_column(DecimalText(), nullable=type(None) in kinds)
    return out


def kind_table(record: type[Record], table: str) -> Any:
    """The table of one kind of reference record, keyed by its id."""
    return record_table(record, table, override=decimals(record))


AdTermRow = kind_table(records.AdTerm, "creator_ad_term")
RuleRow = kind_table(records.Rule, "creator_rule")
ThresholdRow = kind_table(records.Threshold, "creator_threshold")
IncomeKindRow = kind_table(records.IncomeKind, "creator_income_kind")
WithholdingAgentRow = kind_table(records.WithholdingAgent, "creator_withholding_agent")
NhiRuleRow = kind_table(records.NhiRule, "creator_nhi_rule")
MinimumWageRow = kind_table(records.MinimumWage, "creator_minimum_wage")
PlatformRow = kind_table(records.Platform, "creator_platform")
ListingDutyRow = kind_table(records.ListingDuty, "creator_listing_duty")
EndorsementRuleRow = kind_table(records.EndorsementRule, "creator_endorsement_rule")
KIND_TABLES = (
    AdTermRow,
    RuleRow,
    ThresholdRow,
    IncomeKindRow,
    WithholdingAgentRow,
    NhiRuleRow,
    MinimumWageRow,
    PlatformRow,
    ListingDutyRow,
    EndorsementRuleRow,
)

# A company of the Ministry of Economic Affairs' register (GCIS open data); capital in NT$ needs 64 bits.
Company = record_table(
    records.CompanyRecord,
    "creator_company",
    key="ban",
    index=("name",),
    override={
        "capital": mapped_column(BigInteger, nullable=True),
        "paid_in_capital": mapped_column(BigInteger, nullable=True),
    },
)
