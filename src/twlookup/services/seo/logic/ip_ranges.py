"""Crawler verification by address: which published IP ranges hold an address. Pure function."""

from __future__ import annotations

import ipaddress
from typing import Any


def ip_in_ranges(
    ip: str, networks: list[tuple[Any, Any]]
) -> tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, list[tuple[Any, Any]]]:
    address = ipaddress.ip_address(ip.strip().strip("[]"))
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        address = address.ipv4_mapped
    return address, [(net, f) for net, f in networks if net.version == address.version and address in net]
