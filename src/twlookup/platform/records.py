"""One typed model per record: the data file is validated against it, the logic works on it,
answers are built from it, and the store's table mirrors it.

A service declares each kind of record once, as a `Record` (or `SourcedRecord` when it carries
provenance). Seeding reads the data file with `load_records`, which names the file, the record
and the field when a value is wrong; `to_row` turns a record into its table row and
`Record.model_validate(row)` turns a row back into the record (`from_attributes`).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable, Mapping
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from twlookup.platform import data_prefetch
from twlookup.platform.schemas import LazyModel, Source

R = TypeVar("R", bound="Record")
A = TypeVar("A", bound=BaseModel)


class DataFileError(ValueError):
    """A reference data file does not match its record model: says file, record and field."""


class Record(LazyModel):
    """Base of every record model: immutable, strict about unknown fields, readable from rows."""

    model_config = ConfigDict(frozen=True, extra="forbid", from_attributes=True)


@functools.lru_cache(maxsize=4096)
def _shared_source(url: str, title: str | None, checked: date, licence: str | None, sample: bool) -> Source:
    """The records of a data file mostly share one provenance: a listing built an equal `Source`
    for each of its items on every request (229 for the models' list)."""
    return Source(url=url, title=title, checked=checked, licence=licence, sample=sample)


class SourcedRecord(Record):
    """A record with provenance, stored in the flat columns of `store.base.Provenance`."""

    source: str
    source_title: str | None = None
    checked: date
    licence: str | None = None
    sample: bool = False

    @property
    def source_ref(self) -> Source:
        """The record's provenance as the `Source` object answers carry: one object per
        provenance, shared by every record and answer that has it (nothing changes it)."""
        return _shared_source(self.source, self.source_title, self.checked, self.licence, self.sample)

    def cite(self, url: str, title: str | None = None, checked: date | None = None) -> Source:
        """A further page this record rests on, cited with the record's check date (or the page's
        own, `checked`, where the data gives one) and its sample flag (a sample record's every
        citation says so)."""
        return Source(url=url, title=title, checked=checked or self.checked, sample=self.sample)


class Citation(Record):
    """A page a record cites: its title and address."""

    title: str
    url: str


class CitingRecord(SourcedRecord):
    """A record that cites several pages (`sources`); its `source` and `source_title` are the first
    one's unless the data gives them."""

    sources: tuple[Citation, ...]

    @property
    def source_refs(self) -> list[Source]:
        """Every page the record cites, as answers carry them, each under its own title: its own
        source as `source_ref` (licence included), the others by `cite`; all with its check date
        and sample flag."""
        own = self.source_ref
        return [
            own.model_copy(update={"title": c.title}) if c.url == self.source else self.cite(c.url, c.title)
            for c in self.sources
        ]

    @model_validator(mode="before")
    @classmethod
    def _first_source(cls, values: Any) -> Any:
        if isinstance(values, Mapping) and "source" not in values and values.get("sources"):
            first = values["sources"][0]
            if isinstance(first, Mapping):
                return {**values, "source": first.get("url"), "source_title": first.get("title")}
        return values


def read_data_file(path: Path) -> Any:
    found = data_prefetch.take(path)  # parsed by a seed's helper process (platform/data_prefetch.py)
    return found if found is not data_prefetch.MISSING else data_prefetch.parse(path)


def validate_records(
    path: Path,
    items: Iterable[Mapping[str, Any]],
    model: type[R],
    defaults: Mapping[str, Any] | None = None,
    label: str = "id",
) -> list[R]:
    """Validate each item of a data file against `model`; `defaults` fill fields an item leaves out
    (e.g. the file-wide `checked` date). The first bad record raises DataFileError."""
    records: list[R] = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise DataFileError(f"{path}: record {index + 1} is not a mapping")
        values = {**(defaults or {}), **item}
        try:
            records.append(model.model_validate(values))
        except ValidationError as exc:
            name = item.get(label, f"#{index + 1}")
            problems = "; ".join(
                f"field {'.'.join(str(p) for p in err['loc']) or '(record)'}: {err['msg']}" for err in exc.errors()
            )
            raise DataFileError(f"{path}: record {name!r} ({model.__name__}): {problems}") from None
    return records


# File-wide values a data file may give once for all its records (its provenance).
FILE_DEFAULTS = ("source", "source_title", "checked", "licence", "sample")


def file_defaults(doc: Mapping[str, Any], model: type[Record]) -> dict[str, Any]:
    """The file-wide provenance values of `doc` that `model` has fields for."""
    return {k: doc[k] for k in FILE_DEFAULTS if k in doc and k in model.model_fields}


def load_records(path: Path, model: type[R], key: str, label: str = "id") -> list[R]:
    """Read `key` (a list) from a YAML data file and validate each item against `model`. The file's
    top-level provenance (`checked`, and `source`, `source_title`, `licence`, `sample` where given)
    is the default for items that do not give their own."""
    doc = read_data_file(path)
    if not isinstance(doc, Mapping) or not isinstance(doc.get(key), list):
        raise DataFileError(f"{path}: expected a mapping with a list under {key!r}")
    return validate_records(path, doc[key], model, file_defaults(doc, model), label)


def to_row(record: Record, table: type[Any], **extra: Any) -> Any:
    """The table row mirroring `record`: the fields of the record that the table has, with `extra`
    (columns the record does not hold, or a stored form of a field) added or taking precedence."""
    columns = set(table.__table__.columns.keys())
    values = {k: list(v) if isinstance(v, tuple) else v for k, v in record.model_dump().items() if k in columns}
    return table(**{**values, **extra})


PROVENANCE_FIELDS = frozenset({"source", "source_title", "checked", "licence", "sample"})


# Every answer model derived from a record, with the fields it leaves out: tests check that the
# answer carries every other field of its record.
ANSWERS: list[tuple[type[Record], type[BaseModel], frozenset[str]]] = []

if TYPE_CHECKING:  # pydantic does not export its metaclass; this is the class `type(BaseModel)` is
    from pydantic._internal._model_construction import ModelMetaclass as _ModelMeta
else:
    _ModelMeta = type(BaseModel)


class _AnswerMeta(_ModelMeta):
    """Puts a record's fields into an answer class before pydantic builds it (see RecordAnswer)."""

    def __new__(
        mcs,
        name: str,
        bases: tuple[type, ...],
        namespace: dict[str, Any],
        record: type[Record] | None = None,
        exclude: Iterable[str] = (),
        **kwargs: Any,
    ) -> type:
        left_out = frozenset(exclude)
        if record is not None:
            unknown = left_out - set(record.model_fields)
            if unknown:
                raise TypeError(f"{name}: cannot exclude {sorted(unknown)}, not fields of {record.__name__}")
            sourced = issubclass(record, SourcedRecord)
            own = dict(namespace.get("__annotations__", {}))
            skip = left_out | (PROVENANCE_FIELDS if sourced else frozenset()) | set(own)
            derived: dict[str, Any] = {}
            for field_name, field in record.model_fields.items():
                if field_name not in skip:
                    derived[field_name] = field.annotation
                    namespace[field_name] = copy.copy(field)
            if sourced and "source" not in own:
                derived["source"] = Source
            namespace["__annotations__"] = {**derived, **own}
        cls = super().__new__(mcs, name, bases, namespace, **kwargs)
        if record is not None:
            ANSWERS.append((record, cls, left_out))
        return cls

    def __init__(cls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> None:
        kwargs.pop("record", None)
        kwargs.pop("exclude", None)
        super().__init__(name, bases, namespace, **kwargs)


class RecordAnswer(LazyModel, metaclass=_AnswerMeta):
    """Base of an answer that shows a record: `class ShopOut(RecordAnswer, record=Shop,
    exclude=("amenity",))` has every field of `Shop` (with its description and constraints) but
    those excluded, a sourced record's provenance nested as `source` (url, title, checked, licence,
    sample), and the fields the class itself adds (computed values: `open_now`, `distance_m`).
    Build one with `as_answer(record, ShopOut, open_now=...)`."""

    def __init_subclass__(cls, record: type[Record] | None = None, exclude: Iterable[str] = (), **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)

    if TYPE_CHECKING:
        # The fields taken from the record are made when the class is built, where a type checker
        # cannot see them: reading one (`answer.name`) is typed Any; the class's own fields keep
        # their types.
        def __getattr__(self, name: str) -> Any: ...


def answer_model(model: type[Record], *, exclude: Iterable[str] = (), name: str | None = None) -> type[BaseModel]:
    """`RecordAnswer` for `model` with nothing added, made without a class statement."""
    made = _AnswerMeta(
        name or f"{model.__name__}Answer",
        (RecordAnswer,),
        {"__module__": model.__module__},
        record=model,
        exclude=exclude,
    )
    return cast("type[BaseModel]", made)  # _AnswerMeta builds BaseModel classes


def from_attributes(model: type[A], obj: Any, /, **computed: Any) -> A:
    """`model` with each field read from the attribute of the same name of `obj` (a row, a
    dataclass), but for the fields given in `computed`, whose values `obj` does not hold as such."""
    values = {name: getattr(obj, name) for name in _answer_fields(model) if name not in computed}
    return model.model_validate({**values, **computed})


@functools.cache
def _answer_fields(answer: type[BaseModel]) -> set[str]:
    """The field names of an answer class, read once (each `model_fields` read runs a Python descriptor)."""
    return set(answer.model_fields)  # shared, never changed


@functools.cache
def _carried_fields(record: type[Record], answer: type[BaseModel]) -> tuple[tuple[str, ...], set[str]]:
    """The fields of `record` that `answer` shows: those it declares with the record's own type,
    whose values it takes as the record holds them (already valid: a nested record passes as it
    is), and those it declares otherwise (an answer's own type for a field), dumped first. A
    sourced record's `source` is neither: the answer shows its provenance as a `Source`."""
    shown = answer.model_fields
    as_held: list[str] = []
    dumped: set[str] = set()
    for name, field in record.model_fields.items():
        if name not in shown or (name == "source" and issubclass(record, SourcedRecord)):
            continue
        if shown[name].annotation == field.annotation:
            as_held.append(name)
        else:
            dumped.add(name)
    return tuple(as_held), dumped  # shared, never changed


def as_answer(record: Record, answer: type[A], **added: Any) -> A:
    """`record` in its answer shape (a `RecordAnswer`), with the values of the fields it adds."""
    as_held, dumped = _carried_fields(type(record), answer)
    held = record.__dict__
    values = {name: held[name] for name in as_held}
    if dumped:
        values.update(record.model_dump(include=dumped))
    if isinstance(record, SourcedRecord):
        values["source"] = record.source_ref
    values.update(added)
    return answer.model_validate(values)
