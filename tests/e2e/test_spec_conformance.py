"""Per-service facts the spec states for all twenty (document 1): which services are
cross-origin, which pay on the testnet, which are private, checked on every implemented one."""

import pytest

from twlookup.services import CATALOG, IMPLEMENTED, load_services

CROSS_ORIGIN = {"sports", "glossary", "movie", "games", "trip", "food"}  # shared rule 2
TESTNET = {"opinions", "glossary", "movie", "games", "seo", "creator", "motion", "trip", "wellness", "price"}
PRIVATE = {"health", "wellness"}  # "queries are not stored", "answers are not stored"
SOLANA = {"food", "share"}  # USDC on an EVM layer-2 and a non-EVM network
FREE_QUOTA = {"food"}


def test_the_catalog_is_the_specs_twenty():
    assert len(CATALOG) == 20 and set(IMPLEMENTED) <= {e.name for e in CATALOG}


@pytest.mark.parametrize("service", load_services(), ids=lambda s: s.name)
def test_service_declares_what_the_spec_says(service):
    assert service.cors == (service.name in CROSS_ORIGIN)
    assert service.network == ("testnet" if service.name in TESTNET else "mainnet")
    assert service.private == (service.name in PRIVATE)
    assert service.solana == (service.name in SOLANA)
    assert service.free_quota == (service.name in FREE_QUOTA)


async def test_cors_headers_exactly_on_cross_origin_services(client):
    for service in load_services():
        r = await client.get(f"/{service.name}/", headers={"Origin": "https://site.example"})
        assert r.status_code == 200
        assert ("access-control-allow-origin" in r.headers) == (service.name in CROSS_ORIGIN), service.name
        pre = await client.options(
            f"/{service.name}/", headers={"Origin": "https://site.example", "Access-Control-Request-Method": "GET"}
        )
        assert ("access-control-allow-origin" in pre.headers) == (service.name in CROSS_ORIGIN), service.name
