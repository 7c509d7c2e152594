"""The command line and the settings: help that explains each command, bad settings refused."""

import os
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


# The plain DATABASE_URL and REDIS_URL, and which name wins


def _clear(monkeypatch, *names):
    for name in names:
        monkeypatch.delenv(name, raising=False)


def test_plain_database_and_redis_urls_are_read(monkeypatch):
    _clear(monkeypatch, "TWLOOKUP_DATABASE_URL", "TWLOOKUP_REDIS_URL")
    monkeypatch.setenv("DATABASE_URL", "postgresql://app@db:5432/twlookup")
    monkeypatch.setenv("REDIS_URL", "redis://cache:6379/0")
    s = Settings(_env_file=None)
    assert s.database_url == "postgresql://app@db:5432/twlookup"
    assert s.redis_url == "redis://cache:6379/0"


def test_prefixed_name_wins_over_the_plain_one(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "postgresql://app@db:5432/plain")
    monkeypatch.setenv("TWLOOKUP_DATABASE_URL", "sqlite:///var/prefixed.db")
    monkeypatch.setenv("REDIS_URL", "redis://plain:6379/0")
    monkeypatch.setenv("TWLOOKUP_REDIS_URL", "redis://prefixed:6379/0")
    s = Settings(_env_file=None)
    assert (s.database_url, s.redis_url) == ("sqlite:///var/prefixed.db", "redis://prefixed:6379/0")


def test_environment_wins_over_dotenv_whatever_the_name(monkeypatch, tmp_path):
    _clear(monkeypatch, "TWLOOKUP_DATABASE_URL", "DATABASE_URL", "TWLOOKUP_REDIS_URL", "REDIS_URL")
    env_file = tmp_path / ".env"
    env_file.write_text(
        "TWLOOKUP_DATABASE_URL=sqlite:///var/dotenv.db\nDATABASE_URL=sqlite:///var/dotenv-plain.db\n"
        "REDIS_URL=redis://dotenv:6379/0\n"
    )
    assert Settings(_env_file=env_file).database_url == "sqlite:///var/dotenv.db"  # in .env: prefixed wins
    assert Settings(_env_file=env_file).redis_url == "redis://dotenv:6379/0"
    monkeypatch.setenv("DATABASE_URL", "postgresql://app@db:5432/env")
    assert Settings(_env_file=env_file).database_url == "postgresql://app@db:5432/env"


def test_field_names_still_set_by_keyword():
    s = Settings(database_url="sqlite:///x.db", redis_url="redis://r:6379/1", _env_file=None)
    assert (s.database_url, s.redis_url) == ("sqlite:///x.db", "redis://r:6379/1")


# Unknown TWLOOKUP_* variables are reported


SERVICES = ["models", "holiday", "share"]


def test_unknown_variables_named_with_what_they_probably_meant():
    from twlookup.settings import unknown_variables

    found = unknown_variables(
        {
            "TWLOOKUP_DATABSE_URL": "x",  # a letter swapped
            "TWLOOKUP_RATELIMIT_DEFAULT": "5/minute",  # an underscore missing
            "TWLOOKUP_HOST_MODLES": "m.example.com",  # per-service, service misspelt
            "twlookup_worker": "2",  # case does not hide it
            "TWLOOKUP_COLOUR": "blue",  # close to nothing
            "TWLOOKUP_PORT": "8000",  # known
            "TWLOOKUP_HOST_HOLIDAY": "h.example.com",  # known per-service name
            "TWLOOKUP_RATE_LIMIT_SHARE": "60/minute",
            "TWLOOKUP_CREATOR_LIVE_REGISTER": "0",  # read by a service itself
            "TWLOOKUP_TEST_DATABASE_URL": "postgresql://t",  # the test suite's own
            "DATABASE_URL": "postgresql://x",  # not ours to judge
            "PATH": "/usr/bin",
        },
        SERVICES,
    )
    assert found == [
        ("TWLOOKUP_COLOUR", None),
        ("TWLOOKUP_DATABSE_URL", "TWLOOKUP_DATABASE_URL"),
        ("TWLOOKUP_HOST_MODLES", "TWLOOKUP_HOST_MODELS"),
        ("TWLOOKUP_RATELIMIT_DEFAULT", "TWLOOKUP_RATE_LIMIT_DEFAULT"),
        ("twlookup_worker", "TWLOOKUP_WORKERS"),
    ]


def test_every_variable_the_code_and_docs_name_is_known():
    """What .env.example documents and what the code reads from the environment itself are all
    known names, so a correct setting is never reported as unknown."""
    import re
    from pathlib import Path

    from twlookup.services import CATALOG
    from twlookup.settings import known_variables

    root = Path(__file__).resolve().parents[2]
    known = known_variables([e.name for e in CATALOG])
    documented = set(re.findall(r"^#?\s*(TWLOOKUP_[A-Z0-9_]+)=", (root / ".env.example").read_text(), re.M))
    assert documented and documented <= known, documented - known
    read = set()
    for path in (root / "src").rglob("*.py"):
        read |= set(re.findall(r"environ(?:\.get)?[(\[]\"(TWLOOKUP_[A-Z0-9_]+)\"", path.read_text(encoding="utf-8")))
    assert read <= known, read - known  # (today every setting is read through Settings: empty)


def test_unknown_variable_is_reported_at_start(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("TWLOOKUP_")}
    env.update(TWLOOKUP_DATABSE_URL="sqlite:///nowhere.db", TWLOOKUP_WORKERS="1")
    out = subprocess.run(
        [sys.executable, "-m", "twlookup", "review", "token", "models", "alice"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        cwd=tmp_path,
    )
    assert out.stderr.splitlines() == [
        "twlookup: warning: environment variable TWLOOKUP_DATABSE_URL is not a twlookup setting and is ignored;"
        " did you mean TWLOOKUP_DATABASE_URL?"
    ]
    (tmp_path / ".env").write_text("TWLOOKUP_PROT=8001\n")
    out = subprocess.run(
        [sys.executable, "-m", "twlookup", "review", "token", "models", "alice"],
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in env.items() if k != "TWLOOKUP_DATABSE_URL"},
        cwd=tmp_path,
    )
    assert out.stderr.splitlines() == [
        "twlookup: warning: .env entry TWLOOKUP_PROT is not a twlookup setting and is ignored;"
        " did you mean TWLOOKUP_PORT?"
    ]


def test_env_example_names_every_setting_with_its_default(tmp_path):
    """Settings declares each setting and its default; .env.example shows every one of them, and its
    lines that are not commented out, read as a .env file, change nothing, so the file cannot drift
    from the declarations."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    shown = {name.lower() for name in re.findall(r"^#?\s*TWLOOKUP_([A-Z0-9_]+)=", text, re.M)}
    assert set(Settings.model_fields) <= shown, set(Settings.model_fields) - shown
    env_file = tmp_path / ".env"
    env_file.write_text("".join(line + "\n" for line in text.splitlines() if line.startswith("TWLOOKUP_")))
    assert Settings(_env_file=env_file) == Settings(_env_file=None)  # (the environment wins in both)
