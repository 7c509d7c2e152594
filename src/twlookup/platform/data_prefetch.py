"""A seed's data files parsed on the other core while this process imports the services.

Parsing the YAML data files is about a fifth of a seed's CPU time, and needs nothing of the
service code; importing the services is more than that, and needs nothing of the files. While
`prefetched(data_dir)` is open, a child interpreter (this module run with `-m`: it imports only
PyYAML besides) parses every `*.yaml` file under `data_dir` with the loader `read_data_file` uses and
hands the documents back pickled; the first `read_data_file` waits for them, and each document
is handed out once (a second read of the same file parses it again). A file the child could not
parse, or a child that failed, is parsed here as before, so errors are reported as they always
were. On leaving the block the child is stopped and what was not used is dropped.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any


@cache
def safe_loader() -> Any:
    """libyaml's parser where PyYAML was built with it (its wheels are): the same documents as the
    pure-Python SafeLoader gives (tests/platform/test_records.py compares every data file), read
    about ten times faster. PyYAML is imported on first use: a serving process that reads no data
    file does not need it."""
    import yaml

    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


MISSING = object()


class _Pending:
    def __init__(self, child: subprocess.Popen[bytes]) -> None:
        self.child = child
        self.documents: dict[str, Any] | None = None

    def take(self, path: Path) -> Any:
        if self.documents is None:
            self.documents = self._collect()
        return self.documents.pop(str(path.resolve()), MISSING)

    def _collect(self) -> dict[str, Any]:
        try:
            out, _ = self.child.communicate(timeout=120)
            return pickle.loads(out) if self.child.returncode == 0 and out else {}
        except (subprocess.TimeoutExpired, pickle.UnpicklingError, EOFError):
            return {}

    def close(self) -> None:
        if self.child.poll() is None:
            self.child.kill()
        self.child.communicate()
        self.documents = None


_pending: _Pending | None = None


@contextmanager
def prefetched(data_dir: Path) -> Iterator[None]:
    """Parse the YAML files under `data_dir` in a child interpreter while the block runs."""
    global _pending
    try:
        child = subprocess.Popen(
            # -P: the working directory is not put on the child's import path
            [sys.executable, "-P", "-m", __name__, str(data_dir.resolve())],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:  # no child: everything is parsed here
        yield
        return
    _pending = _Pending(child)
    try:
        yield
    finally:
        pending, _pending = _pending, None
        pending.close()


def collect() -> None:
    """Wait for the child's documents now (before forking a process that reads them too: the copy
    then holds them, rather than racing this process for the child's output)."""
    if _pending is not None and _pending.documents is None:
        _pending.documents = _pending._collect()


def take(path: Path) -> Any:
    """The document of `path` parsed by the child, or `MISSING` (parse it here)."""
    return _pending.take(path) if _pending is not None else MISSING


def parse(path: Path) -> Any:
    """A data file's document, as `read_data_file` and the child read it."""
    import yaml

    with path.open(encoding="utf-8") as fh:
        return yaml.load(fh, Loader=safe_loader())


def parse_all(data_dir: Path) -> dict[str, Any]:
    """Every YAML file under `data_dir` that parses, by its resolved path."""
    import yaml

    documents: dict[str, Any] = {}
    for path in sorted(data_dir.rglob("*.yaml")):
        try:
            documents[str(path.resolve())] = parse(path)
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue  # parsed again by the seed, which reports the error
    return documents


if __name__ == "__main__":  # the child: documents out as one pickle
    sys.stdout.buffer.write(pickle.dumps(parse_all(Path(sys.argv[1])), protocol=pickle.HIGHEST_PROTOCOL))
