"""Seeding the food tables from data/food/, the OSM importers, and the cached catalogue."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from twlookup.domain.taiwan_calendar_tables import TAIWAN_CALENDAR, seed_calendar
from twlookup.platform.records import DataFileError, load_records, read_data_file, to_row, validate_records
from twlookup.platform.schemas import today_taipei
from twlookup.platform.store.reference import Reference
from twlookup.platform.store.seed import replace_rows
from twlookup.services.food import parsers
from twlookup.services.food.records import Category, Deity, Poem, Shop, Sponsor
from twlookup.services.food.tables import CategoryRow, DeityRow, PoemRow, ShopRow, SponsorRow

PH_KINDS = ("holiday", "observed")  # days off that count as public holidays for OSM 'PH' (not bridge days)


def _categories(folder: Path) -> list[Category]:
    return load_records(folder / "categories.yaml", Category, "categories")


def seed_food(session: Session, data_dir: Path) -> int:
    folder = data_dir / "food"
    categories = _categories(folder)
    ids = {c.id for c in categories}
    deities = load_records(folder / "deities.yaml", Deity, "deities")
    for d in deities:
        unknown = set(d.categories) - ids
        if unknown:
            raise DataFileError(
                f"{folder / 'deities.yaml'}: record {d.id!r}: field categories: unknown {sorted(unknown)}"
            )
        if not (d.custom is None) == (d.custom_source is None) == (d.custom_source_kind is None) or (
            d.custom is not None and d.checked is None
        ):
            raise DataFileError(
                f"{folder / 'deities.yaml'}: record {d.id!r}: a custom needs its custom_source, "
                "custom_source_kind and checked date (and only then)"
            )
    poems_doc = read_data_file(folder / "poems.yaml")
    poems = validate_records(
        folder / "poems.yaml",
        poems_doc["poems"],
        Poem,
        {"checked": poems_doc["checked"], "licence": poems_doc.get("licence")},
        label="number",
    )
    sponsors = load_records(folder / "sponsors.yaml", Sponsor, "sponsors")
    for s in sponsors:
        if s.category not in ids:
            raise DataFileError(f"{folder / 'sponsors.yaml'}: record {s.id!r}: field category: unknown {s.category!r}")
    count = replace_rows(session, CategoryRow, [to_row(c, CategoryRow, position=i) for i, c in enumerate(categories)])
    count += replace_rows(session, DeityRow, [to_row(d, DeityRow, position=i) for i, d in enumerate(deities)])
    count += replace_rows(session, PoemRow, [to_row(p, PoemRow) for p in poems])
    count += replace_rows(session, SponsorRow, [to_row(s, SponsorRow, position=i) for i, s in enumerate(sponsors)])
    count += _seed_sample_shops(session, folder, ids)
    return count


def _seed_sample_shops(session: Session, folder: Path, ids: set[str]) -> int:
    """Sample shops only while no real shops were imported (an import replaces them)."""
    session.execute(delete(ShopRow).where(ShopRow.sample.is_(True)))
    if session.scalar(select(ShopRow.id).limit(1)) is not None:
        return 0
    doc = read_data_file(folder / "shops.yaml")
    defaults = {
        "source": doc["source"],
        "source_title": doc.get("source_title"),
        "checked": doc["checked"],
        "sample": True,
    }
    shops = validate_records(folder / "shops.yaml", doc["shops"], Shop, defaults)
    for s in shops:
        if s.category not in ids or not s.sample:
            raise DataFileError(f"{folder / 'shops.yaml'}: record {s.id!r}: category must be known and sample true")
        credit = f"{s.source} {s.licence or ''}".lower()
        if "openstreetmap" in credit or "odbl" in credit or not s.id.startswith("sample/"):
            raise DataFileError(
                f"{folder / 'shops.yaml'}: record {s.id!r}: an invented shop carries no OpenStreetMap id, credit or licence"
            )
    session.add_all(to_row(s, ShopRow) for s in shops)
    session.flush()
    return len(shops)


def _replace_shops(session: Session, shops: list[Shop]) -> int:
    if not shops:
        raise ValueError(
            "no named places to eat (amenity=restaurant, fast_food, cafe, food_court, ice_cream) in the file"
        )
    session.execute(delete(ShopRow))
    session.add_all(to_row(s, ShopRow) for s in parsers.unique(shops))
    session.flush()
    return len(shops)


def _store_categories(session: Session) -> list[Category]:
    return [Category.model_validate(r) for r in session.scalars(select(CategoryRow).order_by(CategoryRow.position))]


def import_overpass(session: Session, path: Path) -> int:
    """`twlookup ingest food.overpass FILE`: Overpass API JSON replaces every shop in the store."""
    return _replace_shops(
        session, parsers.parse_overpass(path.read_bytes(), _store_categories(session), today_taipei())
    )


def import_pbf(session: Session, path: Path) -> int:
    """`twlookup ingest food.pbf FILE`: an .osm.pbf extract replaces every shop in the store."""
    try:
        shops = parsers.read_pbf(path, _store_categories(session), today_taipei())
    except RuntimeError as exc:  # pyosmium's error for a file it cannot read
        raise ValueError(f"not a readable OSM file: {exc}") from None
    return _replace_shops(session, shops)


@dataclass
class Catalogue:
    deities: list[Deity]
    categories: list[Category]
    poems: list[Poem]
    shops: list[Shop]
    sponsors: list[Sponsor]
    public_holidays: set[date] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.deity_by_id = {d.id: d for d in self.deities}
        self.category_by_id = {c.id: c for c in self.categories}

    @property
    def sample(self) -> bool:
        return any(s.sample for s in self.shops)

    @property
    def imported(self) -> int:
        """How many real (OpenStreetMap) shops the store holds."""
        return sum(1 for s in self.shops if not s.sample)


def _load(session: Session) -> Catalogue:
    return Catalogue(
        deities=[Deity.model_validate(r) for r in session.scalars(select(DeityRow).order_by(DeityRow.position))],
        categories=_store_categories(session),
        poems=[Poem.model_validate(r) for r in session.scalars(select(PoemRow).order_by(PoemRow.number))],
        shops=[Shop.model_validate(r) for r in session.scalars(select(ShopRow).order_by(ShopRow.id))],
        sponsors=[Sponsor.model_validate(r) for r in session.scalars(select(SponsorRow).order_by(SponsorRow.position))],
    )


CATALOGUE: Reference[Catalogue] = Reference(_load)


def catalogue() -> Catalogue:
    """The catalogue, with Taiwan's public holidays (for OSM 'PH') from the project's calendar."""
    cat = CATALOGUE.get()
    calendar = TAIWAN_CALENDAR.get()
    cat.public_holidays = {d for d, off in calendar.days_off.items() if off.kind in PH_KINDS}
    return cat


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (
    seed_calendar,
    seed_food,
)
