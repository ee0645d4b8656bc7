"""What a player's page reads: recent places, the games outside the public rankings, the head-to-head and the
nemesis, the record per game and player count, each game's own statistics. Apart from the league, club and rating
selectors (leagues/common/selectors.py); each call is one read."""

import hashlib

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.db.models import Count, F, Max, OuterRef, Q, QuerySet, Subquery, Sum

from leagues.common.access import clubs_inside_q
from leagues.common.selectors import results_visible, results_visible_q
from leagues.models import Player, PlayerTally, Result, ResultEntry, RivalTally
from shitenno_site.paging import LookaheadPage  # noqa: F401 (leagues' lists page with it too)


def recent_places(*, player: Player, viewer: AbstractBaseUser, last: int) -> list[tuple[int, int]]:
    """(place, players at the table) in the player's latest counted games the viewer may see, oldest first: one
    query of two numbers a game."""
    size = Subquery(
        ResultEntry.objects.filter(result=OuterRef("result"))
        .order_by()
        .values("result")
        .annotate(n=Count("id"))
        .values("n")
    )
    rows = list(
        ResultEntry.objects.filter(
            results_visible_q(viewer, prefix="result__"), player=player, result__status=Result.Status.COUNTED
        )
        .order_by("-result__played_on", "-result_id")
        .annotate(size=size)
        .values_list("rank", "size")[:last]
    )
    rows.reverse()
    return rows


def games_not_ranked_publicly(*, player: Player, viewer: AbstractBaseUser) -> list[tuple[str, int]]:
    """(game, how many) of the player's counted games the viewer may see that stay out of the site-wide
    ratings although nothing else kept them out (no private club): one account alone signed them
    (`access.result_signed_publicly`). The player page says so, so that a missing public rating is no mystery."""
    rows = (
        ResultEntry.objects.filter(
            results_visible_q(viewer, prefix="result__"),
            player=player,
            result__status=Result.Status.COUNTED,
            result__ranked_publicly=False,
        )
        .filter(Q(result__club__isnull=True) | Q(result__club__members_public=True))
        .order_by("result__game")
        .values("result__game")
        .annotate(n=Count("id"))
    )
    return [(row["result__game"], row["n"]) for row in rows]


def private_table_results(viewer: AbstractBaseUser) -> QuerySet[Result] | None:
    """Counted results of private tables the viewer may see: the part of a record the stored tallies leave out
    (who sees such a table depends on the viewer). None for a visitor, who sees none."""
    if not viewer.is_authenticated:
        return None
    return results_visible(viewer).filter(status=Result.Status.COUNTED, session__is_public=False)


def _tallies_seen(model, player: Player, viewer: AbstractBaseUser) -> QuerySet:
    """The player's stored tally rows (PlayerTally or RivalTally) of the clubs the viewer may look inside."""
    return model.objects.filter(clubs_inside_q(viewer), player=player)


_HEAD_TO_HEAD_ORDER = ("-decided", "name", "opponent")


def head_to_head_live(player: Player, results: QuerySet[Result]) -> QuerySet:
    """Head-to-head rows of the player in some results, from the results themselves (one SQL aggregate): the
    opponents' entries joined with the player's own entry of the same result (the filter's join, which the
    aggregates reuse)."""
    mine = F("result__entries__rank")
    return (
        ResultEntry.objects.filter(result__entries__player=player, result__in=results)
        .exclude(player=player)
        .values(opponent=F("player"))
        .annotate(
            won=Count("id", filter=Q(rank__gt=mine)),
            lost=Count("id", filter=Q(rank__lt=mine)),
            name=Max("player__name"),
        )
        .annotate(decided=F("won") + F("lost"))
        .order_by(*_HEAD_TO_HEAD_ORDER)
    )


def head_to_head_rows(*, player: Player, viewer: AbstractBaseUser) -> QuerySet | list[dict]:
    """Each opponent of the player in counted games the viewer may see, as dicts: `opponent` (id), `name`, `won`
    (games the player finished ahead of him), `lost` (behind him), `decided`; most games decided between them
    first. From the stored tallies (RivalTally) of the clubs the viewer may see: one SQL aggregate over the
    player's opponents, paged in SQL. Games at private tables the viewer may see are added from the results, and
    then the list is merged in Python (only for a viewer who shares such tables with the player)."""
    stored = stored_head_to_head(player, viewer)
    private = private_table_results(viewer)
    if private is None:
        return stored
    extra = list(head_to_head_live(player, private))
    if not extra:
        return stored
    return head_to_head_merged(stored, extra)


def stored_head_to_head(player: Player, viewer: AbstractBaseUser) -> QuerySet:
    """The head-to-head rows of the stored tallies (RivalTally) of the clubs the viewer may see, in order: one SQL
    aggregate over the player's opponents."""
    return (
        _tallies_seen(RivalTally, player, viewer)
        .values("opponent")
        .annotate(won=Sum("won"), lost=Sum("lost"), name=Max("opponent__name"))
        .annotate(decided=F("won") + F("lost"))
        .order_by(*_HEAD_TO_HEAD_ORDER)
    )


def head_to_head_merged(stored, extra: list[dict]) -> list[dict]:
    """The stored rows with those counted live at private tables (`extra`) added in, in the same order."""
    merged = {row["opponent"]: dict(row) for row in stored}
    for row in extra:
        into = merged.setdefault(row["opponent"], {**row, "won": 0, "lost": 0})
        into["won"] += row["won"]
        into["lost"] += row["lost"]
    rows = list(merged.values())
    for row in rows:
        row["decided"] = row["won"] + row["lost"]
    return sorted(rows, key=lambda row: (-row["decided"], row["name"], row["opponent"]))


def head_to_head_of(rows) -> list[dict]:
    """Rows of head_to_head_rows as the page and the API show them: {player, won, lost}."""
    rows = list(rows)
    players = Player.objects.in_bulk([row["opponent"] for row in rows])
    return [{"player": players[row["opponent"]], "won": row["won"], "lost": row["lost"]} for row in rows]


def nemesis_of(rows) -> dict | None:
    """The opponent who finished ahead of the player most often (then the fewest games lost to him, then by name)."""
    if isinstance(rows, QuerySet):
        return rows.filter(lost__gt=0).order_by("-lost", "won", "name", "opponent").first()
    beaten_by = [row for row in rows if row["lost"] > 0]
    return min(beaten_by, key=lambda row: (-row["lost"], row["won"], row["name"], row["opponent"]), default=None)


def stored_record_rows(player: Player, viewer: AbstractBaseUser) -> list[dict]:
    """The player's stored record rows (PlayerTally: one per club and number of players at the table) of the clubs
    the viewer may see, with their ids: a few rows whatever his history. A recount rewrites all of a player's
    rows, so their ids also mark his stored head-to-head (leagues/people/player_page.py)."""
    return list(
        _tallies_seen(PlayerTally, player, viewer)
        .order_by("id")
        .values("id", "game", "players", "games", "wins", "scored", "score_sum", "best")
    )


def record_groups(player: Player, viewer: AbstractBaseUser, stored: list[dict] | None = None) -> list[dict]:
    """The player's record by game and number of players at the table: the stored tallies of the clubs the viewer
    may see (`stored`, read here unless given), summed over clubs, plus his games at private tables the viewer may
    see, from the results. Kept apart by game: one game's points and another's do not add up."""
    groups: dict[tuple[str, int], dict] = {}

    def add(game: str, size: int, row: dict) -> None:
        into = groups.setdefault(
            (game, size), {"game": game, "size": size, "games": 0, "wins": 0, "scored": 0, "score_sum": 0, "best": None}
        )
        for name in ("games", "wins", "scored", "score_sum"):
            into[name] += row[name] or 0
        if row["best"] is not None:
            into["best"] = row["best"] if into["best"] is None else max(into["best"], row["best"])

    for row in stored_record_rows(player, viewer) if stored is None else stored:
        add(row["game"], row["players"], row)
    private = private_table_results(viewer)
    if private is not None:
        size = Subquery(
            ResultEntry.objects.filter(result=OuterRef("result"))
            .order_by()
            .values("result")
            .annotate(n=Count("id"))
            .values("n")
        )
        entries = ResultEntry.objects.filter(player=player, result__in=private)
        for row in (
            entries.annotate(size=size, game=F("result__game"))
            .values("game", "size")
            .annotate(
                games=Count("id"),
                wins=Count("id", filter=Q(rank=1)),
                scored=Count("score"),
                score_sum=Sum("score"),
                best=Max("score"),
            )
            .order_by()
        ):
            add(row["game"], row["size"], row)
    return [groups[key] for key in sorted(groups)]


def _game_unit(slug: str) -> tuple[str, str]:
    """The game's name and score unit in the reader's language (the slug alone for a game no longer installed)."""
    from games.engines import UnknownGame
    from games.plugins import get_game

    try:
        game = get_game(slug)
    except (UnknownGame, KeyError):
        return slug, ""
    return str(game.name), str(game.score_unit)


def record_summary(groups: list[dict]) -> dict:
    """The record's figures (record_groups): games, wins, win rate by number of players, and per game its games,
    wins, average and best score in that game's unit. The top-level average and best are given only when every
    scored game was of one game: an average over two games' units means nothing."""
    by_size: dict[int, dict] = {}
    by_game: dict[str, dict] = {}
    game_sizes: dict[str, list[dict]] = {}  # each game's record by number of players (groups come sorted)
    for g in groups:
        game_sizes.setdefault(g["game"], []).append(
            {
                "players": g["size"],
                "games": g["games"],
                "wins": g["wins"],
                "win_rate": g["wins"] / g["games"] if g["games"] else 0,
            }
        )
        size = by_size.setdefault(g["size"], {"players": g["size"], "games": 0, "wins": 0})
        size["games"] += g["games"]
        size["wins"] += g["wins"]
        game = by_game.setdefault(
            g["game"], {"game": g["game"], "games": 0, "wins": 0, "scored": 0, "score_sum": 0, "best": None}
        )
        for name in ("games", "wins", "scored", "score_sum"):
            game[name] += g[name] or 0
        if g["best"] is not None:
            game["best"] = g["best"] if game["best"] is None else max(game["best"], g["best"])
    games = []
    for game in sorted(by_game.values(), key=lambda row: (-row["games"], row["game"])):
        name, unit = _game_unit(game["game"])
        games.append(
            {
                "game": game["game"],
                "name": name,
                "unit": unit,
                "games": game["games"],
                "wins": game["wins"],
                "average_score": game["score_sum"] / game["scored"] if game["scored"] else None,
                "best_score": game["best"],
                "by_player_count": game_sizes[game["game"]],
            }
        )
    scored = [game for game in games if game["average_score"] is not None]
    return {
        "games": sum(g["games"] for g in groups),
        "wins": sum(g["wins"] for g in groups),
        "by_player_count": [{**row, "win_rate": row["wins"] / row["games"]} for _size, row in sorted(by_size.items())],
        "by_game": games,
        "average_score": scored[0]["average_score"] if len(scored) == 1 else None,
        "best_score": scored[0]["best_score"] if len(scored) == 1 else None,
    }


def game_sections(sections: list[tuple]) -> dict:
    """Each game's part of the player's statistics (player_game_stats), by the game's slug and as the page's list."""
    return {
        **{game.slug: found for game, found in sections},  # stats[<slug>]: what its adapter's player_stats gave
        "game_sections": [
            {"game": game, "template": game.player_stats_template, "stats": found} for game, found in sections
        ],
    }


def player_stats(*, player: Player, viewer: AbstractBaseUser) -> dict:
    """Counted games the viewer may see: totals, win rate by player count, scores, every head-to-head record and
    the nemesis, from the stored tallies (leagues/standings/tally.py) and SQL aggregates (the API's answer; the page
    reads the head-to-head a page at a time: leagues/people/player_page.py)."""
    rows = head_to_head_rows(player=player, viewer=viewer)
    nemesis = nemesis_of(rows)
    return {
        **game_sections(player_game_stats(player, viewer)),
        **record_summary(record_groups(player, viewer)),
        "head_to_head": head_to_head_of(rows),
        "nemesis": head_to_head_of([nemesis])[0] if nemesis else None,
    }


PLAYER_GAME_STATS_SECONDS = 24 * 3600


def _stamp(moment) -> float:
    return moment.timestamp() if moment else 0.0


def _seen_tables_marks(seen: QuerySet, player: Player) -> dict[str, str]:
    """Per game, a mark of exactly which finished tables the viewer sees at the player's seats, and of their
    latest change: a digest of the tables' ids, and the latest updated_at among them. Two different sets of tables
    give two different digests (a count, a sum of ids and the latest change, the mark before, did not: {1, 4, 5}
    and {2, 3, 5} shared it). A change to one of the tables (one that finishes again after an undo) stamps it with
    the time of that change, later than every other one's, so the latest change moves. The player's creation is
    in it too: ids start again in a database made anew, a shared cache may not.

    Two queries of ints and one timestamp a game: reading each table's own updated_at instead cost 3-5x the old
    aggregate at 1,000 tables (converting a thousand timestamps); the ids alone cost about as much as it."""
    digests: dict[str, hashlib.blake2b] = {}
    for game, session_id in seen.values_list("session__game", "session_id").order_by("session_id"):
        digest = digests.get(game)
        if digest is None:
            digest = digests[game] = hashlib.blake2b(digest_size=16)
        digest.update(b"%d;" % session_id)
    latest = dict(seen.values_list("session__game").annotate(last=Max("session__updated_at")).order_by())
    created = _stamp(player.created_at)
    return {game: f"{created}:{_stamp(latest.get(game))}:{digest.hexdigest()}" for game, digest in digests.items()}


def player_game_stats(player: Player, viewer: AbstractBaseUser) -> list[tuple]:
    """Each game's part of the player's page (e.g. Shitennō's favourite general), from the player's finished
    move-by-move tables of that game: (adapter, its statistics) for every game that has such a part.

    The game's own count runs over the seats' set-ups in Python, so it is kept in the cache under a digest of the
    tables the viewer may see and of their latest change (_seen_tables_marks): a finished table, one reopened by
    an undo or one that comes into or out of the viewer's sight changes it, and no other set of tables shares it.
    Each page view costs two queries for all the games at once (the seen tables' ids, their latest change) and one
    cache read; only the first view after a change counts the seats."""
    from games.plugins import all_games
    from games.selectors import player_seats_finished

    games = [game for game in all_games() if game.player_stats_template]
    if not games:
        return []
    seen = player_seats_finished(player=player, game=[game.slug for game in games], viewer=viewer)
    marks = _seen_tables_marks(seen, player)
    names = {game.slug: f"player-game-stats:{game.slug}:{player.pk}:{marks.get(game.slug, 'none')}" for game in games}
    kept = cache.get_many(list(names.values()))
    sections = []
    for game in games:
        found = kept.get(names[game.slug])
        if found is None:
            found = game.player_stats(player_seats_finished(player=player, game=game.slug, viewer=viewer))
            cache.set(names[game.slug], found, PLAYER_GAME_STATS_SECONDS)
        sections.append((game, found))
    return sections
