"""Declarative base shared by every service's tables, and the provenance every record carries."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, ClassVar

from sqlalchemy import MetaData, String, Table
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from twlookup.platform.schemas import Source

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)

    if TYPE_CHECKING:  # every table here is declared with its columns, none maps a select
        __table__: ClassVar[Table]


class Provenance:
    """Where a record comes from: source URL, its title, the date it was checked, licence, sample flag."""

    source: Mapped[str] = mapped_column(String(500))
    source_title: Mapped[str | None] = mapped_column(String(300), default=None)
    checked: Mapped[date]
    licence: Mapped[str | None] = mapped_column(String(100), default=None)
    sample: Mapped[bool] = mapped_column(default=False)

    @property
    def source_ref(self) -> Source:
        """The row's provenance as the `Source` object answers carry (licence and sample included)."""
        return Source(
            url=self.source, title=self.source_title, checked=self.checked, licence=self.licence, sample=self.sample
        )

    def provenance(self) -> dict[str, object]:
        out: dict[str, object] = {"source": self.source, "checked": self.checked.isoformat()}
        if self.source_title:
            out["source_title"] = self.source_title
        if self.licence:
            out["licence"] = self.licence
        if self.sample:
            out["sample"] = True
        return out
