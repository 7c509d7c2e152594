"""Pure rules of the health service, by subject: `rules` (the reference data parsed into rule
objects), `readings` (parsing what the client sent), `blood_pressure`, `glucose`, `screening` and
`meal`. No store, no network: every cut-off comes from the data.
"""
