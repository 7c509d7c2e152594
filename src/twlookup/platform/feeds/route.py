"""`GET /<name>/api/status` for every service with feeds: the same answer shape everywhere."""

from __future__ import annotations

from typing import TYPE_CHECKING

from twlookup.platform.feeds.status import FeedsStatus, service_status

if TYPE_CHECKING:  # a service is only called here (its name, feeds and operation declaration)
    from twlookup.platform.service import Service


def status_of(service: Service) -> FeedsStatus:
    from twlookup.settings import get_settings

    return service_status(service.name, list(service.feeds.values()), settings=get_settings())


def add_status_route(service: Service) -> None:
    """Declare the service's status route (call once its feeds are declared)."""

    def status() -> FeedsStatus:
        """Each feed of the service: its official source, last attempt, last success, last error and data age.

        `stale` says the data is older than the feed allows (or, for feeds whose files carry no
        date, that no check succeeded for that long); `failing` that the last refresh failed and
        the data served is the last good import. Refresh: `twlookup refresh SERVICE.FEED`."""
        return status_of(service)

    service.operation("GET", "/api/status", blocking=True)(status)
