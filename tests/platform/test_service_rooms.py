"""Every service keeps the same rooms (docs/development.md, "Rooms of a service"):

operations.py (declarations), schemas.py (parameters and answers), logic (pure rules), records.py
(record models: each field named once), tables.py (derived from the records), data.py (seeding and
reading the store), feeds.py (feed declarations only, their code; what each feed states is in
data/<service>/feeds.toml), parsers (upstream formats). A room may be a package (`logic/easing.py`)
when one file would mix subjects. Citations are built from records' provenance: inside a service,
`Source(...)` is only written at module level, for a fact the code itself states; a record's
citation is `record.source_ref` or `record.cite(url, title)`."""

import ast
from pathlib import Path

import twlookup.services

SERVICES = Path(twlookup.services.__file__).parent
ROOMS = {"operations", "schemas", "logic", "records", "tables", "data", "feeds", "parsers"}

# Modules not yet moved into their rooms (issue 26); the list only shrinks: an entry that is no
# longer there fails, so that it is taken out.
PENDING_ROOMS: set[str] = set()


def service_dirs():
    return sorted(p for p in SERVICES.iterdir() if p.is_dir() and (p / "__init__.py").exists())


def test_every_module_is_in_a_room():
    strays = set()
    for svc in service_dirs():
        for entry in svc.iterdir():
            name = entry.stem if entry.suffix == ".py" else entry.name
            if entry.name == "__init__.py" or entry.name == "__pycache__":
                continue
            if name not in ROOMS:
                strays.add(f"{svc.name}/{entry.name}")
    assert strays - PENDING_ROOMS == set(), "modules outside the rooms"
    assert PENDING_ROOMS - strays == set(), "moved: take these out of PENDING_ROOMS"


def test_every_service_declares_its_operations_and_schemas():
    for svc in service_dirs():
        assert (svc / "operations.py").exists() or (svc / "operations").is_dir(), svc.name
        assert (svc / "schemas.py").exists() or (svc / "schemas").is_dir(), svc.name


def calls_of_source_in_functions(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            for node in ast.walk(fn):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Source":
                    lines.append(node.lineno)
    return lines


# Files that still build a record's citation by hand (issue 26); only shrinks, like PENDING_ROOMS.
PENDING_CITATIONS: set[str] = set()


def test_citations_come_from_provenance():
    by_hand = {str(path.relative_to(SERVICES)) for path in SERVICES.rglob("*.py") if calls_of_source_in_functions(path)}
    assert by_hand - PENDING_CITATIONS == set(), "Source(...) built inside a function: use record.source_ref / cite"
    assert PENDING_CITATIONS - by_hand == set(), "fixed: take these out of PENDING_CITATIONS"
