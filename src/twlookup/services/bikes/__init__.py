"""bikes: classic two-stroke motorcycles: specs, parts, maintenance, sale prices (spec document 3, "bikes")."""
