"""Start-up builds few models: every pydantic model of the package is built on first use.

A model class that subclasses pydantic's `BaseModel` directly is built (validator, serializer)
when its module is imported, on every start; deriving it from `LazyModel` defers that to the
first request that uses it (docs/development.md)."""

from __future__ import annotations

from pydantic import BaseModel
from pydantic_settings import BaseSettings

from twlookup.platform.schemas import LazyModel
from twlookup.services import load_services


def _subclasses(cls: type) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def test_every_model_of_the_package_is_built_on_first_use() -> None:
    load_services()
    ours = {m for m in _subclasses(BaseModel) if m.__module__.startswith("twlookup.")}
    eager = sorted(
        f"{m.__module__}.{m.__qualname__}"
        for m in ours
        if not issubclass(m, BaseSettings) and not m.model_config.get("defer_build")
    )
    assert len(ours) > 500  # the services were loaded
    assert eager == [], f"derive these from twlookup.platform.schemas.LazyModel: {eager}"


def test_a_deferred_model_validates_and_serialises_as_before() -> None:
    class Point(LazyModel):
        x: int
        y: int = 0

    assert not Point.__pydantic_complete__  # nothing built at class creation
    point = Point.model_validate({"x": "3"})
    assert Point.__pydantic_complete__
    assert point.model_dump_json() == '{"x":3,"y":0}'
    assert Point.model_json_schema()["required"] == ["x"]


def test_first_uses_in_several_threads_at_once_all_validate() -> None:
    """Blocking operations run in worker threads, so a model's first use may come from several at
    once: each must get the model's own validator (pydantic serialises rebuilds under a lock),
    never its parent's, which would refuse the fields the parent does not have."""
    from concurrent.futures import ThreadPoolExecutor

    from twlookup.platform.operations import Params

    class Wide(Params):
        a: int
        b: str = "x"
        c: tuple[int, ...] = ()
        d: dict[str, float] | None = None

    with ThreadPoolExecutor(8) as pool:
        made = list(pool.map(lambda n: Wide.model_validate({"a": n, "b": "y", "c": [n], "d": {"k": 1.5}}), range(64)))
    assert [m.a for m in made] == list(range(64))
    assert all(m.c == (m.a,) for m in made)
