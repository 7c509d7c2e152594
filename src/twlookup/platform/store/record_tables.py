"""Tables derived from record models: a record's fields are named once, in its `Record` class, and
its table is built from them.

`record_table(Shop, "food_shop", key="id", index=("lat", "category"))` gives the mapped class whose
columns are the record's fields, typed from their annotations:

| field annotation | column |
|---|---|
| `str` with `max_length` (Field or constr) | `String(max_length)` |
| `str` without a bound | `Text` |
| `Literal["a", "bc"]` of strings | `String(longest value)` |
| `int` / `float` / `bool` | `Integer` / `Float` / `Boolean` |
| `Decimal` with `max_digits` and `decimal_places` | `Numeric(max_digits, decimal_places)` |
| `date` / `datetime` | `Date` / `DateTime(timezone=True)` |
| lists, tuples, dicts, nested models | `RecordJSON` (JSON; nested records' dates stored as ISO text) |

A field that admits `None` is a nullable column; a scalar default is the column's default. A
`SourcedRecord`'s provenance (source, source_title, checked, licence, sample) comes from the
`Provenance` mixin, so every sourced table stores it the same way and rows give `source_ref`.
Columns a record does not hold (the seed `position`, a stored search form) are passed in `extra`;
`override` replaces the derived column of a field whose stored form differs (say a longer
`String`); `unique` names fields whose column is unique;
`foreign` maps a field to the column it refers to ("share_share.id"); `autoincrement=True` lets the
store number an integer key; `provenance=True` stores the `Provenance`
columns beside a record that does not carry them itself (the logic reads only its facts, the row
keeps where it came from). Each derived table is listed in `DERIVED`, which tests read to check that every field
has its column.
"""

from __future__ import annotations

import types
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union, cast, get_args, get_origin

import annotated_types
from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined, to_jsonable_python
from sqlalchemy import JSON, Boolean, Date, DateTime, Float, ForeignKey, Integer, Numeric, String, Table, Text
from sqlalchemy.orm import mapped_column
from sqlalchemy.types import TypeDecorator, TypeEngine

from twlookup.platform.records import PROVENANCE_FIELDS, Record, SourcedRecord
from twlookup.platform.store.base import Base, Provenance

if TYPE_CHECKING:

    class _DerivedColumns(type):
        def __getattr__(cls, name: str) -> Any: ...

    class DerivedRow(metaclass=_DerivedColumns):
        """What a type checker sees of a derived table class: its columns are made at run time from
        the record, so they (on the class and on a row) are `Any`; the class itself is one type, so
        `session.scalars(select(ShopRow))` gives rows of it (queries on it are checked by the tests)."""

        __table__: Table

        def __init__(self, **values: Any) -> None: ...

        def __getattr__(self, name: str) -> Any: ...

        def __setattr__(self, name: str, value: Any) -> None: ...


SCALARS: dict[type, TypeEngine[Any]] = {
    int: Integer(),
    float: Float(),
    bool: Boolean(),
    date: Date(),
    datetime: DateTime(timezone=True),
}


class RecordJSON(TypeDecorator[Any]):
    """JSON holding nested records (a list of delays, of dated entries): dates and models are
    stored as their JSON form, and the record model reads them back (`Model.model_validate(row)`)."""

    impl = JSON
    cache_ok = True

    def process_bind_param(self, value: Any, dialect: Any) -> Any:
        return to_jsonable_python(value)


class RecordTableError(TypeError):
    """A record field whose annotation has no column type here: give it one in `override`."""


@dataclass(frozen=True)
class Derived:
    """One derived table: the record it mirrors and the columns added beside the record's fields."""

    record: type[Record]
    table: Any
    extra: frozenset[str]


DERIVED: list[Derived] = []


def _without_none(annotation: Any) -> tuple[Any, bool]:
    """The annotation with `None` taken out, and whether it admitted `None`."""
    if get_origin(annotation) in (Union, types.UnionType):
        args = [a for a in get_args(annotation) if a is not type(None)]
        optional = len(args) < len(get_args(annotation))
        inner = args[0] if len(args) == 1 else Union[tuple(args)]  # noqa: UP007 (built from a tuple)
        return inner, optional
    return annotation, False


def _max_length(field: FieldInfo, annotation: Any) -> int | None:
    metadata = list(field.metadata)
    if get_origin(annotation) is Annotated:
        metadata += list(get_args(annotation)[1:])
    for item in metadata:
        if isinstance(item, annotated_types.MaxLen):
            return int(item.max_length)
        bound = getattr(item, "max_length", None)
        if isinstance(bound, int):
            return bound
    return None


def _bound(field: FieldInfo, annotation: Any, name: str) -> int | None:
    """A numeric bound of the field (`max_digits`, `decimal_places`), from Field or Annotated."""
    metadata = list(field.metadata)
    if get_origin(annotation) is Annotated:
        metadata += list(get_args(annotation)[1:])
    for item in metadata:
        value = getattr(item, name, None)
        if isinstance(value, int):
            return value
    return None


def column_type(name: str, field: FieldInfo) -> tuple[TypeEngine[Any], bool]:
    """The column type for a record field, and whether the column is nullable."""
    annotation, optional = _without_none(field.annotation)
    base = get_args(annotation)[0] if get_origin(annotation) is Annotated else annotation
    if base is str:
        bound = _max_length(field, annotation)
        return (String(bound) if bound else Text()), optional
    if get_origin(base) is Literal:
        values = get_args(base)
        if all(isinstance(v, str) for v in values):
            return String(max(len(v) for v in values)), optional
    if isinstance(base, type) and base in SCALARS:
        return SCALARS[base], optional
    if base is Decimal:
        digits, places = _bound(field, annotation, "max_digits"), _bound(field, annotation, "decimal_places")
        if digits is None or places is None:
            raise RecordTableError(f"field {name!r}: a Decimal column needs max_digits and decimal_places")
        return Numeric(digits, places), optional
    if get_origin(base) in (list, tuple, dict, set, frozenset) or (
        isinstance(base, type) and issubclass(base, BaseModel)
    ):
        return RecordJSON(), optional
    raise RecordTableError(f"field {name!r}: no column type for {field.annotation!r}; give one in override")


def _column(
    name: str,
    field: FieldInfo,
    primary: bool,
    indexed: bool,
    unique: bool = False,
    refers: str | None = None,
    autoincrement: bool = False,
) -> Any:
    kind, nullable = column_type(name, field)
    options: dict[str, Any] = {"nullable": nullable and not primary, "index": indexed or None}
    if unique:
        options["unique"] = True
    if primary:
        options["primary_key"] = True
        if isinstance(kind, Integer):
            options["autoincrement"] = autoincrement
    if refers:
        return mapped_column(kind, ForeignKey(refers), **options)
    default = field.default
    if default is not PydanticUndefined and (default is None or isinstance(default, str | int | float | bool)):
        options["default"] = default
    return mapped_column(kind, **options)


def record_table(
    record: type[Record],
    table: str,
    *,
    key: str | Iterable[str] = "id",
    index: Iterable[str] = (),
    unique: Iterable[str] = (),
    foreign: Mapping[str, str] | None = None,
    autoincrement: bool = False,
    extra: Mapping[str, Any] | None = None,
    override: Mapping[str, Any] | None = None,
    name: str | None = None,
    base: type[Any] = Base,
    provenance: bool = False,
) -> type[DerivedRow]:
    """The mapped table class mirroring `record` (see the module's notes). `key` names the primary
    key field(s); `index` the fields to index; `unique` the fields whose values are unique;
    `foreign` the fields that refer to another table's column; `autoincrement` whether the store
    numbers an integer key; `extra` maps added column names to `mapped_column`s; `override` maps
    field names to the `mapped_column` to use instead of the derived one; `base` is the declarative
    base (the store's own unless a test gives another; only the store's are listed in `DERIVED`);
    `provenance` stores the Provenance columns beside a record that does not carry them.

    A type checker sees the class as `DerivedRow`: its columns are made here from the record, so
    their types cannot be seen (queries on it are checked by the tests instead)."""
    keys = {key} if isinstance(key, str) else set(key)
    indexed = set(index)
    uniques = set(unique)
    refers = dict(foreign or {})
    extra = dict(extra or {})
    override = dict(override or {})
    sourced = issubclass(record, SourcedRecord)
    fields = {n: f for n, f in record.model_fields.items() if not (sourced and n in PROVENANCE_FIELDS)}
    unknown = (keys | indexed | uniques | set(refers) | set(override)) - set(fields)
    if unknown:
        raise RecordTableError(f"{record.__name__}: {sorted(unknown)} are not fields of the record")
    clash = set(extra) & set(record.model_fields)
    if clash:
        raise RecordTableError(f"{record.__name__}: extra columns {sorted(clash)} are record fields; use override")
    namespace: dict[str, Any] = {"__tablename__": table, "__module__": record.__module__}
    for field_name, field in fields.items():
        namespace[field_name] = override.get(field_name) or _column(
            field_name,
            field,
            field_name in keys,
            field_name in indexed,
            field_name in uniques,
            refers.get(field_name),
            autoincrement,
        )
    namespace.update(extra)
    bases: tuple[type, ...] = (Provenance, base) if sourced or provenance else (base,)
    cls = type(name or f"{record.__name__}Row", bases, namespace)
    if base is Base:
        added = set(extra) | (PROVENANCE_FIELDS - set(record.model_fields) if provenance and not sourced else set())
        DERIVED.append(Derived(record=record, table=cls, extra=frozenset(added)))
    return cast("type[DerivedRow]", cls)
