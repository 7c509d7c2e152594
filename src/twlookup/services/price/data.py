"""Seeding and importing the price tables, and the cached catalog of the latest 90 days.

The shipped history is a sample (data/price/sample.yaml). Imported observations are real and
win: importing a product drops its sample rows, and a re-seed never puts them back.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.orm import Session

from twlookup.platform.records import load_records, to_row
from twlookup.platform.schemas import today_taipei
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import load_yaml, replace_rows
from twlookup.services.price.logic import Catalog, window_start
from twlookup.services.price.parsers import FEED_LICENCE, FEED_TITLE, FEED_URL, FeedRow, parse_feed
from twlookup.services.price.records import Category, Observation, Product
from twlookup.services.price.tables import CategoryRow, ObservationRow, ProductRow


def seed_price(session: Session, data_dir: Path) -> int:
    folder = data_dir / "price"
    categories = load_records(folder / "categories.yaml", Category, "categories", label="slug")
    count = replace_rows(session, CategoryRow, (to_row(c, CategoryRow, position=i) for i, c in enumerate(categories)))
    sample = load_yaml(folder / "sample.yaml")
    rows = parse_feed((folder / sample["file"]).read_bytes())
    real: set[str] = set(session.scalars(select(ProductRow.id).where(ProductRow.sample.is_(False))))
    session.execute(delete(ObservationRow).where(ObservationRow.sample.is_(True)))
    session.execute(delete(ProductRow).where(ProductRow.sample.is_(True)))
    rows = [r for r in rows if r.product_id not in real]
    provenance = {
        "source": sample["source"],
        "source_title": sample["source_title"],
        "checked": sample["checked"],
        "licence": None,
        "sample": True,
    }
    by_code = {c.code: c.slug for c in categories}
    products = {}
    for r in rows:
        if r.type_code not in by_code:
            raise ValueError(f"sample {r.product_id}: 種類代碼 {r.type_code!r} is not one of {sorted(by_code)}")
        products[r.product_id] = _product(r, by_code[r.type_code], provenance)
    if products:
        session.execute(insert(ProductRow), list(products.values()))
    if rows:
        session.execute(insert(ObservationRow), [_observation(r, provenance) for r in rows])
    session.flush()
    return count + len(products) + len(rows)


def import_daily(session: Session, path: Path) -> int:
    """`twlookup ingest price.daily FILE`: one FarmTransData download. The file replaces what the
    store held for the same products on the same days; those products' sample history is dropped."""
    rows = parse_feed(path.read_bytes())
    if not rows:
        raise ValueError("no trading records (only rest-day markers, or an empty list)")
    by_code = {c.code: c.slug for c in session.scalars(select(CategoryRow))}
    known = {p.id: p.category for p in session.scalars(select(ProductRow))}
    provenance = {
        "source": FEED_URL,
        "source_title": FEED_TITLE,
        "checked": today_taipei(),
        "licence": FEED_LICENCE,
        "sample": False,
    }
    products: dict[str, dict[str, object]] = {}
    for r in rows:
        if r.type_code is not None and r.type_code not in by_code:
            raise ValueError(
                f"{r.product_id}: 種類代碼 {r.type_code!r} is not one of {sorted(by_code)} (vegetables, fruits)"
            )
        category = by_code[r.type_code] if r.type_code else known.get(r.product_id)
        if category is None:
            raise ValueError(
                f"{r.product_id} ({r.name}) is a new product and its record has no 種類代碼 to place it in a category"
            )
        products[r.product_id] = _product(r, category, provenance)
    ids = list(products)
    session.execute(delete(ObservationRow).where(ObservationRow.product_id.in_(ids), ObservationRow.sample.is_(True)))
    days: dict[date, set[str]] = {}
    for r in rows:
        days.setdefault(r.day, set()).add(r.product_id)
    for day, day_ids in days.items():
        session.execute(delete(ObservationRow).where(ObservationRow.day == day, ObservationRow.product_id.in_(day_ids)))
    session.execute(delete(ProductRow).where(ProductRow.id.in_(ids)))
    session.execute(insert(ProductRow), list(products.values()))
    session.execute(insert(ObservationRow), [_observation(r, provenance) for r in rows])
    session.flush()
    return len(rows)


def _product(r: FeedRow, category: str, provenance: dict[str, Any]) -> dict[str, Any]:
    """A product's row as the feed names it, checked against its record (lengths the store takes)."""
    return Product(id=r.product_id, name=r.name, category=category, **provenance).model_dump()


def _observation(r: FeedRow, provenance: dict[str, object]) -> dict[str, object]:
    return {**r.model_dump(exclude={"name", "type_code"}), **provenance}


def _to_logic(rows: Iterable[Any]) -> list[Observation]:
    return [Observation.model_validate(r) for r in rows]


def _load(session: Session) -> Catalog:
    query = select(CategoryRow).order_by(CategoryRow.position)
    categories = {r.slug: Category.model_validate(r) for r in session.scalars(query)}
    products = {r.id: Product.model_validate(r) for r in session.scalars(select(ProductRow).order_by(ProductRow.id))}
    as_of = session.scalar(select(func.max(ObservationRow.day)))
    observations: dict[str, list[Observation]] = {}
    if as_of is not None:
        query = select(ObservationRow).where(ObservationRow.day >= window_start(as_of)).order_by(ObservationRow.day)
        for o in _to_logic(session.scalars(query)):
            observations.setdefault(o.product_id, []).append(o)
    return Catalog(categories, products, as_of, observations)


CATALOG: Reference[Catalog] = Reference(_load)


def history(product_id: str) -> list[Observation]:
    """Every stored observation of one product, oldest first (the paid full history)."""
    with store_engine.session() as session:
        query = select(ObservationRow).where(ObservationRow.product_id == product_id)
        return _to_logic(session.scalars(query.order_by(ObservationRow.day, ObservationRow.market_code)))


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_price,)
