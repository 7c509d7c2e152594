"""What the browser test needs, installed at test set-up when missing: Debian's Chromium (apt-get),
a font with Traditional Chinese glyphs for the screenshots, and axe-core from the npm registry.

Each step runs only when its tool is missing and returns the reason it could not, so the test
can skip saying why. Playwright's own browser download is never used: Playwright drives
/usr/bin/chromium. axe-core goes into the virtualenv (`<venv>/test-tools`), outside the repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CHROMIUM = Path(os.environ.get("TWLOOKUP_TEST_CHROMIUM", "/usr/bin/chromium"))
AXE_VERSION = "4.14.1"
AXE_DIR = Path(sys.prefix) / "test-tools" / f"axe-core-{AXE_VERSION}"
AXE_JS = AXE_DIR / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _run(cmd: list[str], timeout: float) -> tuple[bool, str]:
    try:
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, env=env)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, f"{' '.join(cmd)}: {exc}"
    tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or [""]
    return done.returncode == 0, f"{' '.join(cmd)} exited {done.returncode}: {tail[0]}"


def _apt_install(*packages: str) -> str | None:
    """apt-get install the packages (after one apt-get update if the first try fails); None or why not."""
    if shutil.which("apt-get") is None:
        return "apt-get is not available"
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        return "not root, so apt-get install cannot run"
    env_cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    ok, why = _run(env_cmd, 900)
    if not ok:
        _run(["apt-get", "update", "-q"], 300)
        ok, why = _run(env_cmd, 900)
    return None if ok else why


def ensure_chromium() -> str | None:
    """None when Chromium is there (installing Debian's package if missing), else why not."""
    if CHROMIUM.exists():
        return None
    why = _apt_install("chromium")
    if why is None and CHROMIUM.exists():
        return None
    return f"Chromium is not at {CHROMIUM} and could not be installed ({why or 'no binary after install'})"


def ensure_cjk_font() -> None:
    """Best effort: a font for the Chinese service names in the screenshots (the test does not need it)."""
    if shutil.which("fc-list") is None:
        return
    try:
        listed = subprocess.run(["fc-list", ":lang=zh-tw"], capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return
    if not listed:
        _apt_install("fonts-wqy-microhei")


def ensure_axe() -> tuple[str | None, str | None]:
    """(axe.min.js source, None), or (None, why not): axe-core from the npm registry, pinned."""
    if not AXE_JS.exists():
        if shutil.which("npm") is None:
            return None, "npm is not available to install axe-core"
        AXE_DIR.mkdir(parents=True, exist_ok=True)
        ok, why = _run(
            [
                "npm",
                "install",
                "--prefix",
                str(AXE_DIR),
                "--no-audit",
                "--no-fund",
                "--no-save",
                f"axe-core@{AXE_VERSION}",
            ],
            300,
        )
        if not ok or not AXE_JS.exists():
            return None, f"axe-core {AXE_VERSION} could not be installed from npm ({why})"
    return AXE_JS.read_text(encoding="utf-8"), None
