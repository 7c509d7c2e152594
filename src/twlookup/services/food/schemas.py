"""Parameters and results of the food service's operations. Text is Traditional Chinese (Taiwan);
field names are English."""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import Field, model_validator

from twlookup.platform.errors import InvalidParameter
from twlookup.platform.operations import Params
from twlookup.platform.records import RecordAnswer
from twlookup.platform.schemas import LazyModel, Source
from twlookup.services.food.records import Category, Deity, MealId, Poem, Shop, Sponsor

DeityId = Literal[
    "tudigong", "wenchang", "zaojun", "guanyin", "yuhuang", "mazu", "yuelao", "caishen", "taizi", "guangong"
]
CategoryId = Literal[
    "breakfast",
    "noodles",
    "rice",
    "snacks",
    "dumplings",
    "vegetarian",
    "japanese",
    "hotpot",
    "stirfry",
    "fastfood",
    "cafe",
    "drinks",
    "dessert",
]
MEAL_IDS: tuple[MealId, ...] = ("breakfast", "lunch", "afternoon", "dinner", "late_night")

# Taiwan's area for coordinates: Taiwan, Penghu, Kinmen, Matsu, Green Island and Orchid Island
# (Pratas and the Spratlys are outside). Anything else is refused with 422.
LAT_MIN, LAT_MAX = 21.8, 26.4
LON_MIN, LON_MAX = 118.0, 122.2
MAX_RADIUS_M = 5000
DRAW_RADIUS_M = 1500
DRAW_SHOPS = 5
BUDGET_MIN, BUDGET_MAX = 30, 5000


def Lat(*default: None):
    return Field(*default, ge=LAT_MIN, le=LAT_MAX, description=f"Latitude in Taiwan's area ({LAT_MIN} to {LAT_MAX})")


def Lon(*default: None):
    return Field(*default, ge=LON_MIN, le=LON_MAX, description=f"Longitude in Taiwan's area ({LON_MIN} to {LON_MAX})")


Budget = Field(
    None, ge=BUDGET_MIN, le=BUDGET_MAX, description=f"NT$ per person per meal ({BUDGET_MIN} to {BUDGET_MAX})"
)
People = Field(
    None, ge=1, le=30, description="How many people eat together (1 to 30); 3 or more allows group-style food"
)
Seed = Field(
    None, ge=0, le=2**31 - 1, description="Makes the draw repeatable: the same seed and inputs give the same answer"
)

ODBL = "ODbL-1.0"
OSM_ATTRIBUTION = "© OpenStreetMap contributors"
OSM_COPYRIGHT = "https://www.openstreetmap.org/copyright"


class Attribution(LazyModel):
    licence: str = ODBL
    attribution: str = OSM_ATTRIBUTION
    url: str = OSM_COPYRIGHT
    note: str = "店家位置、營業時間等資料衍生自 OpenStreetMap，依 ODbL 1.0 授權；評分、路線請用地圖服務，菜單與外送請用外送平台。"


# ------------------------------------------------------------------ params


class DrawQuery(Params):
    deity: DeityId | None = Field(None, description="Which deity's draw; left out, the draw picks one")
    meal: MealId | None = Field(None, description="Which meal; left out, the meal of the current hour in Asia/Taipei")
    category: CategoryId | Literal["auto"] = Field(
        "auto", description="A food category, or auto: picked from meal, budget and people"
    )
    budget: int | None = Budget
    people: int | None = People
    lat: float | None = Lat(None)
    lon: float | None = Lon(None)
    seed: int | None = Seed

    @model_validator(mode="after")
    def _both_or_neither(self) -> DrawQuery:
        if (self.lat is None) != (self.lon is None):
            raise InvalidParameter("lat" if self.lat is None else "lon", "give lat and lon together (or neither)")
        return self


class NearbyQuery(Params):
    lat: float = Lat()
    lon: float = Lon()
    category: CategoryId | None = Field(None, description="Only this category; left out, every category")
    radius: int = Field(
        1000, ge=50, le=MAX_RADIUS_M, description=f"Metres around the point (50 to {MAX_RADIUS_M}, default 1000)"
    )


class CategoriesQuery(Params):
    meal: MealId | None = Field(None, description="Only categories served at this meal")
    budget: int | None = Budget
    people: int | None = People


class WeekPlanQuery(Params):
    deity: DeityId | None = Field(None, description="Whose style the plan follows; left out, picked by the seed")
    meals: str = Field(
        "lunch,dinner",
        pattern=r"^(breakfast|lunch|afternoon|dinner|late_night)(,(breakfast|lunch|afternoon|dinner|late_night)){0,4}$",
        description="Comma-separated meals, each once: breakfast, lunch, afternoon, dinner, late_night",
    )
    budget: int | None = Budget
    days: int = Field(7, ge=1, le=14, description="Days to plan (1 to 14)")
    seed: int | None = Seed

    def meal_list(self) -> list[MealId]:
        named = self.meals.split(",")  # the pattern admits only meal ids
        items = [next(m for m in MEAL_IDS if m == name) for name in named]
        if len(set(items)) != len(items):
            raise InvalidParameter("meals", "each meal may appear once", list(MEAL_IDS))
        return items


# ------------------------------------------------------------------ results


class DeityOut(RecordAnswer, record=Deity, exclude=("custom_source_title", "checked")):
    custom_source: Source | None = None  # the page (title and check date) as a citation
    custom_note: str = Field(description="這則習俗的來源有多可靠（或為何沒有寫習俗）")


class Deities(LazyModel):
    count: int
    deities: list[DeityOut]
    note: str = "神明的飲食主題是本服務的趣味設定；有引用來源的才是民間供品習俗的說明。"


class MealOut(LazyModel):
    id: str
    name: str
    hours: str = Field(description="本服務用來判定「現在是哪一餐」的時段（Asia/Taipei）")


class Meals(LazyModel):
    count: int
    meals: list[MealOut]


class CategoryOut(RecordAnswer, record=Category, exclude=("amenities", "cuisines")):
    band: str = Field(description="每人價格帶（新台幣）")


class Categories(LazyModel):
    count: int
    meal: str | None
    budget: int | None
    people: int | None
    categories: list[CategoryOut]
    basis: str = "價格帶是本服務對「一人吃一餐」花費的分類區間，不是市場調查或平均價格；預算達到區間下限即列入。"


class PoemOut(RecordAnswer, record=Poem):
    title: str


class ShopOut(RecordAnswer, record=Shop, exclude=("amenity",)):
    open_now: Literal["open", "closed", "unknown"]
    distance_m: int | None = None
    osm_url: str | None = None
    sample: bool = Field(description="True: a sample shop, not real map data")


class Draw(LazyModel):
    as_of: datetime = Field(description="The time used, Asia/Taipei")
    seed: int = Field(description="Send this seed again to repeat the draw")
    deity: DeityOut
    meal: MealOut
    poem: PoemOut
    category: CategoryOut
    category_picked: bool = Field(description="True when category=auto chose it")
    dish: str
    shops: list[ShopOut] = Field(
        description=f"Open shops of the category within {DRAW_RADIUS_M} m, nearest first (at most {DRAW_SHOPS})"
    )
    shops_note: str
    sample: bool = Field(description="True when any shop listed is sample data")
    attribution: Attribution | None = None
    disclaimer: str = "籤詩與餐點抽選僅供娛樂，不是宗教或飲食建議。"


class NearbyOut(LazyModel):
    as_of: datetime
    lat: float
    lon: float
    radius: int
    category: str | None
    count: int
    shops: list[ShopOut]
    unknown_hours: int = Field(
        description="Shops in range whose hours are missing or unparsable (left out: unknown is not open)"
    )
    public_holiday: bool = Field(description="Today is a Taiwan public holiday (OSM 'PH' rules apply)")
    sample: bool
    imported_shops: int = Field(description="Real OpenStreetMap shops the store holds (0: only sample shops)")
    note: str | None = Field(
        None, description="Why the list is empty or sample-only, and how real shops are imported (null otherwise)"
    )
    attribution: Attribution | None = Field(
        None, description="OpenStreetMap's licence and credit, present when a listed shop is OpenStreetMap data"
    )


class SponsorOut(RecordAnswer, record=Sponsor, exclude=("starts", "ends")):
    sponsored: Literal[True] = True
    label: str = "贊助"


class Ads(LazyModel):
    as_of: date
    count: int
    sponsors: list[SponsorOut]
    note: str = "以下為贊助店家，由營運者設定並標示為贊助；抽籤與附近店家結果不含贊助。"


class PlanItemOut(LazyModel):
    day: int
    meal: str
    meal_name: str
    category: str
    category_name: str
    band: str
    dish: str


class WeekPlan(LazyModel):
    seed: int
    deity: DeityOut
    days: int
    meals: list[str]
    budget: int | None
    repeat_window_days: int = Field(description="A dish does not come back within this many days")
    repeats: int = Field(description="Dishes that had to come back sooner (too few fit the budget)")
    plan: list[PlanItemOut]


class Pack(LazyModel):
    generated: datetime
    deities: list[DeityOut]
    meals: list[MealOut]
    categories: list[CategoryOut]
    poems: list[PoemOut]
    shops: list[ShopOut]
    sponsors: list[SponsorOut]
    sample: bool
    attribution: Attribution | None = Field(
        None, description="OpenStreetMap's licence and credit, present when the pack holds OpenStreetMap shops"
    )
    licence_notice: str | None = None


PACK_LICENCE_NOTICE = (
    "本資料包中的店家資料衍生自 OpenStreetMap（© OpenStreetMap contributors），以 ODbL 1.0 提供："
    "若公開再利用，須註明出處，並以相同授權提供衍生資料庫。https://www.openstreetmap.org/copyright"
)
SAMPLE_ONLY_NOTE = (
    "尚未匯入 OpenStreetMap 店家：目前只有本服務自擬的範例店家（sample: true，不是真實店家）。"
    "營運者可用 `twlookup refresh food.overpass`（以 Overpass API 查詢全台灣的餐廳、咖啡店等）、"
    "`twlookup ingest food.overpass FILE.json`（自存的 Overpass JSON）或 "
    "`twlookup ingest food.pbf FILE.osm.pbf`（地區 OSM 擷取檔）匯入真實店家。"
)
NONE_NEAR_NOTE = (
    "{radius} 公尺內沒有已匯入的 OpenStreetMap 店家（截至上次匯入，此處可能尚未有人標示）。"
    "可加大 radius（最多 5000），或在 OpenStreetMap 上標示店家後由營運者以 `twlookup refresh food.overpass` 重新匯入。"
)
