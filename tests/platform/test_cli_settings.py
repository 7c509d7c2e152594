"""The command line and the settings: help that explains each command, bad settings refused."""

import subprocess
import sys

import pytest
from pydantic import ValidationError

from twlookup.cli import build_parser
from twlookup.settings import Settings


def test_help_lists_every_command():
    out = subprocess.run(
        [sys.executable, "-m", "twlookup", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for command in ("serve", "db", "seed", "ingest", "refresh", "scheduler"):
        assert command in out
    refresh = subprocess.run(
        [sys.executable, "-m", "twlookup", "refresh", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "--force" in refresh and "older than the last import" in refresh and "TWLOOKUP_FEEDS_" in refresh
    assert (
        "--refresh" in build_parser().format_help()
        or "--refresh"
        in subprocess.run(
            [sys.executable, "-m", "twlookup", "serve", "--help"], capture_output=True, text=True, check=True
        ).stdout
    )
    serve = build_parser().parse_args(["serve", "--port", "8123", "--workers", "2"])
    assert (serve.port, serve.workers, serve.command) == (8123, 2, "serve")


def test_bad_settings_are_refused_at_start():
    with pytest.raises(ValidationError, match="rate_limit_default"):
        Settings(rate_limit_default="lots", _env_file=None)
    with pytest.raises(ValidationError, match="trusted_proxies"):
        Settings(trusted_proxies=["not-a-cidr"], _env_file=None)
    with pytest.raises(ValidationError, match="facilitator"):
        Settings(facilitator="cloud", _env_file=None)


def test_per_service_overrides_from_environment(monkeypatch):
    monkeypatch.setenv("TWLOOKUP_RATE_LIMIT_MODELS", "5/second")
    monkeypatch.setenv("TWLOOKUP_HOST_MODELS", "Models.Example.com")
    s = Settings(_env_file=None)
    assert s.rate_limit_for("models") == "5/second"
    assert s.host_for("models") == "models.example.com"
    assert s.rate_limit_for("share") == "60/minute"


@pytest.mark.parametrize(
    "prices",
    [
        {"bikes": "$0.05"},
        {"bikes:/api/free": "$0.05"},
        {"bikes:/api/pro/export": "0.05"},
        {"bikes:/api/pro/export": "$-1"},
        {"bikes:/api/pro/export": "$abc"},
        {"bikes:/api/pro/export": "$0.0000001"},
    ],
)
def test_bad_price_overrides_are_refused(prices):
    with pytest.raises(ValidationError, match="prices"):
        Settings(prices=prices, _env_file=None)


def test_price_override_from_environment(monkeypatch):
    monkeypatch.setenv("TWLOOKUP_PRICES", '{"bikes:/api/pro/export": "$0.10"}')
    s = Settings(_env_file=None)
    assert s.price_for("bikes", "/api/pro/export", "$0.05") == "$0.10"
    assert s.price_for("bikes", "/api/pro/other", "$0.05") == "$0.05"


def test_solana_receiver_must_be_a_solana_address():
    with pytest.raises(ValidationError, match="pay_to_svm"):
        Settings(pay_to_svm="0xC24cD25fdb9bBc24524B456AdF1b302e8519979c", _env_file=None)
    assert Settings(pay_to_svm="9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin", _env_file=None).pay_to_svm
