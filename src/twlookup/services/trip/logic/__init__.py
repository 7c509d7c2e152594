"""The trip service's logic, by subject: the rules (the bank's spread, tax-free refunds, the eSIM
estimate, the trip window) in `rules`; the answers built from the reference data in `answers`
(rates, entry, places, guides), `calendar` (Taiwan's holidays) and `pack` (the trip pack and the
export). Pure: no store, no network; `today` is passed in."""

from twlookup.services.trip.logic.rules import (
    DIRECTIONS,
    RATE_TYPES,
    ZERO_DECIMAL,
    Conversion,
    EsimEstimate,
    TaxFree,
    convert,
    esim_estimate,
    minor_units,
    price_excl_tax,
    round_money,
    spread_percent,
    tax_in_price,
    trip_window,
)

__all__ = [
    "DIRECTIONS",
    "RATE_TYPES",
    "ZERO_DECIMAL",
    "Conversion",
    "EsimEstimate",
    "TaxFree",
    "convert",
    "esim_estimate",
    "minor_units",
    "price_excl_tax",
    "round_money",
    "spread_percent",
    "tax_in_price",
    "trip_window",
]
