"""The life service's operations, one module per subject: Taiwan's days off (holidays), the receipt
lottery (invoice), Taiwan Lottery (lottery) and fuel prices (fuel). Importing the package declares
them all on SERVICE, in this order (the order of the routes, tools and OpenAPI paths)."""

# isort: off
from twlookup.services.life.operations.service import SERVICE
from twlookup.services.life.operations import holidays, invoice, lottery, fuel  # noqa: F401 (declares)
# isort: on

__all__ = ["SERVICE"]
