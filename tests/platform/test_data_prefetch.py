"""A seed's data files parsed by a child interpreter (platform/data_prefetch.py): the same
documents as parsing them here, each handed out once, and every failure falls back to parsing here."""

from pathlib import Path

import pytest
import yaml

from twlookup.bundled import data_dir
from twlookup.platform import data_prefetch
from twlookup.platform.records import DataFileError, load_records, read_data_file
from twlookup.platform.schemas import LazyModel


def _parse_here(path: Path):
    with path.open(encoding="utf-8") as fh:
        return yaml.load(fh, Loader=yaml.SafeLoader)


def test_every_data_file_comes_from_the_child_as_it_would_be_parsed_here(monkeypatch):
    files = sorted(data_dir().rglob("*.yaml"))
    assert len(files) > 50
    expected = {path: _parse_here(path) for path in files}
    with data_prefetch.prefetched(data_dir()):
        # this process cannot parse YAML inside the block: each document must be the child's
        monkeypatch.setattr(yaml, "load", lambda *a, **k: pytest.fail("parsed here, not by the child"))
        for path in files:
            assert read_data_file(path) == expected[path], path
        monkeypatch.undo()
        # handed out once: a second read parses the file again (a seeder may change what it got)
        first = files[0]
        assert data_prefetch.take(first) is data_prefetch.MISSING
        assert read_data_file(first) == expected[first]
    assert data_prefetch._pending is None


def test_outside_the_block_and_after_it_files_are_parsed_here(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("a: 1\n")
    assert data_prefetch.take(path) is data_prefetch.MISSING
    with data_prefetch.prefetched(tmp_path):
        pass  # the child is stopped even though nothing was read
    path.write_text("a: 2\n")
    assert read_data_file(path) == {"a": 2}


class Item(LazyModel):
    id: str
    n: int


def test_a_file_the_child_cannot_parse_is_reported_as_before(tmp_path):
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yaml"
    good.write_text("items:\n  - {id: x, n: 1}\n")
    bad.write_text("items:\n  - {id: x, n: [1\n")
    with data_prefetch.prefetched(tmp_path):
        assert [i.n for i in load_records(good, Item, "items")] == [1]
        with pytest.raises(yaml.YAMLError):
            read_data_file(bad)
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("items:\n  - {id: y, n: many}\n")
    with data_prefetch.prefetched(tmp_path), pytest.raises(DataFileError, match=r"wrong\.yaml.*field n"):
        load_records(wrong, Item, "items")


def test_a_child_that_fails_leaves_the_parsing_here(tmp_path, monkeypatch):
    path = tmp_path / "a.yaml"
    path.write_text("a: 1\n")
    monkeypatch.setattr(data_prefetch.sys, "executable", "/bin/false")  # exits at once, prints nothing
    with data_prefetch.prefetched(tmp_path):
        assert read_data_file(path) == {"a": 1}
    monkeypatch.setattr(data_prefetch.sys, "executable", str(tmp_path / "no-such-python"))
    with data_prefetch.prefetched(tmp_path):  # cannot start at all
        assert read_data_file(path) == {"a": 1}
