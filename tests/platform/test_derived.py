"""`per_value`: an answer derived from reference data alone is built once per value and keys, and
built again when the value is replaced (a re-seed hands operations a new object)."""

from __future__ import annotations

from twlookup.platform.store.derived import MAX_KEYS, per_value


class Catalogue:
    def __init__(self, names: list[str]) -> None:
        self.names = names


def counted() -> tuple[per_value[Catalogue, list[str]], list[tuple[int, str | None]]]:
    calls: list[tuple[int, str | None]] = []

    @per_value
    def listing(catalogue: Catalogue, prefix: str | None) -> list[str]:
        calls.append((id(catalogue), prefix))
        return [n for n in catalogue.names if prefix is None or n.startswith(prefix)]

    return listing, calls


def test_built_once_per_value_and_keys() -> None:
    listing, calls = counted()
    cat = Catalogue(["ai", "api", "gpu"])
    assert listing(cat, None) == ["ai", "api", "gpu"]
    assert listing(cat, None) is listing(cat, None)
    assert listing(cat, "a") == ["ai", "api"]
    assert calls == [(id(cat), None), (id(cat), "a")]


def test_a_new_value_forgets_what_was_built_from_the_old() -> None:
    listing, calls = counted()
    old = Catalogue(["ai"])
    assert listing(old, None) == ["ai"]
    new = Catalogue(["ai", "gpu"])  # a re-seed: a new object, even if an equal one
    assert listing(new, None) == ["ai", "gpu"]
    assert len(calls) == 2
    assert listing(old, None) == ["ai"]  # back to the old value: built again, not served from the new
    assert len(calls) == 3


def test_keys_are_bounded() -> None:
    listing, calls = counted()
    cat = Catalogue(["a"])
    for n in range(MAX_KEYS + 5):
        listing(cat, str(n))
    assert len(listing.kept[1]) == MAX_KEYS
    listing(cat, "0")  # the oldest was dropped: built again
    assert calls[-1] == (id(cat), "0") and len(calls) == MAX_KEYS + 6
