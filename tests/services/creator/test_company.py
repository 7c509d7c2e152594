"""Company lookup: the store, the live register in its real JSON format (respx), failures and the importer."""

import asyncio
import json
import time

import httpx
import pytest
import respx

from twlookup.platform.store import engine as store_engine
from twlookup.services.creator.data import import_companies
from twlookup.services.creator.parsers import GCIS_COMPANY, roc_date

# One row as data.gcis.nat.gov.tw answers for the company API (field names and ROC dates as
# published); the company itself is made up for the test.
ROW = {
    "Business_Accounting_NO": "62140097",
    "Company_Status_Desc": "核准設立",
    "Company_Name": "測試團購用品股份有限公司",
    "Capital_Stock_Amount": 5000000,
    "Paid_In_Capital_Amount": 5000000,
    "Responsible_Name": "王小明",
    "Company_Location": "臺北市中正區測試路1號",
    "Register_Organization_Desc": "臺北市政府",
    "Company_Setup_Date": "1120315",
    "Change_Of_Approval_Data": "1130601",
    "Revoke_App_Date": "",
    "Case_Status": "",
    "Case_Status_Desc": "",
    "Sus_App_Date": "",
    "Sus_Beg_Date": "",
    "Sus_End_Date": "",
}


@pytest.fixture
def live(monkeypatch):
    from twlookup.settings import get_settings

    monkeypatch.setattr(get_settings(), "creator_live_register", True)


def test_live_register_is_a_setting(monkeypatch):
    import pydantic

    from twlookup.services.creator import parsers
    from twlookup.settings import Settings, get_settings

    monkeypatch.setenv("TWLOOKUP_CREATOR_LIVE_REGISTER", "false")
    monkeypatch.setenv("TWLOOKUP_CREATOR_REGISTER_TIMEOUT_SECONDS", "2.5")
    s = Settings(_env_file=None)
    assert s.creator_live_register is False and s.creator_register_timeout_seconds == 2.5
    monkeypatch.setenv("TWLOOKUP_CREATOR_LIVE_REGISTER", "true")
    assert Settings(_env_file=None).creator_live_register is True
    monkeypatch.setenv("TWLOOKUP_CREATOR_LIVE_REGISTER", "sometimes")
    with pytest.raises(pydantic.ValidationError, match="creator_live_register"):
        Settings(_env_file=None)
    monkeypatch.setenv("TWLOOKUP_CREATOR_LIVE_REGISTER", "0")
    # the service reads the process settings, not the environment directly
    monkeypatch.setattr(get_settings(), "creator_live_register", False)
    assert parsers.live_lookup_enabled() is False
    monkeypatch.setattr(get_settings(), "creator_live_register", True)
    assert parsers.live_lookup_enabled() is True


def test_roc_dates():
    assert str(roc_date("0680722")) == "1979-07-22"
    assert str(roc_date("1120315")) == "2023-03-15"
    assert roc_date("") is None and roc_date("1131399") is None


async def test_store_hit_and_check_digit(client):
    r = await client.get("/creator/api/company", params={"ban": "22099131"})
    body = r.json()
    assert (
        body["found"]
        and body["from_register"] == "store"
        and body["check"]["valid"]
        and body["check"]["valid_old_rule"]
    )
    assert body["companies"][0]["source"]["sample"] is True and "示例" in body["note"]


async def test_not_in_store_and_live_lookup_off(client):
    r = await client.get("/creator/api/company", params={"ban": "04595252"})
    body = r.json()
    assert r.status_code == 200 and not body["found"] and body["check"]["valid"] and not body["check"]["valid_old_rule"]
    r = await client.get("/creator/api/company", params={"ban": "04595253"})
    assert "打錯" in r.json()["note"]


@respx.mock
async def test_live_lookup_in_the_registers_format_then_served_from_the_store(client, live):
    route = respx.get(GCIS_COMPANY).mock(return_value=httpx.Response(200, json=[ROW]))
    r = await client.get("/creator/api/company", params={"ban": "62140097"})
    body = r.json()
    assert r.status_code == 200 and body["from_register"] == "live"
    company = body["companies"][0]
    assert company["name"] == "測試團購用品股份有限公司" and company["setup_date"] == "2023-03-15"
    assert company["capital"] == 5000000 and company["source"]["licence"] == "政府資料開放授權條款-第1版"
    sent = route.calls.last.request
    assert sent.url.params["$filter"] == "Business_Accounting_NO eq 62140097" and sent.url.params["$format"] == "json"
    r = await client.get("/creator/api/company", params={"ban": "62140097"})
    assert r.json()["from_register"] == "store" and route.call_count == 1


@respx.mock
async def test_register_without_the_company(client, live):
    respx.get(GCIS_COMPANY).mock(return_value=httpx.Response(200, text=""))
    r = await client.get("/creator/api/company", params={"ban": "10458575"})
    assert r.status_code == 200 and r.json()["found"] is False


@pytest.mark.parametrize(
    "failure",
    [
        httpx.Response(500, text="error"),
        httpx.ConnectTimeout("slow"),
        httpx.Response(200, text="<html>not json</html>"),
    ],
)
@respx.mock
async def test_unreachable_register_is_503_with_retry_after(client, live, failure):
    route = respx.get(GCIS_COMPANY)
    route.mock(side_effect=failure) if isinstance(failure, Exception) else route.mock(return_value=failure)
    r = await client.get("/creator/api/company", params={"ban": "12345675"})
    assert r.status_code == 503 and r.headers["retry-after"] == "30"
    assert r.json()["upstream"] == "data.gcis.nat.gov.tw" and "register" in r.json()["detail"]


@respx.mock
async def test_a_slow_register_does_not_hold_up_other_requests(client, live):
    async def slow(request):
        await asyncio.sleep(1.0)
        return httpx.Response(200, json=[])

    respx.get(GCIS_COMPANY).mock(side_effect=slow)
    lookup = asyncio.create_task(client.get("/creator/api/company", params={"ban": "12345676"}))
    await asyncio.sleep(0.05)
    started = time.monotonic()
    other = await client.get("/creator/api/tax-check", params={"monthly": 1000})
    assert other.status_code == 200 and time.monotonic() - started < 0.5
    assert not lookup.done()
    assert (await lookup).status_code == 200


async def test_importer_and_a_registered_number_that_fails_the_check_digit(client, tmp_path):
    row = dict(ROW, Business_Accounting_NO="90316313", Company_Name="檢查碼例外測試有限公司")
    path = tmp_path / "gcis.json"
    path.write_text(json.dumps([row], ensure_ascii=False), encoding="utf-8")
    with store_engine.session() as session, session.begin():
        assert import_companies(session, path) == 1
    r = await client.get("/creator/api/company", params={"ban": "90316313"})
    body = r.json()
    assert body["found"] and body["check"]["valid"] is False and "確實存在" in body["note"]
    r = await client.get("/creator/api/company", params={"name": "檢查碼例外"})
    assert [c["ban"] for c in r.json()["companies"]] == ["90316313"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{"Company_Name": "x"}]))
    with pytest.raises(ValueError, match="row 1"), store_engine.session() as session:
        import_companies(session, bad)


@pytest.mark.parametrize(
    ("params", "parameter"),
    [({}, "ban"), ({"ban": "22099131", "name": "台積"}, "ban"), ({"ban": "1234"}, "ban"), ({"name": "x"}, "name")],
)
async def test_company_errors(client, params, parameter):
    r = await client.get("/creator/api/company", params=params)
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == parameter


@pytest.mark.parametrize("failure", [httpx.ConnectTimeout("slow"), httpx.Response(502, text="bad gateway")])
@respx.mock
async def test_register_away_an_invalid_number_still_gets_its_check_digit_verdict(client, live, failure):
    # 04595253: S = 36 under the weights 1,2,1,2,1,2,4,1, divisible neither by 5 (2023 rule) nor by
    # 10 (earlier rule); the verdict needs no register (issue 23).
    route = respx.get(GCIS_COMPANY)
    route.mock(side_effect=failure) if isinstance(failure, Exception) else route.mock(return_value=failure)
    r = await client.get("/creator/api/company", params={"ban": "04595253"})
    body = r.json()
    assert r.status_code == 200, body
    assert body["check"] == {
        "ban": "04595253",
        "valid": False,
        "valid_old_rule": False,
        "checksum": 36,
        "valid_under": [],
        "note": body["check"]["note"],
    }
    assert body["found"] is False and body["from_register"] == "unavailable"
    assert body["register_retry_after_seconds"] == 30 and "檢查碼不符" in body["note"]
    assert route.called


@respx.mock
async def test_register_away_a_valid_number_is_503_carrying_the_check_digit_verdict(client, live):
    # 04595252: S = 35, valid under the 2023 rule only; whether it is registered needs the register.
    respx.get(GCIS_COMPANY).mock(side_effect=httpx.ConnectError("refused"))
    r = await client.get("/creator/api/company", params={"ban": "04595252"})
    assert r.status_code == 503 and r.headers["retry-after"] == "30"
    check = r.json()["check"]
    assert check["valid"] is True and check["valid_old_rule"] is False and check["valid_under"] == ["2023"]
