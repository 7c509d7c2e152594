"""Store tables of the opinions service, each derived from its record in records.py (`record_table`).

Some columns are stored wider than their record bounds them (a stance or community name in 20
characters, a post's body and a quote as text): `override` keeps them as they are stored."""

from __future__ import annotations

from sqlalchemy import DateTime, String, Text
from sqlalchemy.orm import mapped_column

from twlookup.platform.store.record_tables import record_table
from twlookup.services.opinions.records import Post, Thread, Topic

TopicRow = record_table(Topic, "opinions_topic", key="slug")
ThreadRow = record_table(
    Thread,
    "opinions_thread",
    override={
        "community": mapped_column(String(20), nullable=False),
        "stance": mapped_column(String(20), nullable=False),
        "created": mapped_column(DateTime, nullable=False),  # naive UTC (see Thread.created)
        "quote": mapped_column(Text, nullable=True),
    },
)
PostRow = record_table(
    Post,
    "opinions_post",
    index=("topic",),
    override={"body": mapped_column(Text, nullable=False), "stance": mapped_column(String(20), nullable=False)},
)
