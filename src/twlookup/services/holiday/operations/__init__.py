"""The holiday service's operations, one module per subject: Taiwan's 2027 days off and leave plans
(breaks), destination holidays and crowds (destinations), flight timing and the ticket guide
(booking), and the paid trip plan and export (pro). Importing the package declares them all on
SERVICE, in this order (the order of the routes, tools and OpenAPI paths)."""

# isort: off
from twlookup.services.holiday.operations.service import SERVICE
from twlookup.services.holiday.operations import breaks, destinations, booking, pro  # noqa: F401 (declares)
# isort: on

__all__ = ["SERVICE"]
