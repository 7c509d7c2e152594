"""Store tables of the life service, each derived from its record in records.py (the Taiwan
calendar itself lives in twlookup.domain)."""

from __future__ import annotations

from twlookup.platform.store.record_tables import record_table
from twlookup.services.life.records import Draw, FuelPrice, InvoicePeriod

# data/life/invoice.yaml, feed life.invoice
InvoicePeriodRow = record_table(InvoicePeriod, "life_invoice_period", key="period")
# data/life/lottery.yaml, feed life.lottery
LotteryDrawRow = record_table(Draw, "life_lottery_draw", key=("game", "period"), index=("draw_date",))
# data/life/fuel.yaml, feed life.fuel
FuelPriceRow = record_table(FuelPrice, "life_fuel_price", key=("product", "effective"))
