"""The life service's declaration, its seeders and feeds; its operations are declared by subject in
the other modules of this package."""

from __future__ import annotations

from twlookup.platform.feeds.route import add_status_route
from twlookup.platform.service import Service
from twlookup.services.life.feeds import FEEDS

SERVICE = Service(
    name="life",
    title="Taiwan daily life: holidays, lottery, receipt lottery, fuel prices",
    description=(
        "Taiwan's days off from the official calendar, Taiwan Lottery draws and prize checks (lotto649, "
        "superlotto638, daily539), uniform-invoice (receipt) lottery numbers and checks, and CPC's weekly "
        "fuel prices. Draws, receipt numbers and fuel prices arrive through importers of the publishers' "
        "own formats; records that are illustrative snapshots say `sample: true`."
    ),
)

# The shared Taiwan calendar (idempotent, whichever service seeds it first), so that life also
# answers when served without the holiday service.
for _feed in FEEDS:  # receipt numbers, draws and fuel prices from their publishers (twlookup refresh)
    SERVICE.feed(_feed)
add_status_route(SERVICE)
