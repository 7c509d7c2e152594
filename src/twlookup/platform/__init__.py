"""Shared machinery for all services. Knows no service: nothing here imports twlookup.services."""
