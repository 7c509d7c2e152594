"""The holiday service's declaration and its seeders; its operations are declared by subject in the
other modules of this package."""

from __future__ import annotations

from twlookup.platform.service import Service

SERVICE = Service(
    name="holiday",
    title="2027 long weekends and leave planner",
    description=(
        "Taiwan's 2027 days off and long weekends from the official government calendar, the best "
        "ways to spend leave days, destination holidays and peak seasons, crowd levels, when to book "
        "flights, and a ticket booking guide. Every answer names its sources."
    ),
)
