"""Tables derived from records (`platform/store/record_tables.py`): each field becomes the column
its annotation calls for, and every derived table of every service holds all its record's fields."""

from datetime import date, datetime
from decimal import Decimal
from typing import Literal

import pytest
from pydantic import Field
from sqlalchemy import JSON, Boolean, Date, DateTime, Float, Integer, MetaData, Numeric, String, Text, create_engine
from sqlalchemy.orm import DeclarativeBase, Session, mapped_column

from twlookup.platform.records import Citation, Record, SourcedRecord
from twlookup.platform.store.record_tables import DERIVED, RecordJSON, RecordTableError, record_table
from twlookup.services import load_tables


class LocalBase(DeclarativeBase):
    metadata = MetaData()


class Visit(Record):
    day: date
    note: str


class Gadget(SourcedRecord):
    id: str = Field(max_length=40)
    name: str
    kind: Literal["tool", "toy"]
    count: int = 3
    weight: float | None = None
    fragile: bool = False
    made: date | None = None
    seen: datetime | None = None
    tags: list[str] = Field(default_factory=list)
    refs: tuple[Citation, ...] = ()
    visits: list[Visit] = Field(default_factory=list)
    price: Decimal | None = Field(None, max_digits=8, decimal_places=2)


def test_columns_follow_the_annotations():
    table = record_table(Gadget, "t_gadget", index=("kind",), base=LocalBase).__table__
    c = table.columns
    assert isinstance(c["id"].type, String) and c["id"].type.length == 40 and c["id"].primary_key
    assert isinstance(c["name"].type, Text) and not c["name"].nullable
    assert isinstance(c["kind"].type, String) and c["kind"].type.length == 4 and c["kind"].index
    assert isinstance(c["count"].type, Integer) and c["count"].default.arg == 3
    assert isinstance(c["weight"].type, Float) and c["weight"].nullable
    assert isinstance(c["fragile"].type, Boolean) and c["fragile"].default.arg is False
    assert isinstance(c["made"].type, Date) and isinstance(c["seen"].type, DateTime) and c["seen"].type.timezone
    # nested values are JSON that stores a nested record's dates as ISO text (see the round trip below)
    assert all(
        isinstance(c[n].type, RecordJSON) and c[n].type.impl_instance.__class__ is JSON
        for n in ("tags", "refs", "visits")
    )
    assert isinstance(c["price"].type, Numeric) and (c["price"].type.precision, c["price"].type.scale) == (8, 2)
    # provenance comes from the shared mixin, with the same lengths every sourced table has
    assert c["source"].type.length == 500 and c["licence"].type.length == 100 and not c["sample"].nullable


def test_a_row_round_trips_to_the_record_and_cites_with_licence_and_sample():
    cls = record_table(
        Gadget, "t_gadget2", extra={"position": mapped_column(Integer)}, name="GadgetTwo", base=LocalBase
    )
    engine = create_engine("sqlite://")
    LocalBase.metadata.create_all(engine)
    g = Gadget(
        id="g1",
        name="Pliers",
        kind="tool",
        source="https://example.org/p",
        checked=date(2026, 11, 1),
        licence="CC BY 4.0",
        sample=True,
        tags=["a"],
        price=Decimal("29.50"),
        refs=(Citation(title="t", url="https://example.org/r"),),
        visits=[Visit(day=date(2026, 10, 1), note="a nested record's date is stored and read back")],
    )
    with Session(engine) as s:
        s.add(cls(**g.model_dump(), position=1))
        s.commit()
        row = s.get(cls, "g1")
        assert Gadget.model_validate(row) == g
        assert row.source_ref.licence == "CC BY 4.0" and row.source_ref.sample is True
    assert g.cite("https://example.org/r").sample is True
    assert g.cite("https://example.org/r").checked == date(2026, 11, 1)


def test_unique_fields_and_provenance_kept_beside_a_record_without_it():
    class Reading(Record):
        code: str = Field(max_length=10)
        value: float
        sample: bool = False

    cls = record_table(Reading, "t_reading", key="code", unique=("code",), provenance=True, base=LocalBase)
    c = cls.__table__.columns
    assert c["code"].unique
    # the row keeps where the reading came from (the shared Provenance columns), the record does not
    assert {"source", "source_title", "checked", "licence", "sample"} <= set(c.keys())
    assert c["source"].type.length == 500 and not c["sample"].nullable
    engine = create_engine("sqlite://")
    LocalBase.metadata.create_all(engine)
    with Session(engine) as s:
        s.add(cls(code="a", value=1.5, source="https://example.org/f", checked=date(2026, 11, 1), sample=True))
        s.commit()
        row = s.get(cls, "a")
        assert Reading.model_validate(row) == Reading(code="a", value=1.5, sample=True)
        assert row.source_ref.url == "https://example.org/f" and row.source_ref.sample is True


def test_numbered_keys_and_references():
    class Post(Record):
        id: int
        title: str

    class Reply(Record):
        id: int
        post_id: int
        body: str

    posts = record_table(Post, "t_post", autoincrement=True, base=LocalBase)
    replies = record_table(Reply, "t_reply", foreign={"post_id": "t_post.id"}, autoincrement=True, base=LocalBase)
    (fk,) = replies.__table__.columns["post_id"].foreign_keys
    assert fk.target_fullname == "t_post.id"
    engine = create_engine("sqlite://")
    LocalBase.metadata.create_all(engine)
    with Session(engine) as s:
        post = posts(title="first")
        s.add(post)
        s.flush()
        s.add(replies(post_id=post.id, body="numbered by the store"))
        s.commit()
        assert [r.id for r in s.query(replies)] == [1] and post.id == 1


def test_a_citing_record_cites_every_page_with_its_provenance():
    from twlookup.platform.records import CitingRecord

    class Guide(CitingRecord):
        id: str

    g = Guide.model_validate(
        {
            "id": "g",
            "sources": [{"title": "A", "url": "https://example.org/a"}, {"title": "B", "url": "https://example.org/b"}],
            "checked": date(2026, 11, 1),
            "licence": "CC BY 4.0",
            "sample": True,
        }
    )
    own, other = g.source_refs
    assert (own.url, own.title, own.licence, own.sample) == ("https://example.org/a", "A", "CC BY 4.0", True)
    assert (other.url, other.title, other.checked, other.sample) == (
        "https://example.org/b",
        "B",
        date(2026, 11, 1),
        True,
    )


def test_mistakes_are_named():
    class Odd(Record):
        id: str
        blob: object

    with pytest.raises(RecordTableError, match="blob"):
        record_table(Odd, "t_odd", base=LocalBase)
    with pytest.raises(RecordTableError, match="nope"):
        record_table(Gadget, "t_g3", key="nope", base=LocalBase)

    class Unbounded(Record):
        id: str
        amount: Decimal

    with pytest.raises(RecordTableError, match="max_digits"):  # a Decimal column says its precision
        record_table(Unbounded, "t_unbounded", base=LocalBase)
    with pytest.raises(RecordTableError, match="override"):
        record_table(Gadget, "t_g4", extra={"name": mapped_column(Text)}, base=LocalBase)


def test_every_derived_table_holds_every_field_of_its_record():
    load_tables()
    assert all(d.table.__table__.metadata is not LocalBase.metadata for d in DERIVED)
    for d in DERIVED:
        columns = set(d.table.__table__.columns.keys())
        assert set(d.record.model_fields) <= columns, f"{d.table.__tablename__} lacks record fields"
        assert columns - set(d.record.model_fields) == set(d.extra), f"{d.table.__tablename__}: undeclared columns"


def test_every_answer_of_a_record_carries_its_fields_and_every_derived_record_is_answered():
    from twlookup.platform.records import ANSWERS, PROVENANCE_FIELDS, SourcedRecord

    load_tables()
    import twlookup.services as services

    for name in services.IMPLEMENTED:
        __import__(f"twlookup.services.{name}.schemas")
    for record, answer, left_out in ANSWERS:
        expected = set(record.model_fields) - left_out
        if issubclass(record, SourcedRecord):
            expected = (expected - PROVENANCE_FIELDS) | {"source"}
        assert expected <= set(answer.model_fields), f"{answer.__name__} lacks fields of {record.__name__}"
    answered = {record for record, _, _ in ANSWERS}
    unanswered = [d.record.__name__ for d in DERIVED if d.record not in answered]
    assert unanswered == [], "derived records with no RecordAnswer"
