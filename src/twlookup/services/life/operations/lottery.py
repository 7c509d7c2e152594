"""Taiwan Lottery: the latest draws, a game's draws and prize tiers, and checks of picks."""

from __future__ import annotations

from twlookup.domain.provenance import distinct_sources
from twlookup.platform.errors import InvalidParameter, NotFound, Problem
from twlookup.platform.records import as_answer
from twlookup.platform.schemas import Source, today_taipei
from twlookup.services.life.data import LIFE_DATA, games
from twlookup.services.life.logic import lottery as lottery_rules
from twlookup.services.life.operations.holidays import taiwan_calendar
from twlookup.services.life.operations.service import SERVICE
from twlookup.services.life.records import Draw, Game, GameFacts, Tier
from twlookup.services.life.schemas import (
    LOTTERY_DRAWS,
    DrawOut,
    GameDraws,
    GameInfo,
    GameQuery,
    LatestDraws,
    LotteryCheck,
    LotteryCheckQuery,
    TierOut,
)


def _tier(t: Tier) -> TierOut:
    return as_answer(t, TierOut, match=t.label, pari_mutuel=t.amount is None)


def _game_sources(g: Game) -> list[Source]:
    return [g.source_ref, g.cite(g.verified_by, "Report the prize tiers were checked against")]


def _game(g: Game) -> GameInfo:
    facts = g.model_dump(include=set(GameFacts.model_fields))
    return GameInfo(
        **facts, game=g.key, tiers=[_tier(t) for t in g.tiers], pool_rule=g.pool_rule, sources=_game_sources(g)
    )


def _draw(d: Draw) -> DrawOut:
    claim_until = lottery_rules.lottery_claim_until(d.draw_date, taiwan_calendar().is_day_off)
    return as_answer(d, DrawOut, claim_until=claim_until, sample=d.sample)


def _draws(game: str) -> list[Draw]:
    draws = LIFE_DATA.get().draws.get(game) or []
    if not draws:
        raise Problem(503, f"No {game} draws are in the store; run `twlookup ingest life.lottery FILE`.")
    return draws


def _lottery_stale(keys: list[str]) -> str | None:
    """Every game draws at least weekly: a newest draw over 7 days old means the importer has not run."""
    today, notes = today_taipei(), []
    for game in keys:
        newest = _draws(game)[0].draw_date
        if (today - newest).days > 7:
            notes.append(f"{game} {newest} ({(today - newest).days} days ago)")
    if not notes:
        return None
    return (
        "The newest draws in this store are old: " + ", ".join(notes) + ". Newer draws have not been imported, "
        "so `latest` here is not Taiwan Lottery's latest draw; check a ticket against its own draw."
    )


@SERVICE.operation("GET", "/api/lottery/latest")
def lottery_latest() -> LatestDraws:
    """The latest draw of lotto649, superlotto638 and daily539."""
    keys = list(games())
    draws = [_draw(_draws(g)[0]) for g in keys]
    return LatestDraws(
        draws=draws,
        claim_rule=lottery_rules.LOTTERY_CLAIM_RULE,
        stale_note=_lottery_stale(keys),
        sample=any(d.sample for d in draws),
        sources=distinct_sources([d.source for d in draws]),
    )


@SERVICE.operation("GET", "/api/lottery/{game}", tool="get_lottery_results")
def lottery_game(p: GameQuery) -> GameDraws:
    """The latest 20 draws of one game (lotto649, superlotto638 or daily539), newest first, with its prize tiers."""
    game = games()[p.game]
    draws = [_draw(d) for d in _draws(p.game)[:LOTTERY_DRAWS]]
    return GameDraws(
        game=_game(game),
        count=len(draws),
        limit=LOTTERY_DRAWS,
        draws=draws,
        claim_rule=lottery_rules.LOTTERY_CLAIM_RULE,
        stale_note=_lottery_stale([p.game]),
        sample=any(d.sample for d in draws),
        sources=distinct_sources([*_game_sources(game), *(d.source for d in draws)]),
    )


def _parse_numbers(text: str) -> list[int]:
    return [int(x) for x in text.replace(" ", "").split(",")]


@SERVICE.operation("GET", "/api/lottery/check", tool="check_lottery")
def lottery_check(p: LotteryCheckQuery) -> LotteryCheck:
    """Check picks against a draw (latest unless `period`): matched numbers and the prize tier.

    lotto649: 6 of 1-49; superlotto638: 6 of 1-38 plus `second` (1-8); daily539: 5 of 1-39.
    Counts, ranges and repeats are checked; fixed prizes give the NT$ amount, pari-mutuel tiers say so."""
    game = games()[p.game]
    numbers = _parse_numbers(p.numbers)
    problems = lottery_rules.validate_pick(game, numbers, p.second)
    if problems:
        name, _message = problems[0]
        allowed = (
            {"count": game.picks, "minimum": 1, "maximum": game.maximum}
            if name == "numbers"
            else ({"minimum": 1, "maximum": game.second_maximum} if game.second_maximum else None)
        )
        raise InvalidParameter(name, "; ".join(m for n, m in problems if n == name), allowed)
    draws = _draws(p.game)
    if p.period is None:
        draw = draws[0]
    else:
        found = next((d for d in draws if d.period == p.period), None)
        if found is None:
            raise NotFound(f"{p.game} draw", p.period, f"Draws in the store: {draws[-1].period} to {draws[0].period}.")
        draw = found
    result = lottery_rules.check_lottery(game, draw, numbers, p.second)
    tier = result.tier
    if tier is None:
        note = "No prize."
    elif tier.amount is None:
        note = f"{tier.name_zh}: a pari-mutuel tier; the amount per winning bet is the published share of this draw's pool."
    else:
        note = f"{tier.name_zh}: NT$ {tier.amount:,} per bet. {lottery_rules.LOTTERY_CLAIM_RULE}"
    return LotteryCheck(
        game=p.game,
        numbers=sorted(numbers),
        second=p.second,
        draw=_draw(draw),
        matched=list(result.matched),
        matched_count=len(result.matched),
        extra_matched=result.extra_matched,
        won=tier is not None,
        tier=_tier(tier) if tier else None,
        amount=tier.amount if tier else None,
        note=note,
        stale_note=_lottery_stale([p.game]) if p.period is None else None,
        sample=draw.sample,
        sources=distinct_sources(
            [
                draw.source_ref,
                *_game_sources(game),
            ]
        ),
    )
