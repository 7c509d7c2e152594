"""UBN check digits, withholding with the NHI premium, tax thresholds and profit: hand-worked cases."""

from datetime import date
from decimal import Decimal

import pytest

from twlookup.platform import clock
from twlookup.services.creator.logic import ubn


# ---- business ID check digit ------------------------------------------------------------------
# Worked by hand with weights 1,2,1,2,1,2,4,1 and digit sums of the products:
# 22099131: 2+4+0+(1+8)+9+2+(1+2)+1 = 30   → valid under both rules
# 04595252: 0+8+5+(1+8)+5+4+(2+0)+2 = 35    → valid only under the 2023 rule (÷5)
# 62140097: 6+4+1+8+0+0+(3+6)+7 = 35        → valid only under the 2023 rule (real number, polar#13445)
# 1234567x: 1+4+3+8+5+(1+2)+[28 → 10 → 1 or 0]+x = 25+x or 24+x
@pytest.mark.parametrize(
    ("ban", "valid", "old"),
    [
        ("22099131", True, True),
        ("04595252", True, False),
        ("62140097", True, False),
        ("12345675", True, True),  # 25 + 5 = 30
        ("12345676", True, True),  # 24 + 6 = 30
        ("12345670", True, False),  # 25 + 0 = 25
        ("12345671", True, False),  # 24 + 1 = 25
        ("12345672", False, False),  # 27 / 26
        ("22099132", False, False),  # 31
        ("04595253", False, False),  # 36
    ],
)
def test_ubn_check_digit_both_rules(ban, valid, old):
    c = ubn.check(ban)
    assert (c.valid, c.valid_old_rule) == (valid, old)


def test_ubn_rejects_non_numbers():
    with pytest.raises(ValueError):
        ubn.check("1234567")


# ---- withholding and the supplementary premium ---------------------------------------------------
# (amount, kind, query extras) → (tax, premium, net); every figure worked by hand below.
CASES = [
    (50000, "professional-fee", {}, 5000, 1055, 43945),  # 10%; 50,000 × 2.11% = 1,055
    (20000, "professional-fee", {}, 0, 422, 19578),  # tax 2,000 ≤ 2,000: exempt; premium at the 20,000 threshold
    (19999, "professional-fee", {}, 0, 0, 19999),  # below both thresholds
    (35000, "professional-fee", {}, 3500, 739, 30761),  # 738.5 rounds half up to 739
    (20_000_000, "professional-fee", {}, 2_000_000, 211_000, 17_789_000),  # premium capped at 10,000,000 × 2.11%
    (10000, "professional-fee", {"residency": "non-resident"}, 2000, 0, 8000),  # 20%, no exemption
    (5000, "manuscript-fee", {"residency": "non-resident"}, 0, 0, 5000),  # ≤ 5,000 may be exempt
    (6000, "manuscript-fee", {"residency": "non-resident"}, 1200, 0, 4800),
    (30000, "part-time-salary", {}, 0, 633, 29367),  # below 90,501: no tax; ≥ minimum wage 29,500: 633
    (29499, "part-time-salary", {}, 0, 0, 29499),  # below the minimum wage: no premium
    (100000, "part-time-salary", {}, 5000, 2110, 92890),  # 5% from 90,501
    (40000, "part-time-salary", {"residency": "non-resident"}, 2400, 844, 36756),  # 6% ≤ 1.5 × 29,500 = 44,250
    (40000, "part-time-salary", {"residency": "non-resident", "nhi_insured": False}, 2400, 0, 37600),
    (50000, "part-time-salary", {"residency": "non-resident"}, 9000, 1055, 39945),  # 18% above 44,250
    (30000, "rent", {}, 3000, 633, 26367),
    # a private person paying is not a withholding agent (所得稅法 §88-89) nor an NHI premium
    # deducting party: nothing is withheld, whatever the kind or amount
    (30000, "rent", {"payer_is_business": False}, 0, 0, 30000),
    (50000, "professional-fee", {"payer_is_business": False}, 0, 0, 50000),
    (10000, "professional-fee", {"payer_is_business": False, "residency": "non-resident"}, 0, 0, 10000),
    (100000, "part-time-salary", {"payer_is_business": False}, 0, 0, 100000),
    (30000, "prize", {}, 3000, 0, 27000),  # prizes attract no premium
]


@pytest.mark.parametrize(("amount", "kind", "extra", "tax", "premium", "net"), CASES)
async def test_withholding_hand_worked(client, amount, kind, extra, tax, premium, net):
    params = {"amount": amount, "kind": kind, "date": "2026-11-23", **{k: str(v).lower() for k, v in extra.items()}}
    r = await client.get("/creator/api/withholding", params=params)
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["tax"], body["nhi_premium"], body["net"]) == (tax, premium, net)
    assert body["minimum_wage"] == 29500 and len(body["sources"]) == 4


async def test_a_private_payer_withholds_nothing_and_the_payee_reports(client):
    params = {"amount": 50000, "kind": "professional-fee", "payer_is_business": "false", "date": "2026-11-26"}
    body = (await client.get("/creator/api/withholding", params=params)).json()
    assert body["withheld_by_payer"] is False and body["tax"] == 0 and body["nhi_premium"] == 0
    assert "第89條" in body["tax_note"] and "結算申報" in body["who_reports"]
    assert any("G0340003" in s["url"] and s["checked"] == "2026-11-26" for s in body["sources"])
    params["payer_is_business"] = "true"
    body = (await client.get("/creator/api/withholding", params=params)).json()
    assert body["withheld_by_payer"] is True and body["tax"] == 5000 and "扣繳憑單" in body["who_reports"]


async def test_government_lottery_prizes_threshold_is_5000_since_2019_12_01(client):
    # 各類所得扣繳率標準 as amended from 2019-12-01: a government lottery prize above NT$5,000 per
    # ticket is taxed 20% separately (NT$2,000 before); reported by 南區國稅局 and CNA on the day
    body = (await client.get("/creator/api/withholding", params={"amount": 30000, "kind": "prize"})).json()
    assert "5,000" in body["note"] and "2019-12-01" in body["note"] and "每聯超過2,000" not in body["note"]


async def test_withholding_dates(client):
    r = await client.get("/creator/api/withholding", params={"amount": 50000, "kind": "rent", "date": "2025-12-31"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "date"
    r = await client.get("/creator/api/withholding", params={"amount": 50000, "kind": "rent", "date": "2027-03-01"})
    assert r.status_code == 200 and "2027" in r.json()["note"]
    r = await client.get("/creator/api/withholding", params={"amount": 50000, "kind": "salary"})
    assert r.status_code == 422 and "professional-fee" in r.json()["errors"][0]["allowed"]


async def test_withholding_uses_today_in_taipei(client, monkeypatch):

    monkeypatch.setattr(clock, "_fixed", date(2026, 5, 1))
    r = await client.get("/creator/api/withholding", params={"amount": 50000, "kind": "rent"})
    assert r.json()["as_of"] == "2026-05-01"
    monkeypatch.setattr(clock, "_fixed", date(2025, 5, 1))
    r = await client.get("/creator/api/withholding", params={"amount": 50000, "kind": "rent"})
    assert r.status_code == 422


# ---- tax registration ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("monthly", "kind", "on", "register", "tier", "threshold"),
    [
        (80000, "goods", "2024-12-31", True, "small-scale", 80000),  # reached the old threshold
        (80000, "goods", "2025-01-01", False, "below", 100000),  # the 2025 threshold is higher
        (99999, "goods", "2025-06-01", False, "below", 100000),
        (100000, "goods", "2025-06-01", True, "small-scale", 100000),  # "reach" includes equal
        (40000, "services", "2024-06-01", True, "small-scale", 40000),
        (49999, "services", "2026-01-01", False, "below", 50000),
        (50000, "services", "2026-01-01", True, "small-scale", 50000),
        (200000, "goods", "2026-01-01", True, "invoice", 100000),
    ],
)
async def test_tax_thresholds_by_date(client, monthly, kind, on, register, tier, threshold):
    r = await client.get("/creator/api/tax-check", params={"monthly": monthly, "type": kind, "date": on})
    body = r.json()
    assert (body["must_register"], body["tier"], body["threshold"]) == (register, tier, threshold)
    assert body["source"]["url"].startswith("https://")
    if tier == "small-scale":
        assert body["estimated_quarterly_tax"] == monthly * 3 // 100  # 1% of a quarter
    assert body["earlier_thresholds"]


async def test_tax_check_today_and_errors(client, monkeypatch):

    monkeypatch.setattr(clock, "_fixed", date(2024, 7, 1))
    assert (await client.get("/creator/api/tax-check", params={"monthly": 90000})).json()["must_register"] is True
    monkeypatch.setattr(clock, "_fixed", date(2025, 7, 1))
    assert (await client.get("/creator/api/tax-check", params={"monthly": 90000})).json()["must_register"] is False
    r = await client.get("/creator/api/tax-check", params={"monthly": 90000, "date": "2022-12-31"})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "date" and "2023-01-01" in r.text
    r = await client.get("/creator/api/tax-check", params={"monthly": -1})
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == "monthly"


# ---- profit ------------------------------------------------------------------------------
async def test_profit_hand_worked(client):
    # fees 10% = 100, payment 2% = 20, commission 5% = 50 → 1000 − 600 − 80 − 170 = 150; margin 15.00%;
    # break-even (600 + 80) / (1 − 0.17) = 819.28… → 820
    r = await client.get(
        "/creator/api/profit",
        params={
            "price": 1000,
            "cost": 600,
            "platform": "custom",
            "fee_rate": 10,
            "payment_rate": 2,
            "commission": 5,
            "ship": 80,
        },
    )
    body = r.json()
    assert Decimal(body["profit"]) == 150 and Decimal(body["margin_pct"]) == Decimal("15.00")
    assert Decimal(body["break_even_price"]) == 820 and body["sample"] is False
    # half-up per fee: 250 × 5.5% = 13.75 → 14; 250 × 2.5% = 6.25 → 6; profit 250 − 100 − 14 − 6 = 130
    r = await client.get(
        "/creator/api/profit",
        params={"price": 250, "cost": 100, "platform": "custom", "fee_rate": "5.5", "payment_rate": "2.5"},
    )
    body = r.json()
    assert (Decimal(body["platform_fee"]), Decimal(body["payment_fee"]), Decimal(body["profit"])) == (14, 6, 130)


async def test_profit_own_site_uses_ecpay_fee_with_minimum_and_tax(client):
    """ECPay individual members: 2.75% per credit-card order, at least NT$5, both before 5% tax."""
    r = await client.get(
        "/creator/api/profit", params={"price": 1000, "cost": 500, "platform": "own-site", "commission": 10}
    )
    body = r.json()
    # 1000 × 2.75% = 27.5, × 1.05 = 28.875 → 29; commission 100; 1000 − 500 − 29 − 100 = 371
    assert (Decimal(body["payment_fee"]), Decimal(body["commission"]), Decimal(body["profit"])) == (29, 100, 371)
    # break-even 500 / (1 − 0.028875 − 0.1) = 573.97 → 574 (fee above the minimum there)
    assert Decimal(body["break_even_price"]) == 574 and body["sample"] is False and "5%營業稅" in body["note"]
    assert body["source"]["url"] == "https://www.ecpay.com.tw/Business/Payment_Fees"
    # a small order pays the minimum: 100 × 2.75% = 2.75 < 5, so 5 × 1.05 = 5.25 → 5; profit 45
    small = (await client.get("/creator/api/profit", params={"price": 100, "cost": 50, "platform": "own-site"})).json()
    assert Decimal(small["payment_fee"]) == 5 and Decimal(small["profit"]) == 45 and "最低5元" in small["note"]
    # break-even with the minimum: 50 / 0.971125 = 51.49 would pay 1.42 < 5, so (50 + 5.25) / 1 = 55.25 → 56
    assert Decimal(small["break_even_price"]) == 56
    # a caller's own payment rate replaces ECPay's, minimum and tax included
    own = (
        await client.get(
            "/creator/api/profit", params={"price": 100, "cost": 50, "platform": "own-site", "payment_rate": 2}
        )
    ).json()
    assert Decimal(own["payment_fee"]) == 2 and Decimal(own["profit"]) == 48


async def test_profit_with_a_sample_platform_says_so(client):
    r = await client.get(
        "/creator/api/profit", params={"price": 500, "cost": 250, "platform": "shopee", "commission": 10, "ship": 60}
    )
    body = r.json()
    assert body["sample"] is True and "示意" in body["note"]
    r = await client.get(
        "/creator/api/profit",
        params={"price": 500, "cost": 250, "platform": "shopee", "fee_rate": 6, "payment_rate": 2},
    )
    assert r.json()["sample"] is False


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"price": 100, "cost": 50, "platform": "custom"}, "fee_rate"),
        ({"price": 100, "cost": 50, "platform": "custom", "fee_rate": 60, "commission": 40}, "commission"),
        ({"price": 0, "cost": 50}, "price"),
        ({"price": 100, "cost": 50, "platform": "ebay"}, "platform"),
    ],
)
async def test_profit_errors(client, params, parameter):
    r = await client.get("/creator/api/profit", params=params)
    assert r.status_code == 422 and r.json()["errors"][0]["parameter"] == parameter
