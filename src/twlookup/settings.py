"""All configuration, read from the environment (prefix TWLOOKUP_) and an optional .env file.

The store and Redis URLs are also read from the plain `DATABASE_URL` and `REDIS_URL` that hosting
platforms and compose files set. Which one wins: a variable in the environment beats a line in
.env, and within the same place the TWLOOKUP_ name beats the plain one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from difflib import get_close_matches
from functools import lru_cache
from ipaddress import ip_network
from typing import Literal

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# Receiving address of the in-process local ledger (local facilitator mode). It is the address of
# the key keccak256("twlookup local ledger treasury"): a development account that holds no real
# funds on any chain. Set TWLOOKUP_PAY_TO_EVM to your own address for real payments.
LOCAL_TREASURY_EVM = "0xC24cD25fdb9bBc24524B456AdF1b302e8519979c"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TWLOOKUP_", env_file=".env", extra="ignore", populate_by_name=True)

    database_url: str = Field(
        "sqlite:///var/twlookup.db",
        # the prefixed name first: it wins where both are set (in the same place, see the module's doc)
        validation_alias=AliasChoices("TWLOOKUP_DATABASE_URL", "DATABASE_URL"),
        description="SQLAlchemy URL of the store. SQLite file by default; postgresql+psycopg://... for PostgreSQL.",
    )
    redis_url: str | None = Field(
        None,
        validation_alias=AliasChoices("TWLOOKUP_REDIS_URL", "REDIS_URL"),
        description="Redis URL for rate-limit counters shared across processes.",
    )
    today: date | None = Field(
        None,
        description="fix today's date (YYYY-MM-DD, Asia/Taipei) for every date-derived answer: demos, tests, "
        "reproducing a report; unset: the real calendar",
    )
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    refresh: bool | None = Field(
        None,
        description="whether `twlookup serve` runs the feed schedule in the background (on/off); unset: on with "
        "one worker, off with more (then run `twlookup scheduler` beside it)",
    )

    # Rate limits
    rate_limit_default: str = Field("600/minute", description="limit per client IP per service (limits syntax)")
    trusted_proxies: list[str] = Field(
        default_factory=list, description="CIDRs whose X-Forwarded-For, -Proto, -Host and -Port are trusted"
    )

    max_body_bytes: int = Field(1_048_576, description="largest request body accepted (413 beyond)")
    data_check_seconds: float = Field(2.0, description="how often a process looks for a re-seed of reference data")
    answer_cache_bytes: int = Field(
        1_048_576,
        ge=0,
        description="memory each process keeps the JSON answers of repeated free lookups in, for the day and the "
        "data they were worked out on (0: off)",
    )

    # Safe fetcher of user-given URLs (platform/fetch.py)
    fetch_user_agent: str = Field(
        "twlookup-fetcher/0.1 (+https://github.com/twlookup/twlookup)",
        description="User-Agent the safe fetcher sends when it fetches a URL a user gave",
    )
    fetch_extra_ports: list[int] = Field(
        default_factory=list, description="ports the safe fetcher allows besides 80 and 443, e.g. [8080, 8443]"
    )
    fetch_max_bytes: int = Field(2_097_152, ge=1024, le=104_857_600, description="largest body the safe fetcher reads")
    fetch_timeout_seconds: float = Field(10.0, gt=0, le=120, description="bound on one fetch, redirects included")

    @field_validator("fetch_extra_ports")
    @classmethod
    def _ports(cls, value: list[int]) -> list[int]:
        for port in value:
            if not 1 <= port <= 65535:
                raise ValueError(f"{port} is not a TCP port")
        return value

    # Refresh of the live feeds from their official publishers (platform/feeds). Not the safe
    # fetcher: the URLs are the code's own, but the same kind of bounds apply.
    feeds_user_agent: str = Field(
        "twlookup-feeds/0.1 (+https://github.com/twlookup/twlookup)",
        min_length=8,
        description="User-Agent sent to the publishers when a feed is refreshed",
    )
    feeds_timeout_seconds: float = Field(
        60.0, gt=0, le=600, description="bound on one download (one request and its body, redirects included)"
    )
    feeds_max_bytes: int = Field(
        33_554_432, ge=1024, le=1_073_741_824, description="largest body a feed download reads (decoded)"
    )
    feeds_retries: int = Field(
        2, ge=0, le=10, description="further tries of a download after a network error, a 5xx or a 429"
    )
    feeds_backoff_seconds: float = Field(
        2.0, ge=0, le=600, description="wait before the first retry; doubles on each further one"
    )
    feeds_backoff_max_seconds: float = Field(
        60.0, ge=0, le=3600, description="longest wait between tries (also caps a Retry-After)"
    )
    feeds_lock_seconds: float = Field(
        1800.0,
        ge=10,
        le=86_400,
        description="how long one process holds a feed's refresh lock in the store before another may take it over",
    )
    feeds_poll_seconds: float = Field(
        60.0, gt=0, le=3600, description="longest sleep of the scheduler between looks at what is due"
    )
    feeds_retry_failed_seconds: float = Field(
        900.0,
        gt=0,
        le=86_400,
        description="after a failed refresh the scheduler tries again this soon (or at the cadence, if sooner)",
    )
    feeds_every: dict[str, float] = Field(
        default_factory=dict,
        description='cadence overrides in seconds, e.g. {"trip.fx": 1800}; feeds not named keep their declared cadence',
    )
    feeds_disabled: list[str] = Field(
        default_factory=list,
        description='feeds (or whole services) the scheduler leaves alone, e.g. ["creator.companies"]',
    )

    @field_validator("feeds_every")
    @classmethod
    def _feeds_every(cls, value: dict[str, float]) -> dict[str, float]:
        for name, seconds in value.items():
            if "." not in name or not 60 <= seconds <= 90 * 86_400:
                raise ValueError(f"{name!r}: a cadence override is 'service.feed' to 60 to 7776000 seconds")
        return value

    # seo service: IndexNow submission and crawler IP verification
    indexnow_endpoint: str = Field(
        "https://api.indexnow.org/indexnow", description="IndexNow endpoint the seo service posts URL submissions to"
    )
    indexnow_timeout_seconds: float = Field(10.0, gt=0, le=60, description="bound on one IndexNow submission")
    seo_verify_dns: bool = Field(
        False, description="verify-ip also confirms a crawler by reverse and forward DNS (needs a reachable resolver)"
    )
    seo_dns_timeout_seconds: float = Field(3.0, gt=0, le=30, description="bound on the DNS confirmation of verify-ip")
    # creator service: the company register (data.gcis.nat.gov.tw)
    creator_live_register: bool = Field(
        True,
        description="creator asks the company register live for a business ID not in the store (false: store only)",
    )
    creator_register_timeout_seconds: float = Field(
        5.0, gt=0, le=60, description="bound on one live company-register request"
    )
    # opinions: live search of Hacker News (Algolia) and the Stack Exchange API, through the safe fetcher
    opinions_live: bool = Field(False, description="opinions /api/search also asks the two communities' search APIs")
    opinions_live_timeout_seconds: float = Field(5.0, gt=0, le=30, description="bound on each live community request")
    opinions_live_max_bytes: int = Field(
        1_048_576, ge=16_384, le=10_485_760, description="largest live community answer read (cut off beyond)"
    )
    # Knowledge-base lookups (sports, movie, games: Wikidata and Wikipedia)
    kb_timeout_seconds: float = Field(4.0, gt=0, le=30, description="bound on each Wikidata/Wikipedia request")
    kb_cache_seconds: int = Field(
        7 * 86400, ge=0, le=365 * 86400, description="how long a lookup answer is served from the store"
    )
    kb_user_agent: str = Field(
        "twlookup/0.1 (https://twlookup.dev/; operator: set TWLOOKUP_KB_USER_AGENT with your contact) httpx",
        min_length=8,
        description="User-Agent sent to Wikimedia, which asks for a contact (URL or e-mail)",
    )
    # Bounds on waiting for what the process depends on (a stalled dependency answers 503, not a hang)
    store_connect_timeout_seconds: float = Field(5.0, gt=0, le=300, description="opening a store connection")
    store_pool_timeout_seconds: float = Field(
        5.0, gt=0, le=300, description="waiting for a free pooled store connection"
    )
    store_statement_timeout_seconds: float = Field(
        10.0,
        ge=0,
        le=3600,
        description="one SQL statement (PostgreSQL statement_timeout, SQLite busy timeout); 0: unbounded",
    )
    request_timeout_seconds: float = Field(
        15.0, gt=0, le=600, description="one operation's work (store reads, computing); past it the request answers 503"
    )
    store_grace_seconds: float = Field(
        30.0,
        ge=0,
        le=3600,
        description="while the store stalls, how long routes whose data is in memory keep answering from it",
    )
    store_stall_wait_seconds: float = Field(
        2.0,
        gt=0,
        le=60,
        description="how long a request waits on a store that is stalling (then memory, or 503)",
    )
    startup_wait_seconds: float = Field(
        30.0, ge=0, le=3600, description="how long `serve` waits for an unreachable store at start before it exits"
    )
    health_timeout_seconds: float = Field(0.5, gt=0, le=0.9, description="bound on each dependency check of /healthz")
    redis_timeout_seconds: float = Field(
        0.25, gt=0, le=30, description="bound on each rate-limit counter call to Redis"
    )
    rate_limit_on_store_error: Literal["allow", "local", "refuse"] = Field(
        "allow",
        description="when Redis is unreachable: allow (serve uncounted, log), local (count in this process), refuse (503)",
    )
    redis_retry_seconds: float = Field(
        5.0, gt=0, le=600, description="after a Redis failure, how long to skip it before trying again"
    )

    # HTTP server bounds (platform/server_protocol.py); cap the same in the reverse proxy in front
    # A paid request's PAYMENT-SIGNATURE echoes the 402's discovery metadata: up to about 35 KB.
    max_header_bytes: int = Field(
        65_536,
        ge=1024,
        le=1_048_576,
        description="largest request head (request line and headers), and largest payment header",
    )
    keep_alive_seconds: int = Field(5, ge=1, le=600, description="how long an idle keep-alive connection is held open")
    header_timeout_seconds: float = Field(
        10, gt=0, le=600, description="time a client has to send its request line and headers (408 beyond)"
    )
    body_timeout_seconds: float = Field(
        30, gt=0, le=3600, description="time a client has to send its request body after the headers (408 beyond)"
    )
    max_connections: int | None = Field(
        1000, ge=1, description="open connections per process; a request beyond them is a 503 with Retry-After"
    )

    # Where clients reach this server (platform/public_origin.py): every absolute URL is written under it
    public_url: str | None = Field(
        None,
        description="public base URL, e.g. https://api.example.com; unset: the URL the client used "
        "(X-Forwarded-* believed from trusted proxies only)",
    )
    mcp_allowed_origins: list[str] = Field(
        default_factory=list,
        description='browser origins allowed to call the MCP endpoints ("*": any); a request with another Origin gets 403',
    )

    # Payments (x402)
    payments_enabled: bool = Field(True, description="false: no x402 machinery; every /api/pro route answers not open")
    facilitator: Literal["local", "remote"] = "local"
    facilitator_url: str = "https://x402.org/facilitator"
    facilitator_timeout_seconds: float = Field(10.0, gt=0, le=120, description="bound on each facilitator call")
    facilitator_retry_max_seconds: float = Field(
        60.0, gt=0, le=3600, description="longest back-off after the facilitator failed to answer (doubles from 1 s)"
    )
    evm_mainnet: str = Field("eip155:8453", description="CAIP-2 id of the EVM layer-2 mainnet (Base)")
    evm_testnet: str = Field("eip155:84532", description="CAIP-2 id of the EVM layer-2 testnet (Base Sepolia)")
    pay_to_evm: str = LOCAL_TREASURY_EVM
    svm_mainnet: str = Field(
        "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        description="CAIP-2 id of Solana mainnet, the non-EVM network food and share accept",
    )
    pay_to_svm: str | None = Field(
        None, description="Solana receiving address; unset: no Solana option is offered (the local ledger is EVM only)"
    )
    pro_closed: list[str] = Field(
        default_factory=list,
        description='paid routes that are not open: service names ("life") or service:path ("bikes:/api/pro/export")',
    )
    payment_timeout_seconds: int = 300
    prices: dict[str, str] = Field(
        default_factory=dict,
        description='price overrides of paid routes, "service:/api/pro/path" to a USD price such as "$0.05"',
    )

    @field_validator("rate_limit_default")
    @classmethod
    def _limit(cls, value: str) -> str:
        from limits import parse

        parse(value)  # raises ValueError naming the bad limit string
        return value

    # Free quota and pass (spec: food's free endpoints have a per-minute free quota; beyond it a
    # client pays each call by x402 or shows a pass bought at {pay_url}/pass)
    free_quota_per_minute: int = Field(
        30, ge=1, le=100_000, description="free calls per client IP per minute to a quota service"
    )
    quota_call_price: str = Field("$0.001", description="x402 price of one call past the free quota, without a pass")
    pass_price: str = Field("$0.50", description="x402 price of a pass at /pay/pass")
    pass_hours: int = Field(24, ge=1, le=8760, description="how long a pass is valid")
    pass_secret: str | None = Field(
        None,
        description="HMAC key signing passes; unset: a random key created once in the store (shared by its processes)",
    )

    # Review of public submissions (platform/review.py)
    review_operators: list[str] = Field(
        default_factory=list,
        description=(
            'operator tokens, each "name:service:sha256-hex-of-token" (only the hash is kept; '
            "`twlookup review token SERVICE NAME` makes a token and prints its entry)"
        ),
    )
    review_submissions_per_hour: int = Field(
        20,
        ge=1,
        le=10_000,
        description="public submissions (contributions, shares, comments, votes) per client per service per hour",
    )

    @field_validator("review_operators")
    @classmethod
    def _operators(cls, value: list[str]) -> list[str]:
        import re

        for entry in value:
            if not re.fullmatch(r"[A-Za-z0-9_.@-]{1,64}:[a-z0-9_-]{1,32}:[0-9a-f]{64}", entry):
                raise ValueError(f"{entry[:80]!r}: an operator entry is 'name:service:sha256-hex' (64 hex digits)")
        return value

    @field_validator("pay_to_svm")
    @classmethod
    def _solana_address(cls, value: str | None) -> str | None:
        if value is None:
            return value
        from solders.pubkey import Pubkey

        try:
            Pubkey.from_string(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a base58 Solana address") from None
        return value

    @field_validator("quota_call_price", "pass_price")
    @classmethod
    def _one_price(cls, value: str) -> str:
        check_price(value)
        return value

    @field_validator("prices")
    @classmethod
    def _prices(cls, value: dict[str, str]) -> dict[str, str]:
        for route, price in value.items():
            service, _, path = route.partition(":")
            if not service or not path.startswith("/api/pro/"):
                raise ValueError(f"{route!r}: a price override is keyed 'service:/api/pro/path'")
            check_price(price, route)
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _cidrs(cls, value: list[str]) -> list[str]:
        for item in value:
            ip_network(item, strict=False)
        return value

    def base_url(self, service: str | None = None, host: str | None = None) -> str:
        """The public base URL: TWLOOKUP_PUBLIC_URL, or http://HOST:PORT. When `host` is the
        configured host of `service`, that host at the same scheme (the service at its root)."""
        base = (self.public_url or f"http://{self.host}:{self.port}").rstrip("/")
        if service and host and self.host_for(service) == host.lower():
            scheme = base.split("://", 1)[0]
            return f"{scheme}://{host.lower()}"
        return base + (f"/{service}" if service else "")

    def pro_open(self, service: str, path: str) -> bool:
        return self.payments_enabled and service not in self.pro_closed and f"{service}:{path}" not in self.pro_closed

    def price_for(self, service: str, path: str, declared: str) -> str:
        """The price a paid route charges: its override in TWLOOKUP_PRICES, else its declared price."""
        return self.prices.get(f"{service}:{path}", declared)

    def host_for(self, service: str) -> str | None:
        """TWLOOKUP_HOST_<NAME>=models.example.com: the service also answers at that host's root."""
        value = _per_service("HOST", service)
        return value.lower() if value else None

    def rate_limit_for(self, service: str) -> str:
        """TWLOOKUP_RATE_LIMIT_<NAME>=100/minute overrides; share defaults to the spec's 60/minute."""
        return _per_service("RATE_LIMIT", service) or SPEC_RATE_LIMITS.get(service, self.rate_limit_default)


SPEC_RATE_LIMITS = {"share": "60/minute"}

# TWLOOKUP_* variables read outside Settings: per-service settings (TWLOOKUP_HOST_MODELS, ...) and
# two that services read from the environment themselves
PER_SERVICE = ("HOST", "RATE_LIMIT")
READ_ELSEWHERE = ("TWLOOKUP_CREATOR_LIVE_REGISTER", "TWLOOKUP_OPINIONS_LIVE")
TEST_PREFIX = "TWLOOKUP_TEST_"  # the test suite's own variables (its PostgreSQL and Redis, ...)


def known_variables(services: Iterable[str]) -> set[str]:
    """Every TWLOOKUP_* name something reads, given the service names."""
    names = {f"TWLOOKUP_{name.upper()}" for name in Settings.model_fields}
    names.update(f"TWLOOKUP_{kind}_{service.upper()}" for kind in PER_SERVICE for service in services)
    names.update(READ_ELSEWHERE)
    return names


def unknown_variables(variables: Mapping[str, str], services: Iterable[str]) -> list[tuple[str, str | None]]:
    """The TWLOOKUP_* names in `variables` that nothing reads, each with the known name it most
    probably meant (None when none is close), so that a typo is reported instead of ignored."""
    known = known_variables(services)
    stems = {name.removeprefix("TWLOOKUP_"): name for name in known}  # compared without the prefix all share
    unknown = []
    for name in sorted(variables):
        upper = name.upper()
        if upper.startswith("TWLOOKUP_") and upper not in known and not upper.startswith(TEST_PREFIX):
            close = get_close_matches(upper.removeprefix("TWLOOKUP_"), stems, n=1, cutoff=0.75)
            unknown.append((name, stems[close[0]] if close else None))
    return unknown


def unknown_variable_warnings(services: Iterable[str]) -> list[str]:
    """Warning lines for unknown TWLOOKUP_* names in the environment and in .env."""
    services = list(services)
    lines = []
    for where, variables in (("environment variable", os.environ), (".env entry", _dotenv())):
        for name, meant in unknown_variables(variables, services):
            hint = f"; did you mean {meant}?" if meant else ""
            lines.append(f"warning: {where} {name} is not a twlookup setting and is ignored{hint}")
    return lines


def check_price(price: str, what: str = "price") -> None:
    """A USD price as x402 takes it: '$' and a positive amount in whole USDC micro-units."""
    from decimal import Decimal, InvalidOperation

    try:
        amount = Decimal(price.removeprefix("$"))
    except InvalidOperation:
        raise ValueError(f"{what}: {price!r} is not a USD amount such as '$0.05'") from None
    if (
        not price.startswith("$")
        or not amount.is_finite()
        or amount <= 0
        or amount != amount.quantize(Decimal("0.000001"))
    ):
        raise ValueError(f"{what}: {price!r} must be '$' and a positive amount with at most 6 decimals")


def _per_service(kind: str, service: str) -> str | None:
    key = f"TWLOOKUP_{kind}_{service.upper()}"
    return os.environ.get(key) or _dotenv().get(key)


@lru_cache
def _dotenv() -> dict[str, str]:
    from dotenv import dotenv_values

    return {k: v for k, v in dotenv_values(".env").items() if v is not None}


@lru_cache
def get_settings() -> Settings:
    return Settings()


ReadSettings = Callable[[], Settings]  # how a command reads the settings when it needs them (cli.main passes it)
