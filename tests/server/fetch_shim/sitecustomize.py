"""Loaded at start-up by a test server process whose PYTHONPATH holds this folder: names ending
in `.test` resolve to a public address, and connections to that address go to the loopback
listener on port FETCH_SHIM_PORT. The safe fetcher's own rules all still run; only the network
under them is the test's. Without FETCH_SHIM_PORT this module does nothing."""

import os

_port = os.environ.get("FETCH_SHIM_PORT")
if _port:
    import httpcore

    from twlookup.platform import fetch

    PUBLIC = "93.184.216.34"

    async def _resolve(host: str, port: int) -> list[str]:
        if host.endswith(".test"):
            return [PUBLIC]
        raise OSError(f"{host}: only .test names resolve in this test server")

    _connect = httpcore.AnyIOBackend.connect_tcp

    async def _connect_to_listener(self, host, port, **kwargs):  # type: ignore[no-untyped-def]
        if host == PUBLIC:
            host, port = "127.0.0.1", int(_port)
        return await _connect(self, host, port, **kwargs)

    fetch.resolve = _resolve
    httpcore.AnyIOBackend.connect_tcp = _connect_to_listener
