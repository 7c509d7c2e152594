"""twlookup: twenty Taiwan-oriented lookup services in one ASGI process."""

__version__ = "0.1.0"
