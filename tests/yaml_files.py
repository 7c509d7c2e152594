"""YAML read in the tests as the product reads its data files: with libyaml's parser where PyYAML
was built with it (about ten times faster than the pure-Python SafeLoader, which at import time
made collecting the suite seconds slower in every pytest-xdist worker). Both give the same
documents: tests/platform/test_records.py compares them on every data file."""

from __future__ import annotations

from typing import Any

import yaml

from twlookup.platform.data_prefetch import safe_loader


def load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=safe_loader())
