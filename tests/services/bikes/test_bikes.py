"""bikes: every route, figures as the cited pages state them, contributions through review (API
and CLI) with nothing unreviewed in search, parts or export, and the switchable paid export."""

from __future__ import annotations

import httpx
import pytest

from twlookup import cli
from twlookup.app import create_app
from twlookup.platform import review
from twlookup.platform.store import engine as store_engine
from twlookup.services.bikes.tables import ContributionRow
from twlookup.settings import Settings

TOKEN = "bikes-operator-" + "q" * 24
SHARE_TOKEN = "share-operator-" + "r" * 24
PLUG = {
    "slug": "yamaha-rd350lc-1980",
    "kind": "part",
    "item": "spark plug",
    "value": "NGK B8ES-X1",
    "source": "https://example.org/rd350lc-manual.pdf",
}


def _clean() -> None:
    with store_engine.session() as s, s.begin():
        s.query(review.Decision).filter(review.Decision.service == "bikes").delete()
        s.query(review.Submission).filter(review.Submission.service == "bikes").delete()
        s.query(ContributionRow).delete()


@pytest.fixture
async def bikes(db_url):
    _clean()
    settings = Settings(
        database_url=db_url,
        rate_limit_default="100000/minute",
        _env_file=None,
        review_operators=[
            review.operator_entry("bea", "bikes", TOKEN),
            review.operator_entry("sam", "share", SHARE_TOKEN),
        ],
    )
    app = create_app(settings)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        yield c
    _clean()


def auth(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def test_models_and_specs_as_the_sources_state(bikes):
    listing = (await bikes.get("/bikes/api/models")).json()
    assert listing["count"] == len(listing["models"]) == 87 and listing["target"] == 80
    assert len({m["slug"] for m in listing["models"]}) == 87  # 87 different models
    assert "not listed" not in listing["note"] and "source_kind" in listing["note"]
    # every model says what its spec rests on, and the counts add up
    kinds = {m["source_kind"] for m in listing["models"]}
    assert kinds <= {"maker", "manual", "encyclopedia", "press", "spec-database", "catalogue", "website"}
    assert sum(listing["by_source_kind"].values()) == 87
    assert listing["by_source_kind"]["encyclopedia"] == 1  # the Suzuki T20 (Wikipedia)
    # Taiwan's own maker is among them: Kymco's two-stroke Super 9
    assert any(m["maker"].startswith("Kymco") for m in listing["models"])
    body = (await bikes.get("/bikes/api/model/yamaha-rd350lc-1980")).json()
    spec = body["spec"]
    # motorcyclespecs.co.za, RD350LC 1980-81: 347 cc, 64 x 54 mm, Autolube, 47 hp @ 8500, 143 kg dry, 16.5 L
    assert (spec["displacement_cc"], spec["bore_mm"], spec["stroke_mm"]) == (347, 64, 54)
    assert (spec["oil_supply"], spec["oil_system"], spec["power_hp"], spec["weight_kg"], spec["fuel_l"]) == (
        "oil injection",
        "Autolube",
        47,
        143,
        16.5,
    )
    # the figures agree with each other: 2 cylinders x pi/4 x 6.4^2 x 5.4 = 347.5 cc
    assert pytest.approx(spec["displacement_cc"], abs=0.6) == 2 * 3.14159265 / 4 * 6.4**2 * 5.4
    assert (
        body["spec_source"]["url"].startswith("http://www.motorcyclespecs.co.za/")
        and "facts" in body["spec_source"]["licence"]
    )
    assert body["source_kind"] == "spec-database" and "third party" in body["source_kind_meaning"]
    # autoby.jp (Motor Magazine), RZ250 1980: 247 cc, 54 x 54 mm, 35 PS, 3.0 kgf·m = 29.4 N·m, 139 kg dry
    rz = (await bikes.get("/bikes/api/model/yamaha-rz250-1980")).json()
    assert rz["source_kind"] == "press" and rz["spec_source"]["url"] == "https://autoby.jp/_ct/17365054"
    assert pytest.approx(rz["spec"]["displacement_cc"], abs=0.5) == 2 * 3.14159265 / 4 * 5.4**2 * 5.4  # 247.3
    assert rz["spec"]["torque_nm"] == pytest.approx(3.0 * 9.80665, abs=0.05) and "kgf·m" in rz["spec"]["torque_note"]
    assert [(s["market"], s["currency"], s["low"], s["date"]) for s in rz["sales"]] == [
        ("Japan", "JPY", 354000, "1980-06-01")
    ]
    # motorcyclespecs.co.za, GT750M: three cylinders of 70 x 64 mm = 738.9 cc, as stated (738)
    gt = (await bikes.get("/bikes/api/model/suzuki-gt750-1975")).json()["spec"]
    assert pytest.approx(gt["displacement_cc"], abs=1) == 3 * 3.14159265 / 4 * 7.0**2 * 6.4
    # the Wikipedia record carries Wikipedia's licence; a page that gives no figure leaves it absent
    t20 = (await bikes.get("/bikes/api/model/suzuki-t20-1966")).json()
    assert t20["source_kind"] == "encyclopedia" and "CC BY-SA" in t20["spec_source"]["licence"]
    assert t20["spec"]["oil_system"] == "Posi-Force" and t20["spec"]["stroke_mm"] is None
    a1 = (await bikes.get("/bikes/api/model/kawasaki-a1-samurai-1967")).json()
    assert a1["spec"]["displacement_cc"] is None and a1["spec"]["power_hp"] == 31
    # the one maker's page found: Honda's 1988 press release, for the 1989 NSR250R's price
    mc18 = (await bikes.get("/bikes/api/model/honda-nsr250r-mc18")).json()
    assert [(s["low"], s["date"], s["source"]["url"]) for s in mc18["sales"]] == [
        (599000, "1989-02-10", "http://www.honda.co.jp/news/1988/2881227.html")
    ]
    h2 = (await bikes.get("/bikes/api/model/kawasaki-h2-mach4-1973")).json()
    assert [(s["market"], s["currency"], s["kind"], s["date"]) for s in h2["sales"]] == [
        ("United States", "USD", "new", "1975-01-01"),
        ("United States", "USD", "used", "2015-05-01"),
    ]
    r = await bikes.get("/bikes/api/model/no-such-bike")
    assert r.status_code == 404 and "no-such-bike" in r.json()["detail"]
    assert (await bikes.get("/bikes/api/model/Bad_Slug")).status_code == 422


async def test_search_parts_and_maintenance(bikes):
    found = (await bikes.get("/bikes/api/search", params={"q": "rgv 250"})).json()
    assert [m["slug"] for m in found["models"]] == [  # catalogue order
        "suzuki-rgv250-vj22",
        "suzuki-rgv250-vj21-1988",
        "suzuki-rgv250-sp-1996",
    ]
    found = (await bikes.get("/bikes/api/search", params={"q": "rgv 250 vj22"})).json()
    assert [m["slug"] for m in found["models"]] == ["suzuki-rgv250-vj22"]
    nsr = (await bikes.get("/bikes/api/search", params={"q": "NSR250R"})).json()["models"]
    assert [m["slug"] for m in nsr] == [
        "honda-nsr250r-mc16",
        "honda-nsr250r-mc18",
        "honda-nsr250r-mc21",
        "honda-nsr250r-mc28",
    ]
    kymco = [m["slug"] for m in (await bikes.get("/bikes/api/search", params={"q": "kymco"})).json()["models"]]
    assert kymco[0] == "kymco-super9-2007" and len(kymco) == 8  # the Super 9, six from scootergrisen.dk, the RS 50
    parts = (await bikes.get("/bikes/api/parts", params={"q": "br-9"})).json()
    assert sorted(p["number"] for p in parts["parts"]) == ["BR9ECM", "BR9HS"]
    assert parts["models"] == ["aprilia-rs250-2000", "yamaha-rd500lc-1985"]
    assert (await bikes.get("/bikes/api/parts", params={"q": "x"})).status_code == 422
    m = (await bikes.get("/bikes/api/maintenance/aprilia-rs250-2000")).json()
    items = {i["item"]: i["value"] for i in m["items"]}
    assert (
        items["spark_plug"].startswith("NGK BR9ECM")
        and "75W-90" in items["gear_oil"]
        and "0.9 to 2 %" in items["oil_mix"]
    )
    assert m["missing"] == "No cited source gave: interval."
    assert (await bikes.get("/bikes/api/maintenance/nope-nope")).status_code == 404


async def test_contributions_public_only_after_review(bikes, db_url, monkeypatch, capsys):
    r = await bikes.post("/bikes/api/contribute", json=PLUG)
    assert (
        r.status_code == 200
        and r.json()["submission"]["status"] == "submitted"
        and r.json()["submission"]["public"] is False
    )
    sub = r.json()["submission"]["id"]
    assert (await bikes.post("/bikes/api/contribute", json={**PLUG, "value": " ngk b8es-x1 "})).status_code == 409
    # not public yet: not in the model, the parts search or the export
    assert (await bikes.get("/bikes/api/model/yamaha-rd350lc-1980")).json()["contributions"] == []
    assert (await bikes.get("/bikes/api/parts", params={"q": "B8ES"})).json()["count"] == 0
    from twlookup.services.bikes import operations

    assert all(m.contributions == [] for m in operations.export().models)
    # a share operator cannot decide bikes submissions; no token at all is 401
    assert (
        await bikes.post(
            "/bikes/api/review/decide", json={"ids": [sub], "decision": "approve"}, headers=auth(SHARE_TOKEN)
        )
    ).status_code == 403
    assert (await bikes.post("/bikes/api/review/decide", json={"ids": [sub], "decision": "approve"})).status_code == 401
    r = await bikes.post("/bikes/api/review/decide", json={"ids": [sub], "decision": "approve"}, headers=auth())
    assert r.json()["decided"][0]["decided_by"] == "bea"
    model = (await bikes.get("/bikes/api/model/yamaha-rd350lc-1980")).json()
    assert [(c["item"], c["value"], c["reviewed"]) for c in model["contributions"]] == [
        ("spark plug", "NGK B8ES-X1", True)
    ]
    assert (await bikes.get("/bikes/api/parts", params={"q": "b8es"})).json()["models"] == ["yamaha-rd350lc-1980"]
    assert [c.value for m in operations.export().models for c in m.contributions] == ["NGK B8ES-X1"]

    # the CLI rejects a second one, which then never shows
    monkeypatch.setattr(cli, "_settings", lambda: Settings(database_url=db_url, _env_file=None))
    other = (
        await bikes.post(
            "/bikes/api/contribute", json={**PLUG, "kind": "sale", "item": "UK price", "value": "GBP 99999"}
        )
    ).json()
    assert (
        cli.main(
            [
                "review",
                "reject",
                "bikes",
                str(other["submission"]["id"]),
                "--operator",
                "bea",
                "--reason",
                "no listing at the URL",
            ]
        )
        == 0
    )
    assert "GBP 99999" not in (await bikes.get("/bikes/api/model/yamaha-rd350lc-1980")).text
    capsys.readouterr()
    assert cli.main(["review", "list", "bikes", "--status", "all"]) == 0
    out = capsys.readouterr().out
    assert "approved by bea" in out and "(no listing at the URL)" in out


@pytest.mark.parametrize(
    ("body", "name", "status"),
    [
        ({**PLUG, "kind": "rumour"}, "kind", 422),
        ({**PLUG, "source": "my friend said"}, "source", 422),
        ({**PLUG, "source": "ftp://example.org/x"}, "source", 422),
        ({**PLUG, "value": ""}, "value", 422),
        ({**PLUG, "item": "x" * 81}, "item", 422),
        ({**PLUG, "slug": "not-a-model"}, None, 404),
    ],
)
async def test_contributions_are_validated(bikes, body, name, status):
    r = await bikes.post("/bikes/api/contribute", json=body)
    assert r.status_code == status
    if name:
        assert r.json()["errors"][0]["parameter"] == name


async def test_export_is_switchable_and_402_when_open(db_url):
    open_app = create_app(Settings(database_url=db_url, _env_file=None))
    closed_app = create_app(Settings(database_url=db_url, _env_file=None, pro_closed=["bikes:/api/pro/export"]))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=open_app), base_url="http://t") as c:
        r = await c.get("/bikes/api/pro/export")
        assert r.status_code == 402 and r.json()["accepts"][0]["amount"] == "50000"
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=closed_app), base_url="http://t") as c:
        r = await c.get("/bikes/api/pro/export")
        assert r.status_code == 403 and "not open" in r.json()["detail"]
