"""The project's documents as the doc tests read them: the README and every file under docs/, so an
example is checked wherever it lives."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def all_docs() -> str:
    return "\n\n".join(p.read_text(encoding="utf-8") for p in doc_files())
