"""Store tables of the motion service, each derived from its record in records.py."""

from __future__ import annotations

from twlookup.platform.store.record_tables import record_table
from twlookup.services.motion.records import A11yRecord, EasingRecord, LibraryRecord, SupportRecord

EasingRow = record_table(EasingRecord, "motion_easing")
SupportRow = record_table(SupportRecord, "motion_support")
LibraryRow = record_table(LibraryRecord, "motion_library")
A11yRow = record_table(A11yRecord, "motion_a11y")
