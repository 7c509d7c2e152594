"""Put every paid route on sale in a store of a test's own, as a real import would: each feed a paid
route rests on gets a feed state with today's data, the sample rows of the tables it rests on
become real rows, and an empty table gets rows (opinions: the posts fixture; share: the three test
illustrations of tests/services/share/fixtures, stored as real rows). The tests that
pay for every route (x402 end to end, bazaar discovery) use it; the no-sale rule itself is tested
with genuine imports in tests/platform/test_no_sale.py."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import func, select, update

from twlookup.platform.schemas import today_taipei
from twlookup.platform.store import engine as store_engine
from twlookup.platform.store.feed_tables import FeedStateRow
from twlookup.platform.store.meta import bump_version
from twlookup.platform.store.reference import Reference
from twlookup.services import load_services

OPINION_POSTS = Path(__file__).parent / "services" / "opinions" / "fixtures" / "posts.yaml"
SHARE_FIXTURES = Path(__file__).parent / "services" / "share" / "fixtures" / "sample.yaml"


def _fill(session, table) -> None:
    """Rows standing for real ones in an empty table a paid route rests on."""
    from twlookup.services.opinions.data import import_posts
    from twlookup.services.opinions.tables import PostRow
    from twlookup.services.share.logic import links
    from twlookup.services.share.tables import ShareRow

    if table is PostRow:
        import_posts(session, OPINION_POSTS)
    elif table is ShareRow:
        from twlookup.platform.store.seed import load_yaml

        for item in load_yaml(SHARE_FIXTURES)["shares"]:
            link = links.canonical(item["url"])
            session.add(
                ShareRow(
                    key=link.key,
                    platform=link.platform,
                    url=link.url,
                    title=item["title"],
                    title_from="submitter",
                    description=item["description"],
                    category=item["category"],
                    votes=item["votes"],
                    comments=0,
                    clicks=item["clicks"],
                    published_at=item["published_at"].astimezone(UTC),
                    sample=False,
                )
            )
        session.flush()
    else:
        raise AssertionError(f"no rows to fill {table.__tablename__} with")


def put_on_sale(url: str) -> None:
    """Make every declared basis of every paid route real and fresh in the store at `url`."""
    from twlookup.platform.payments.sale import resolve_basis

    store_engine.configure(url)
    now = datetime.now(UTC)
    with store_engine.session() as session, session.begin():
        for service in load_services():
            for op in service.operations:
                if not op.rests_on:
                    continue
                feeds, tables = resolve_basis(service, op)
                for feed in feeds:
                    row = session.get(FeedStateRow, (feed.full_name, "test")) or FeedStateRow(
                        feed=feed.full_name, part="test"
                    )
                    row.data_date, row.last_success, row.last_import, row.last_attempt = today_taipei(), now, now, now
                    row.last_outcome = "imported"
                    session.add(row)
                for table in tables:
                    if hasattr(table, "sample"):
                        session.execute(update(table).values(sample=False))
                    if not session.scalar(select(func.count()).select_from(table)):
                        _fill(session, table)
        bump_version(session)
    Reference.reset_all()
