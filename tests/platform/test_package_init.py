"""Deferring a package's `__init__` (platform/package_init.py), and the two packages it is used on."""

import subprocess
import sys
import textwrap

import pytest

from twlookup.platform.package_init import defer_init


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package `deferpkg` whose `__init__` counts its runs and imports a costly module."""
    root = tmp_path / "deferpkg"
    root.mkdir()
    (root / "__init__.py").write_text(
        textwrap.dedent(
            """
            import builtins
            builtins.deferpkg_runs = getattr(builtins, "deferpkg_runs", 0) + 1
            from deferpkg import costly
            NAME = "from the init"
            """
        )
    )
    (root / "costly.py").write_text("LOADED = True\n")
    (root / "light.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "deferpkg"
    for name in [m for m in sys.modules if m == "deferpkg" or m.startswith("deferpkg.")]:
        del sys.modules[name]
    import builtins

    if hasattr(builtins, "deferpkg_runs"):
        del builtins.deferpkg_runs


def runs() -> int:
    import builtins

    return getattr(builtins, "deferpkg_runs", 0)


def test_a_module_of_the_package_imports_without_its_init(package):
    assert defer_init(package) is True
    from deferpkg import light  # through the package's __getattr__: a module of it, imported

    assert light.VALUE == 1 and runs() == 0
    import deferpkg.costly

    assert deferpkg.costly.LOADED and runs() == 0


def test_a_name_of_the_package_runs_its_init_once(package):
    defer_init(package)
    import deferpkg

    assert deferpkg.NAME == "from the init" and runs() == 1
    from deferpkg import NAME

    assert NAME == "from the init" and runs() == 1 and "deferpkg.costly" in sys.modules
    with pytest.raises(AttributeError):
        deferpkg.missing  # noqa: B018
    assert runs() == 1


def test_an_imported_package_or_a_plain_module_is_left_alone(package):
    import deferpkg  # imported as usual

    assert runs() == 1 and defer_init(package) is False and deferpkg.NAME
    assert defer_init("json.decoder") is False  # a module, not a package
    assert defer_init("no_such_package_here") is False


def run(code: str) -> list[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()


def test_the_payment_sdk_loads_without_web3():
    """Issue 24: the x402 SDK's EVM package imported web3 (about 30 MB) for signers the local
    facilitator never uses; the scheme and the ledger's signer load without it."""
    out = run(
        "import sys\n"
        "from twlookup.platform.payments import sdk\n"
        "sdk.load()\n"
        "from twlookup.platform.payments.local_facilitator import LocalFacilitatorClient\n"
        "from x402.mechanisms.evm.exact import ExactEvmFacilitatorScheme\n"
        "print('web3' in sys.modules, callable(ExactEvmFacilitatorScheme))\n"
        # a package-level name still works, and then brings web3 with it
        "from x402.mechanisms.evm import EthAccountSigner\n"
        "print('web3' in sys.modules)\n"
    )
    assert out == ["False", "True", "True"]


def test_a_destination_calendar_imports_its_country_alone_and_matches_the_package():
    """Issue 24: the holidays package's `countries` imported all 250 country modules (about 8 MB)
    for the first calendar; the calendars are the same as the package's own, imported in full."""
    countries = ["JP", "KR", "HK", "GU", "TH", "FR"]  # GU subclasses the US calendar; HK has two categories
    ours = run(
        "import sys\n"
        "from twlookup.services.holiday.logic.calendars import destination_holidays\n"
        f"days = [destination_holidays(c, (2026, 2027)) for c in {countries!r}]\n"
        "print(len([m for m in sys.modules if m.startswith('holidays.countries.')]))\n"
        "print(repr(days).replace(' ', ''))\n"
    )
    full = run(
        "import holidays.countries\n"  # the package as it imports itself: every country
        "from twlookup.services.holiday.logic.calendars import destination_holidays\n"
        f"print(repr([destination_holidays(c, (2026, 2027)) for c in {countries!r}]).replace(' ', ''))\n"
    )
    assert int(ours[0]) <= 2 * len(countries)  # the asked countries and what they build on, of 250
    assert ours[1] == full[0] and "ComingofAgeDay" in ours[1]


def test_threads_asking_while_the_init_runs_wait_for_it(package, tmp_path):
    """A second thread that asks for a name while the first runs the `__init__` gets the name, not
    an AttributeError from a half-run package."""
    import threading
    import time

    (tmp_path / "deferpkg" / "__init__.py").write_text("import time\ntime.sleep(0.3)\nNAME = 'slow'\n")
    defer_init(package)
    import deferpkg

    got: list[object] = []

    def ask() -> None:
        try:
            got.append(deferpkg.NAME)
        except AttributeError as exc:
            got.append(exc)

    first = threading.Thread(target=ask)
    first.start()
    time.sleep(0.1)  # the first thread is inside the __init__
    ask()
    first.join()
    assert got == ["slow", "slow"]
