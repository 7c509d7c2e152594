"""The llms.txt format (llmstxt.org): what a file does and does not follow. Pure function."""

from __future__ import annotations

import re
from typing import Any

LINK_ITEM = re.compile(r"^\s*[-*]\s+\[[^\]]+\]\([^)\s]+\)(\s*:.*)?$")


def llms_txt_findings(text: str) -> list[dict[str, Any]]:
    """Format of llms.txt (llmstxt.org): an H1 first, then an optional '>' summary, prose, and H2
    sections whose list items are '- [name](url): notes'."""
    found: list[dict[str, Any]] = []
    lines = text.splitlines()
    first = next(((i, line) for i, line in enumerate(lines, 1) if line.strip()), None)
    if first is None or not first[1].startswith("# "):
        found.append(
            {
                "line": first[0] if first else 1,
                "severity": "error",
                "message": "The file must start with an H1 ('# Site name').",
            }
        )
    h1s = [i for i, line in enumerate(lines, 1) if line.startswith("# ")]
    for extra in h1s[1:]:
        found.append({"line": extra, "severity": "warning", "message": "Only one H1 is expected."})
    section = None
    for i, line in enumerate(lines, 1):
        if line.startswith("## "):
            section = line[3:].strip()
        elif line.startswith("### "):
            found.append(
                {
                    "line": i,
                    "severity": "warning",
                    "message": "Sections are H2 ('## '); deeper headings are not part of the format.",
                }
            )
        elif section and line.lstrip().startswith(("- ", "* ")) and not LINK_ITEM.match(line):
            found.append(
                {
                    "line": i,
                    "severity": "warning",
                    "message": "A list item in a section should be '- [name](url): notes'.",
                }
            )
    if not any(line.startswith("## ") for line in lines):
        found.append(
            {"line": 0, "severity": "info", "message": "No H2 sections with links; the file gives only a summary."}
        )
    return found
