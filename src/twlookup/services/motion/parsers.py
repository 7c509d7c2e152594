"""Importers of the motion service: browser support from the web-features package's data.json
(`twlookup ingest motion.support data.json`) and animation libraries from npm registry version
documents (`twlookup ingest motion.libraries latest.json`, a JSON list of
https://registry.npmjs.org/<name>/latest documents)."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path
from typing import Any

from twlookup.services.motion.records import LibraryRecord, SupportRecord

# The animation features of the web platform this service reports (web-features ids).
FEATURES = (
    "animations-css",
    "transitions",
    "web-animations",
    "linear-easing",
    "prefers-reduced-motion",
    "view-transitions",
    "cross-document-view-transitions",
    "scroll-driven-animations",
    "registered-custom-properties",
    "individual-transforms",
    "motion-path",
    "starting-style",
    "transition-behavior",
    "interpolate-size",
    "will-change",
    "conic-gradients",
    "oklab",
    "gradient-interpolation",
)
BROWSERS = ("chrome", "chrome_android", "edge", "firefox", "firefox_android", "safari", "safari_ios")
EXPLORER = "https://web-platform-dx.github.io/web-features-explorer/features/{id}/"


def parse_web_features(doc: Any, data_version: str, checked: date) -> list[SupportRecord]:
    """The FEATURES rows of a web-features data.json document; ValueError when its shape is wrong."""
    if not isinstance(doc, dict) or not isinstance(doc.get("features"), dict):
        raise ValueError("not a web-features data.json: no 'features' mapping")
    out = []
    for fid in FEATURES:
        feature = doc["features"].get(fid)
        if feature is None:
            raise ValueError(f"web-features data has no feature {fid!r}")
        if not isinstance(feature, dict) or not isinstance(feature.get("name"), str):
            raise ValueError(f"web-features feature {fid!r} has no name")
        status = feature.get("status") or {}
        if not isinstance(status, dict):
            raise ValueError(f"web-features feature {fid!r}: status is not an object")
        baseline = status.get("baseline")
        out.append(
            SupportRecord(
                id=fid,
                name=feature["name"],
                baseline=baseline if baseline in ("high", "low") else "none",
                baseline_low_date=_date(status.get("baseline_low_date")),
                baseline_high_date=_date(status.get("baseline_high_date")),
                support={b: str(v) for b, v in (status.get("support") or {}).items() if b in BROWSERS},
                data_version=data_version,
                source=EXPLORER.format(id=fid),
                source_title=f"web-features {data_version}: {feature['name']}",
                checked=checked,
                licence="Apache-2.0 (web-features; compat data from MDN browser-compat-data, CC0-1.0)",
            )
        )
    return out


def _date(value: Any) -> date | None:
    if not value:
        return None
    text = str(value).lstrip("≤")
    return date.fromisoformat(text)


VERSIONED_NAME = re.compile(r"web-features-v?(\d+\.\d+\.\d+)")


def version_of(path: Path) -> str:
    """The web-features version of a data.json: from package.json beside it (an unpacked npm
    package), else from a file name like web-features-v3.40.0-data.json (a refresh names the
    release's file so), else unknown."""
    package = path.with_name("package.json")
    if package.is_file():
        return str(json.loads(package.read_text())["version"])
    match = VERSIONED_NAME.search(path.name)
    return match.group(1) if match else "unknown"


def read_web_features(path: Path, checked: date) -> list[SupportRecord]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path.name}: not JSON ({exc})") from None
    return parse_web_features(doc, version_of(path), checked)


def parse_npm_latest(docs: Any, checked: date, notes: dict[str, str]) -> list[LibraryRecord]:
    """Library rows from npm registry version documents (name, version, license, dist)."""
    if not isinstance(docs, list):
        raise ValueError("expected a JSON list of npm registry version documents")
    out = []
    for doc in docs:
        try:
            name, version = doc["name"], doc["version"]
        except (KeyError, TypeError):
            raise ValueError("an npm document without name/version") from None
        dist = doc.get("dist") or {}
        out.append(
            LibraryRecord(
                id=name.lstrip("@").replace("/", "-"),
                name=name,
                version=version,
                package_licence=str(doc.get("license") or "UNLICENSED"),
                unpacked_bytes=dist.get("unpackedSize"),
                tarball_bytes=None,
                released=None,
                note=notes.get(name, ""),
                source=f"https://www.npmjs.com/package/{name}",
                source_title=f"npm registry metadata of {name}@{version}",
                checked=checked,
            )
        )
    return out
