"""The package layout; everything else about the package is in pyproject.toml.

The Alembic migrations and the reference data live at the top of the checkout (`migrations/`,
`data/`) and are mapped into the package at build time, as `twlookup.migrations` and
`twlookup/data/`, so that a wheel carries both. An editable install finds `twlookup.migrations`
through the same mapping and the data beside `src/` (see `twlookup.bundled`).
"""

from setuptools import find_namespace_packages, find_packages, setup

# data/ and its folders hold no Python: setuptools packages them as namespace packages so that
# every file in them is package data
DATA = ["twlookup.data", *(f"twlookup.data.{name}" for name in find_namespace_packages("data"))]

setup(
    package_dir={"": "src", "twlookup.migrations": "migrations", "twlookup.data": "data"},
    packages=[*find_packages("src"), "twlookup.migrations", "twlookup.migrations.versions", *DATA],
    package_data={
        "twlookup": ["py.typed"],
        "twlookup.migrations": ["script.py.mako"],
        **{name: ["*"] for name in DATA},
    },
)
