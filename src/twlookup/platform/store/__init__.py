"""The SQL store: engine, declarative base with provenance, data version, seeding, migrations."""
