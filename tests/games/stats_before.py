"""The three games' statistics as they were counted before the stored tallies (commit 7dfff28): every finished
table in Python at each read. Kept only so tests can check the additive counts give exactly the same figures."""

from collections import Counter

from games.engines.samurai_empires.board import ERAS
from games.engines.shitenno.board import GENERALS, TITLES
from games.engines.teikoku.rules import CLANS
from games.engines.teikoku.victory import TERMINATIONS
from games.plugins.samurai_empires.stats import NEVER, first_ahead
from games.plugins.shitenno.stats import FAVOUR_SOURCES, _generals
from games.plugins.teikoku.stats import seasons_played

# --- shitenno ---


def _rate_shitenno(plays: int, wins: int) -> dict:
    return {"plays": plays, "wins": wins, "win_rate": wins / plays if plays else 0.0}


def _tally_shitenno(keys, plays: Counter, wins: Counter) -> list[dict]:
    return [{"key": key, **_rate_shitenno(plays[key], wins[key])} for key in keys if plays[key]]


def game_stats_shitenno(rows) -> dict:
    """Win rates by general, starting title and seat; the winners' average favour; favour by source.

    A seat wins when it is ranked first. Favour sources are averaged over every seat played and over
    the winners' seats; `share` is each source's part of all favour scored.
    """
    tables = 0
    plays = {"general": Counter(), "title": Counter(), "seat": Counter()}
    wins = {"general": Counter(), "title": Counter(), "seat": Counter()}
    by_players: Counter = Counter()
    winning_scores: list[float] = []
    sources_all: Counter = Counter()
    sources_won: Counter = Counter()
    seats_played = seats_won = 0
    for row in rows:
        placings = (row.outcome or {}).get("placings") or []
        generals = _generals(row.setup)
        if not placings or len(generals) != len(placings):
            continue
        tables += 1
        titles = row.setup.get("titles") or {}
        breakdown = {b.get("seat"): b for b in (row.outcome.get("details") or {}).get("breakdown", [])}
        by_players[len(generals)] += 1
        for placing in placings:
            seat = placing["seat"]
            won = placing["rank"] == 1
            keys = {"general": generals[seat], "title": titles.get(generals[seat]), "seat": seat}
            for kind, key in keys.items():
                plays[kind][key] += 1
                wins[kind][key] += won
            parts = breakdown.get(seat, {})
            by_source = Counter({name: sum(parts.get(k, 0) for k in fields) for name, fields in FAVOUR_SOURCES.items()})
            seats_played += 1
            sources_all.update(by_source)
            if won:
                winning_scores.append(placing.get("score") or 0)
                seats_won += 1
                sources_won.update(by_source)
    total_favour = sum(sources_all.values())
    return {
        "tables": tables,
        "seats": seats_played,
        "by_players": [{"players": n, "tables": by_players[n]} for n in sorted(by_players)],
        "by_general": _tally_shitenno(GENERALS, plays["general"], wins["general"]),
        "by_title": _tally_shitenno(TITLES, plays["title"], wins["title"]),
        "by_seat": _tally_shitenno(sorted(plays["seat"]), plays["seat"], wins["seat"]),
        "average_winning_score": sum(winning_scores) / len(winning_scores) if winning_scores else None,
        "best_winning_score": max(winning_scores, default=None),
        "favour_sources": [
            {
                "source": name,
                "average": sources_all[name] / seats_played if seats_played else 0.0,
                "winners_average": sources_won[name] / seats_won if seats_won else 0.0,
                "share": sources_all[name] / total_favour if total_favour else 0.0,
            }
            for name in FAVOUR_SOURCES
        ],
    }


# --- teikoku ---


def _rates_teikoku(keys, plays: Counter, wins: Counter) -> list[dict]:
    return [
        {"key": key, "plays": plays[key], "wins": wins[key], "win_rate": wins[key] / plays[key]}
        for key in keys
        if plays[key]
    ]


def game_stats_teikoku(rows) -> dict:
    tables = 0
    plays = {"clan": Counter(), "seat": Counter()}
    wins = {"clan": Counter(), "seat": Counter()}
    victories: Counter = Counter()
    shared: Counter = Counter()
    lengths: list[int] = []
    by_players: Counter = Counter()
    for row in rows:
        outcome = row.outcome or {}
        placings = outcome.get("placings") or []
        clans = (row.setup or {}).get("clans") or []
        if not placings or len(clans) != len(placings):
            continue
        tables += 1
        by_players[len(clans)] += 1
        details = outcome.get("details") or {}
        termination = outcome.get("termination")
        victories[termination] += 1
        if details.get("shared"):
            shared[termination] += 1
        length = seasons_played(details)
        if length is not None:
            lengths.append(length)
        for placing in placings:
            seat = placing.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < len(clans):
                continue
            won = placing.get("rank") == 1
            for group, key in (("clan", clans[seat]), ("seat", seat)):
                plays[group][key] += 1
                wins[group][key] += won
    return {
        "tables": tables,
        "by_clan": _rates_teikoku(CLANS, plays["clan"], wins["clan"]),
        "by_seat": _rates_teikoku(sorted(plays["seat"]), plays["seat"], wins["seat"]),
        "victories": [
            {"kind": kind, "tables": victories[kind], "shared": shared[kind]}
            for kind in TERMINATIONS
            if victories[kind]
        ],
        "length": {
            "average": sum(lengths) / len(lengths) if lengths else None,
            "shortest": min(lengths, default=None),
            "longest": max(lengths, default=None),
            "histogram": sorted(Counter(lengths).items()),
        },
        "by_players": [{"players": n, "tables": by_players[n]} for n in sorted(by_players)],
    }


# --- samurai_empires ---


def _rate_se(plays: int, wins: int) -> dict:
    return {"plays": plays, "wins": wins, "win_rate": wins / plays if plays else 0.0}


def game_stats_samurai_empires(rows) -> dict:
    solo_plays = solo_wins = 0
    margins: list[int] = []
    era_plays: Counter = Counter()
    era_wins: Counter = Counter()
    tables = 0
    seat_plays: Counter = Counter()
    seat_wins: Counter = Counter()
    for row in rows:
        outcome = row.outcome or {}
        placings = outcome.get("placings") or []
        details = outcome.get("details") or {}
        if not placings:
            continue
        if outcome.get("termination") in ("solo_victory", "solo_defeat"):
            won = bool(details.get("won"))
            solo_plays += 1
            solo_wins += won
            margins.append(int(details.get("player", 0)) - int(details.get("ais", 0)))
            era = first_ahead(details.get("breakdown") or [])
            era_plays[era] += 1
            era_wins[era] += won
            continue
        tables += 1
        for placing in placings:
            seat_plays[placing["seat"]] += 1
            seat_wins[placing["seat"]] += placing["rank"] == 1
    return {
        "solo": {
            **_rate_se(solo_plays, solo_wins),
            "average_margin": sum(margins) / len(margins) if margins else None,
            "by_era": [
                {"era": e, **_rate_se(era_plays[e], era_wins[e])} for e in (*range(1, ERAS + 1), NEVER) if era_plays[e]
            ],
        },
        "multiplayer": {
            "tables": tables,
            "by_seat": [{"seat": s, **_rate_se(seat_plays[s], seat_wins[s])} for s in sorted(seat_plays)],
        },
        "tables": tables + solo_plays,
    }
