"""The share service's operations. Public submissions (shares, votes, comments) go through the
platform's review (platform/review.py): they are public only once an operator approves them."""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import UTC, date, datetime
from typing import Any, TypeVar
from urllib.parse import quote

from anyio import to_thread
from sqlalchemy import func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from twlookup.platform import review
from twlookup.platform.errors import InvalidParameter, NotFound, Problem
from twlookup.platform.fetch import FetchFailed, FetchRefused, fetch
from twlookup.platform.records import as_answer
from twlookup.platform.request import current
from twlookup.platform.schemas import LazyModel, today_taipei
from twlookup.platform.service import Service
from twlookup.platform.store import engine as store_engine
from twlookup.services.share import logic
from twlookup.services.share.logic import links
from twlookup.services.share.records import Comment, Share
from twlookup.services.share.schemas import (
    ClickBody,
    ClickOut,
    CommentBody,
    CommentOut,
    Export,
    ExportItem,
    MarkdownPack,
    NewQuery,
    Ranked,
    Rankings,
    RankingsQuery,
    SearchQuery,
    ShareDetail,
    ShareList,
    ShareOut,
    ShareQuery,
    Stats,
    SubmitBody,
    Trend,
    TrendQuery,
    VoteBody,
)
from twlookup.services.share.tables import ClickRow, CommentRow, ShareRow

SERVICE = Service(
    name="share",
    title="台灣網友分享的影片與貼文排行",
    description=(
        "Rankings of videos and posts that Taiwan users share. A share holds only a link, title, the "
        "submitter's description and this site's counts; the video belongs to its author. New shares, "
        "votes and comments are public only after review. Free routes: 60 calls per IP per minute."
    ),
    solana=True,
)
review.operator_routes(SERVICE)
SEARCH_LIMIT = 50
RANKING_LIMIT = 50
TREND_LIMIT = 100
ShareT = TypeVar("ShareT", bound=ShareOut)


def now_utc() -> datetime:
    return datetime.now(UTC)


CONTRIBUTE = (
    "Shares come only from the public, and every one is reviewed before it is shown: submit a link with "
    'POST /share/api/shares {"url", "description", "category", "title"?} (YouTube, TikTok, Instagram, Facebook, X, '
    "Threads, Twitch, Vimeo, Dailymotion or bilibili); it waits as submitted until an operator approves it "
    "(POST /share/api/review/decide), then it is public and ranked. Votes (POST /share/api/vote) and comments "
    "(POST /share/api/comment) are reviewed the same way. The site writes no share, vote or comment itself."
)


def _empty_note(count: int, what: str) -> str | None:
    return None if count else f"{what} {CONTRIBUTE}"


# ------------------------------------------------------------------ review kinds


class SharePayload(LazyModel):
    key: str
    platform: str
    url: str
    title: str | None
    title_from: str
    description: str
    category: str


class VotePayload(LazyModel):
    share_id: int
    day: date


class CommentPayload(LazyModel):
    share_id: int
    body: str


def _publish_share(session: Session, sub: review.Submission, p: SharePayload) -> None:
    if session.scalar(select(ShareRow.id).where(ShareRow.key == p.key)) is not None:
        return  # the same link was published meanwhile: one video is one share
    session.add(ShareRow(**p.model_dump(), published_at=now_utc(), submission_id=sub.id))


def _publish_vote(session: Session, _sub: review.Submission, p: VotePayload) -> None:
    row = session.get(ShareRow, p.share_id)
    if row is not None:
        row.votes += 1


def _publish_comment(session: Session, sub: review.Submission, p: CommentPayload) -> None:
    row = session.get(ShareRow, p.share_id)
    if row is not None:
        row.comments += 1
        session.add(CommentRow(share_id=p.share_id, body=p.body, published_at=now_utc(), submission_id=sub.id))


review.register_kind(
    "share", "share", SharePayload, key=lambda p, _c, _n: p.key, subject=lambda p: p.key, on_approve=_publish_share
)
review.register_kind(
    "share",
    "vote",
    VotePayload,
    key=lambda p, client, _n: f"{p.share_id}:{client}:{p.day}",
    subject=lambda p: f"share/{p.share_id}",
    on_approve=_publish_vote,
)
review.register_kind(
    "share", "comment", CommentPayload, subject=lambda p: f"share/{p.share_id}", on_approve=_publish_comment
)


# ------------------------------------------------------------------ answers


def share_out(row: Any, answer: type[ShareT], **added: Any) -> ShareT:
    """A share row in an answer shape (ShareOut or one that adds to it)."""
    return as_answer(Share.model_validate(row), answer, published_at=_aware(row.published_at), **added)


def comment_out(row: Any) -> CommentOut:
    return as_answer(Comment.model_validate(row), CommentOut, published_at=_aware(row.published_at))


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _ranked(
    session: Session, period: logic.Period, now: datetime, platform: str | None, category: str | None, limit: int
) -> list[Ranked]:
    since = logic.window_start(period, now)
    query = select(ShareRow).where(ShareRow.published_at >= since, ShareRow.published_at <= now)
    if platform:
        query = query.where(ShareRow.platform == platform)
    if category:
        query = query.where(ShareRow.category == category)
    scored = [
        (logic.score(logic.Counts(r.votes, r.comments, r.clicks), _aware(r.published_at), now), r)
        for r in session.scalars(query)
    ]
    scored.sort(key=lambda sr: (-sr[0], -sr[1].id))
    return [share_out(r, Ranked, rank=i + 1, score=round(s, 6)) for i, (s, r) in enumerate(scored[:limit])]


def _share_list(rows: Iterable[Any], empty: str) -> ShareList:
    """Share rows as a list answer; `empty` says why when there are none."""
    shares = [share_out(r, ShareOut) for r in rows]
    return ShareList(
        count=len(shares), shares=shares, sample=any(s.sample for s in shares), note=_empty_note(len(shares), empty)
    )


def _share(session: Session, ident: int) -> Any:
    row = session.get(ShareRow, ident)
    if row is None:
        raise NotFound("share", str(ident), "Only approved shares are public; see /api/new.")
    return row


# ------------------------------------------------------------------ free routes


@SERVICE.operation("GET", "/api/rankings", tool="get_rankings", blocking=True)
def rankings(p: RankingsQuery) -> Rankings:
    """Shares of a period ranked by the time-decayed score (formula in the answer); top 50."""
    now = now_utc()
    with store_engine.session() as session:
        ranked = _ranked(session, p.period, now, p.platform, p.category, RANKING_LIMIT)
    return Rankings(
        as_of=now,
        period=p.period,
        since=logic.window_start(p.period, now),
        platform=p.platform,
        category=p.category,
        count=len(ranked),
        shares=ranked,
        sample=any(r.sample for r in ranked),
        note=_empty_note(len(ranked), "No public share was published in this period yet."),
    )


@SERVICE.operation("GET", "/api/new", tool="list_new_shares", blocking=True)
def new(p: NewQuery) -> ShareList:
    """The newest public shares, newest first."""
    with store_engine.session() as session:
        query = select(ShareRow).order_by(ShareRow.published_at.desc(), ShareRow.id.desc()).limit(p.limit)
        if p.platform:
            query = query.where(ShareRow.platform == p.platform)
        return _share_list(session.scalars(query), "No public share yet.")


@SERVICE.operation("GET", "/api/search", tool="search_shares", blocking=True)
def search(p: SearchQuery) -> ShareList:
    """Public shares whose title or description contains every word of q (at most 50, newest first)."""
    with store_engine.session() as session:
        query = select(ShareRow)
        for word in p.q.split()[:10]:
            pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            query = query.where(
                or_(ShareRow.title.ilike(pattern, escape="\\"), ShareRow.description.ilike(pattern, escape="\\"))
            )
        return _share_list(
            session.scalars(query.order_by(ShareRow.published_at.desc()).limit(SEARCH_LIMIT)),
            "No public share matches.",
        )


@SERVICE.operation("GET", "/api/shares/{id}", tool="get_share", blocking=True)
def get_share(p: ShareQuery) -> ShareDetail:
    """One public share with its public (approved) comments."""
    with store_engine.session() as session:
        row = _share(session, p.id)
        comments = session.scalars(select(CommentRow).where(CommentRow.share_id == row.id).order_by(CommentRow.id))
        return ShareDetail(share=share_out(row, ShareOut), comments=[comment_out(c) for c in comments])


@SERVICE.operation("GET", "/api/stats", tool="get_share_stats", blocking=True)
def stats() -> Stats:
    """Counts of public shares by platform and category, and the site's total engagement."""
    with store_engine.session() as session:
        rows = list(session.scalars(select(ShareRow)))
    waiting = review.counts("share")["submitted"]
    return Stats(
        as_of=now_utc(),
        shares=len(rows),
        by_platform=logic.distribution(r.platform for r in rows),
        by_category=logic.distribution(r.category for r in rows),
        votes=sum(r.votes for r in rows),
        comments=sum(r.comments for r in rows),
        clicks=sum(r.clicks for r in rows),
        waiting_for_review=waiting,
        sample=any(r.sample for r in rows),
        note=_empty_note(len(rows), "No share is public yet."),
    )


# ------------------------------------------------------------------ submissions (reviewed)


OEMBED_TIMEOUT_SECONDS = 5.0
OEMBED_MAX_BYTES = 65_536


async def oembed_title(link: links.Link) -> str | None:
    """The platform's own title for the link, from its oEmbed endpoint, fetched through the safe
    fetcher (bounded in time and size). None when the platform has no keyless oEmbed, or it does not
    answer with a title: the share is still submitted, with the submitter's title if any."""
    template = links.OEMBED.get(link.platform)
    if template is None:
        return None
    try:
        result = await fetch(
            template.format(url=quote(link.url, safe="")), max_bytes=OEMBED_MAX_BYTES, timeout=OEMBED_TIMEOUT_SECONDS
        )
    except (FetchFailed, FetchRefused):
        return None
    if result.status != 200:
        return None
    try:
        title = json.loads(result.body).get("title")
    except (ValueError, AttributeError):
        return None
    return title.strip()[:200] or None if isinstance(title, str) else None


def _existing_share(key: str) -> int | None:
    with store_engine.session() as session:
        return session.scalar(select(ShareRow.id).where(ShareRow.key == key))


@SERVICE.operation("POST", "/api/shares")
async def submit_share(p: SubmitBody) -> review.Receipt:
    """Submit a link to share: validated, canonicalised (one video is one share), titled from the
    platform's oEmbed where it has one, then waiting for review; public only once an operator approves it."""
    try:
        link = links.canonical(p.url)
    except ValueError as exc:
        raise InvalidParameter("url", str(exc), list(links.PLATFORMS)) from None
    existing = await to_thread.run_sync(_existing_share, link.key)
    if existing is not None:
        raise Problem(
            409, f"This link is already shared as share {existing}.", kind="duplicate-share", extra={"id": existing}
        )
    title = await oembed_title(link)
    payload = SharePayload(
        key=link.key,
        platform=link.platform,
        url=link.url,
        title=title or p.title,
        title_from="oembed" if title else ("submitter" if p.title else "none"),
        description=p.description,
        category=p.category,
    )
    return await to_thread.run_sync(review.submit, "share", "share", payload)


@SERVICE.operation("POST", "/api/vote", blocking=True)
def vote(p: VoteBody) -> review.Receipt:
    """Vote for a public share: one vote per client per share per day; counted once reviewed."""
    with store_engine.session() as session:
        _share(session, p.id)
    return review.submit("share", "vote", VotePayload(share_id=p.id, day=today_taipei()))


@SERVICE.operation("POST", "/api/comment", blocking=True)
def comment(p: CommentBody) -> review.Receipt:
    """Comment on a public share; the comment is public only once an operator approves it."""
    with store_engine.session() as session:
        _share(session, p.id)
    return review.submit("share", "comment", CommentPayload(share_id=p.id, body=p.body))


@SERVICE.operation("POST", "/api/click", blocking=True)
def click(p: ClickBody) -> ClickOut:
    """Count a click-through to a share's link (one per client per share per day; a count, not content)."""
    info = current()
    who, day = review.client_hash(info.client), today_taipei()
    with store_engine.session() as session, session.begin():
        row = _share(session, p.id)
        seen = session.scalar(
            select(ClickRow.id).where(ClickRow.share_id == p.id, ClickRow.client == who, ClickRow.day == day)
        )
        if seen is not None:
            return ClickOut(id=p.id, counted=False, clicks=row.clicks)
        session.add(ClickRow(share_id=p.id, client=who, day=day))
        try:
            session.flush()
        except IntegrityError:
            session.rollback()
            return ClickOut(id=p.id, counted=False, clicks=_share(session, p.id).clicks)
        row.clicks += 1
        return ClickOut(id=p.id, counted=True, clicks=row.clicks)


# ------------------------------------------------------------------ paid routes


@SERVICE.operation("GET", "/api/pro/trend", price="$0.02", blocking=True, rests_on=(ShareRow,))
def trend(p: TrendQuery) -> Trend:
    """Top 100 of a period by score, with how they spread over platforms and categories."""
    now = now_utc()
    with store_engine.session() as session:
        top = _ranked(session, p.period, now, None, None, TREND_LIMIT)
    return Trend(
        as_of=now,
        period=p.period,
        since=logic.window_start(p.period, now),
        count=len(top),
        top=top,
        platforms=logic.distribution(r.platform for r in top),
        categories=logic.distribution(r.category for r in top),
        sample=any(r.sample for r in top),
    )


def _export_items(session: Session) -> list[ExportItem]:
    comments: dict[int, list[CommentOut]] = {}
    for c in session.scalars(select(CommentRow).order_by(CommentRow.id)):
        comments.setdefault(c.share_id, []).append(comment_out(c))
    return [
        share_out(r, ExportItem, comment_list=comments.get(r.id, []))
        for r in session.scalars(select(ShareRow).order_by(ShareRow.id))
    ]


@SERVICE.operation("GET", "/api/pro/export", price="$0.05", rests_on=(ShareRow,))
def export() -> Export:
    """Every public share with its counts and public comments."""
    with store_engine.session() as session:
        items = _export_items(session)
    return Export(generated=now_utc(), count=len(items), shares=items, sample=any(i.sample for i in items))


@SERVICE.operation("GET", "/api/pro/pack", price="$0.3", rests_on=(ShareRow,))
def pack() -> MarkdownPack:
    """The whole public site as one Markdown document."""
    now = now_utc()
    with store_engine.session() as session:
        items = _export_items(session)
        total = session.scalar(select(func.count()).select_from(ShareRow)) or 0
    text = logic.markdown_pack([i.model_dump(mode="json") for i in items], now)
    return MarkdownPack(generated=now, count=total, markdown=text, sample=any(i.sample for i in items))
