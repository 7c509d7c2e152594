"""One typed model per record: a data file that does not match its record model fails the seed,
naming the file, the record and the field, and the store keeps what it had."""

from __future__ import annotations

import shutil
from datetime import date

import pytest

from twlookup import cli
from twlookup.domain.model_lifecycle import Model
from twlookup.domain.model_lifecycle_tables import ModelRow
from twlookup.platform.records import (
    DataFileError,
    Record,
    RecordAnswer,
    SourcedRecord,
    as_answer,
    load_records,
    to_row,
)
from twlookup.settings import get_settings


class Point(SourcedRecord):
    id: str
    value: int


def test_load_records_takes_file_provenance_and_names_a_bad_field(tmp_path):
    path = tmp_path / "points.yaml"
    path.write_text(
        "checked: 2026-11-22\nsource: https://example.org/list\npoints:\n"
        "  - {id: a, value: 1}\n  - {id: b, value: 2, source: https://example.org/b}\n",
        encoding="utf-8",
    )
    a, b = load_records(path, Point, "points")
    assert (a.source, a.checked, b.source) == ("https://example.org/list", date(2026, 11, 22), "https://example.org/b")
    path.write_text(
        "checked: 2026-11-22\nsource: https://example.org\npoints:\n  - {id: c, value: many}\n", encoding="utf-8"
    )
    with pytest.raises(DataFileError) as err:
        load_records(path, Point, "points")
    assert str(path) in str(err.value) and "'c'" in str(err.value) and "field value" in str(err.value)
    path.write_text("checked: 2026-11-22\npoints:\n  - {id: d, value: 1, colour: red}\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"'d'.*field colour"):  # unknown fields are refused too
        load_records(path, Point, "points")


def test_a_record_round_trips_through_its_table_row():
    model = Model(
        id="m-1",
        provider="openai",
        name="M 1",
        kind="chat",
        aliases=("m1",),
        retirement_date=date(2027, 1, 1),
        source="https://example.org/notice",
        checked=date(2026, 11, 22),
    )
    row = to_row(model, ModelRow)
    assert row.aliases == ["m1"] and row.retirement_date == date(2027, 1, 1)
    assert Model.model_validate(row) == model


def test_a_bad_data_file_fails_seed_naming_file_record_and_field(tmp_path, fresh_store, monkeypatch, capsys):
    data = tmp_path / "data"
    shutil.copytree(cli.DEFAULT_DATA, data)
    path = data / "models" / "models.yaml"
    text = path.read_text(encoding="utf-8")
    assert "  provider: openai\n  name: GPT-3.5 text-davinci-003\n" in text
    path.write_text(
        text.replace(
            "  provider: openai\n  name: GPT-3.5 text-davinci-003\n",
            "  provider: openia\n  name: GPT-3.5 text-davinci-003\n",
        ),
        encoding="utf-8",
    )
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", fresh_store)
    get_settings.cache_clear()
    try:
        assert cli.main(["seed", "--data", str(data)]) == 1
        err = capsys.readouterr().err
        assert str(path) in err and "'text-davinci-003'" in err and "field provider" in err
        assert cli.main(["seed"]) == 0  # the shipped data seeds
    finally:
        get_settings.cache_clear()


def test_the_fast_yaml_loader_reads_every_data_file_as_the_python_one_does():
    """Data files are read with libyaml's parser (CSafeLoader) where PyYAML has it: it must give
    exactly what the pure-Python SafeLoader gives, for every file shipped."""
    import yaml

    from twlookup.bundled import data_dir
    from twlookup.platform.data_prefetch import safe_loader
    from twlookup.platform.records import read_data_file

    assert safe_loader() is getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    files = sorted(data_dir().rglob("*.yaml"))
    assert len(files) > 50
    for path in files:
        with path.open(encoding="utf-8") as fh:
            assert read_data_file(path) == yaml.load(fh, Loader=yaml.SafeLoader), path


def test_records_of_one_provenance_share_one_source_and_a_copy_gets_its_own():
    """An answer's `source` is built from its record's provenance. Records read from one file
    share it, and a listing of 229 models built 229 equal `Source` objects on every request: now
    one per provenance, shared (answers never change it). A record copied with another check date
    gets a source that says that date."""
    prov = {"source": "https://example.org/notice", "source_title": "Notice", "checked": date(2026, 11, 20)}
    a = Model(id="m-a", provider="openai", name="A", kind="chat", **prov)
    b = Model(id="m-b", provider="openai", name="B", kind="chat", **prov)
    assert a.source_ref is b.source_ref
    assert a.source_ref.model_dump() == {
        "url": "https://example.org/notice",
        "title": "Notice",
        "checked": date(2026, 11, 20),
        "licence": None,
        "sample": False,
    }
    later = a.model_copy(update={"checked": date(2026, 11, 27)})
    assert later.source_ref.checked == date(2026, 11, 27) and a.source_ref.checked == date(2026, 11, 20)
    sample = a.model_copy(update={"sample": True})
    assert sample.source_ref.sample is True and sample.source_ref is not a.source_ref


class Part(Record):
    name: str
    grams: int


class Kit(SourcedRecord):
    id: str
    parts: tuple[Part, ...]
    tags: tuple[str, ...]
    secret: str


class KitOut(RecordAnswer, record=Kit, exclude=("secret",)):
    tags: list[str]  # the answer's own type for a record field
    heaviest: str | None


def test_an_answer_takes_its_record_values_as_held_and_shows_what_a_dump_would():
    """`as_answer` took every value through `model_dump` and validated the dump again: a nested
    record was rebuilt from a dict on every request. A field the answer declares with the record's
    own type is now taken as the record holds it (already valid); one it declares otherwise is
    still dumped and validated into the answer's type. The answer shows the same either way, and a
    copied record shows its new values."""
    kit = Kit(
        id="k1",
        parts=({"name": "chain", "grams": 250}, {"name": "bell", "grams": 30}),
        tags=("city", "touring"),
        secret="not shown",
        source="https://example.org/kits",
        checked=date(2026, 11, 20),
    )
    out = as_answer(kit, KitOut, heaviest="chain")
    assert out.parts[0] is kit.parts[0]  # carried, not rebuilt
    assert out.tags == ["city", "touring"] and isinstance(out.tags, list)
    assert out.source is kit.source_ref
    assert out.model_dump(mode="json") == {
        "id": "k1",
        "parts": [{"name": "chain", "grams": 250}, {"name": "bell", "grams": 30}],
        "tags": ["city", "touring"],
        "heaviest": "chain",
        "source": {
            "url": "https://example.org/kits",
            "title": None,
            "checked": "2026-11-20",
            "licence": None,
            "sample": False,
        },
    }
    lighter = kit.model_copy(update={"parts": (Part(name="bell", grams=30),), "tags": ("city",)})
    again = as_answer(lighter, KitOut, heaviest="bell")
    assert [p.name for p in again.parts] == ["bell"] and again.tags == ["city"]
    assert [p.name for p in out.parts] == ["chain", "bell"]  # the first answer is untouched
