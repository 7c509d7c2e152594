"""The share service's seeding: the sample shares of data/share/sample.yaml (shipped empty)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from twlookup.platform.store.seed import load_yaml
from twlookup.services.share.logic import links
from twlookup.services.share.tables import CommentRow, ShareRow


def seed_share(session: Session, data_dir: Path) -> int:
    """Shares listed in data/share/sample.yaml (shipped empty: the site ships only what is real), stored with
    sample: true; sample rows no longer listed there are deleted; real shares are never touched."""
    doc = load_yaml(data_dir / "share" / "sample.yaml")
    wanted = {}
    for item in doc["shares"]:
        link = links.canonical(item["url"])
        wanted[link.key] = (link, item)
    for old in session.scalars(select(ShareRow).where(ShareRow.sample.is_(True))):
        if old.key not in wanted:
            session.query(CommentRow).filter(CommentRow.share_id == old.id).delete()
            session.delete(old)
    session.flush()
    for key, (link, item) in wanted.items():
        held = session.scalar(select(ShareRow).where(ShareRow.key == key))
        if held is not None and not held.sample:
            continue  # a real share of the same link wins
        row = held or ShareRow(key=key)
        row.platform, row.url, row.title, row.title_from = link.platform, link.url, item["title"], "sample"
        row.description, row.category = item.get("description"), item["category"]
        row.votes, row.comments, row.clicks = item["votes"], 0, item["clicks"]
        published = item["published_at"]
        if not isinstance(published, datetime) or published.tzinfo is None:
            raise ValueError(f"data/share/sample.yaml: {item['url']}: published_at needs a date, time and zone")
        row.published_at, row.sample = published.astimezone(UTC), True
        session.add(row)
    session.flush()
    return len(wanted)


# what `twlookup seed` runs for this service, in this order (twlookup.services.load_seeders)
SEEDERS = (seed_share,)
