"""Reads for players and clubs, with the visibility rules in one place."""

import hashlib
from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import CharField, Count, F, Max, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Cast, Collate
from django.http import Http404

from shitenno_site.paging import LookaheadPage  # noqa: F401 (leagues' lists page with it too)

from . import standings as standings_maths
from .access import club_sees_inside, clubs_inside_q
from .models import (
    Club,
    League,
    Membership,
    Player,
    PlayerTally,
    Rating,
    RatingEvent,
    Result,
    ResultEntry,
    RivalTally,
    Season,
    Standing,
)


def club_members(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("player", "player__user").order_by("role", "player__name")


def club_member_rows(club: Club, *, for_manager: bool) -> QuerySet:
    """The club's members as its page lists them (role, then name): only what a row shows, the player's name and
    the role, without the accounts club_members joins: a page of 50 of 1,000 members cost twice a page of 10. A
    manager's rows (with their forms) are memberships; anyone else's are dicts of `player_id`, `player__name` and
    `role` (rows.member_rows), no objects made."""
    members = club.memberships.order_by("role", "player__name")
    if for_manager:
        return members.select_related("player").only("id", "club_id", "player_id", "role", "player__name")
    return members.values("player_id", "player__name", "role")


def clubs_list() -> QuerySet[Club]:
    return Club.objects.annotate(member_count=Count("memberships")).order_by("name")


def clubs_of_user(user: AbstractBaseUser) -> QuerySet[Club]:
    if not user.is_authenticated:
        return Club.objects.none()
    return Club.objects.filter(memberships__player__user=user).order_by("name")


def players_list(*, search: str = "") -> QuerySet[Player]:
    players = Player.objects.filter(merged_into__isnull=True).select_related("user")
    if search:
        players = players.filter(name__icontains=search)
    return players.order_by("name", "id")


# --- Leagues, ratings, standings and player stats (issue 5) ---




def leagues_list(*, viewer: AbstractBaseUser, club: Club | None = None) -> QuerySet[League]:
    """Leagues the viewer may see: a private club's only for its members."""
    leagues = League.objects.select_related("club").filter(clubs_inside_q(viewer))
    return leagues.filter(club=club) if club is not None else leagues.order_by("club__name", "name")


def league_for_viewer(*, pk, viewer: AbstractBaseUser) -> League:
    """404 for a league of a private club the viewer is not in, as for no league at all."""
    league = League.objects.select_related("club").filter(pk=pk).first()
    if league is None or not club_sees_inside(league.club, viewer):
        raise Http404("No such league, or its club is private.")
    return league


def season_for_viewer(*, pk, viewer: AbstractBaseUser) -> Season:
    season = Season.objects.select_related("league__club").filter(pk=pk).first()
    if season is None or not club_sees_inside(season.league.club, viewer):
        raise Http404("No such season, or its club is private.")
    return season


def season_current(league: League, *, on: date | None = None) -> Season | None:
    """The season running on the date, else the latest one."""
    seasons = league.seasons.order_by("-starts_on")
    if on is not None:
        running = seasons.filter(starts_on__lte=on, ends_on__gte=on).first()
        if running is not None:
            return running
    return seasons.first()


def standings_of(season: Season) -> list[Standing]:
    """The season's table in order, each row with its `position` and `separated_by` worked out from the keys."""
    rows = list(season.standings.select_related("player").order_by())
    for row in rows:
        row.sort_key = bytes(row.sort_key)  # PostgreSQL gives a memoryview
    # rows level on everything share a position; they are listed by name (docs: the organisers' page)
    rows.sort(key=lambda row: (row.sort_key, row.player.name.casefold(), row.player_id))
    return list(standings_maths.place(rows, season.tie_breakers))


def _table_order(season: Season) -> QuerySet[Standing]:
    """The season's rows in table order in SQL: by key (bytes compare alike in PostgreSQL and Python), then by
    the player's id as text, as standings_of sorts them."""
    player_text = Cast("player_id", output_field=CharField())
    if connection.vendor == "postgresql":
        player_text = Collate(player_text, "C")  # byte order, as Python compares str
    return season.standings.select_related("player").order_by("sort_key", player_text)


def standings_page(season: Season, *, page: str | int | None, per_page: int) -> Page:
    """One page of the season's table, each row with `position` and `separated_by` as standings_of gives them:
    worked out from the row above the page, whose own position is one more than the rows with a smaller key."""
    found = Paginator(_table_order(season), per_page).get_page(page)
    rows = list(found.object_list)
    for row in rows:
        row.sort_key = bytes(row.sort_key)
    tie_breakers = season.tie_breakers  # what is stored is what applies (points first unless placed)
    above = None
    if found.start_index() > 1:
        above = _table_order(season)[found.start_index() - 2]
        above.sort_key = bytes(above.sort_key)
    if above is None:
        standings_maths.place(rows, tie_breakers)
    else:
        standings_maths.place([above, *rows], tie_breakers)
        if above.position is not None:  # the rows level with the row above share its true position
            true = 1 + season.standings.filter(sort_key__lt=above.sort_key).count()
            offset = found.start_index() - 2
            for row in rows:
                if row.position is not None:
                    row.position = true if row.position == 1 else row.position + offset
    for index, row in enumerate(rows):
        row.first_in_table = above is None and index == 0
    found.object_list = rows
    return found


def results_recent(
    *, viewer: AbstractBaseUser, league: League | None = None, player: Player | None = None
) -> QuerySet[Result]:
    results = results_visible(viewer).prefetch_related("entries__player").select_related("season")
    if league is not None:
        results = results.filter(season__league=league)
    if player is not None:
        results = results.filter(entries__player=player)
    return results.order_by("-played_on", "-id")


def results_awaiting_sign_off(*, viewer: AbstractBaseUser, league: League) -> QuerySet[Result]:
    awaiting = results_recent(viewer=viewer, league=league).filter(
        status__in=[Result.Status.PENDING, Result.Status.DISPUTED])
    return awaiting.prefetch_related("sign_offs__player")  # the page reads who signed and who disputed


def last_played_in_scope() -> Subquery:
    """The day of a rating's latest game in its scope (for rust, leagues/rating_display.py): a subquery of the
    rating's own query, so reading it costs no query of its own."""
    return Subquery(RatingEvent.objects.filter(player=OuterRef("player_id"), kind=OuterRef("kind"),
                                               key=OuterRef("key")).order_by("-played_on").values("played_on")[:1])


def ratings_list(*, kind: str, key: str, min_games: int = 0, active_since: date | None = None) -> QuerySet[Rating]:
    """A scope's leaderboard, by the conservative estimate mu - 3 sigma, ordered in SQL (pages take a slice), each
    with the day of its latest game (`last_played`); only those who played on or after `active_since` when given."""
    ratings = (Rating.objects.filter(kind=kind, key=key, games__gte=min_games).select_related("player")
               .annotate(last_played=last_played_in_scope()))
    if active_since is not None:
        ratings = ratings.filter(last_played__gte=active_since)
    return ratings.order_by((F("mu") - 3 * F("sigma")).desc(), "player__name", "player_id")


def rating_scope_choices(*, viewer: AbstractBaseUser) -> list[tuple[str, str, str]]:
    """(kind, key, label) for the rankings filter: every registered game (by its name, rated or not yet), then
    every other scope with ratings the viewer may see (a private club's leagues only for its members)."""
    from games.plugins import all_games

    leagues = {str(league.pk): league for league in leagues_list(viewer=viewer)}
    choices = [("game", game.slug, game.name) for game in all_games()]
    seen = {(kind, key) for kind, key, _label in choices}
    for kind, key in Rating.objects.values_list("kind", "key").distinct().order_by("kind", "key"):
        if (kind, key) in seen:
            continue
        if kind == "game":
            choices.append((kind, key, key))
        elif key in leagues:
            choices.append((kind, key, str(leagues[key])))
    return choices


def rating_history(*, player: Player, kind: str, key: str, last: int | None = None) -> list[RatingEvent]:
    """The player's rating events in a scope, oldest first; only the `last` ones when asked (the page's chart)."""
    events = RatingEvent.objects.filter(player=player, kind=kind, key=key)
    if last is None:
        return list(events.order_by("played_on", "result_id"))
    return list(reversed(events.order_by("-played_on", "-result_id")[:last]))


def rating_values(*, player: Player, kind: str, key: str, last: int) -> list[tuple[float, float]]:
    """The player's rating (mu, sigma) before his `last`-th latest game in a scope and after each game since: the
    page's chart, read as four numbers a game."""
    events = list(RatingEvent.objects.filter(player=player, kind=kind, key=key)
                  .order_by("-played_on", "-result_id")
                  .values_list("mu_before", "sigma_before", "mu_after", "sigma_after")[:last])
    if not events:
        return []
    events.reverse()
    return [(events[0][0], events[0][1]), *((mu, sigma) for _mu, _sigma, mu, sigma in events)]


def recent_places(*, player: Player, viewer: AbstractBaseUser, last: int) -> list[tuple[int, int]]:
    """(place, players at the table) in the player's latest counted games the viewer may see, oldest first: one
    query of two numbers a game."""
    size = Subquery(ResultEntry.objects.filter(result=OuterRef("result")).order_by().values("result")
                    .annotate(n=Count("id")).values("n"))
    rows = list(ResultEntry.objects.filter(results_visible_q(viewer, prefix="result__"), player=player,
                                           result__status=Result.Status.COUNTED)
                .order_by("-result__played_on", "-result_id").annotate(size=size).values_list("rank", "size")[:last])
    rows.reverse()
    return rows


def games_not_ranked_publicly(*, player: Player, viewer: AbstractBaseUser) -> list[tuple[str, int]]:
    """(game, how many) of the player's counted games the viewer may see that stay out of the site-wide
    ratings although nothing else kept them out (no private club): one account alone signed them
    (`access.result_signed_publicly`). The player page says so, so that a missing public rating is no mystery."""
    rows = (ResultEntry.objects.filter(results_visible_q(viewer, prefix="result__"), player=player,
                                       result__status=Result.Status.COUNTED, result__ranked_publicly=False)
            .filter(Q(result__club__isnull=True) | Q(result__club__members_public=True))
            .order_by("result__game").values("result__game").annotate(n=Count("id")))
    return [(row["result__game"], row["n"]) for row in rows]


def _private_table_results(viewer: AbstractBaseUser) -> QuerySet[Result] | None:
    """Counted results of private tables the viewer may see: the part of a record the stored tallies leave out
    (who sees such a table depends on the viewer). None for a visitor, who sees none."""
    if not viewer.is_authenticated:
        return None
    return results_visible(viewer).filter(status=Result.Status.COUNTED, session__is_public=False)


def _tallies_seen(model, player: Player, viewer: AbstractBaseUser) -> QuerySet:
    """The player's stored tally rows (PlayerTally or RivalTally) of the clubs the viewer may look inside."""
    return model.objects.filter(clubs_inside_q(viewer), player=player)


_HEAD_TO_HEAD_ORDER = ("-decided", "name", "opponent")


def _head_to_head_live(player: Player, results: QuerySet[Result]) -> QuerySet:
    """Head-to-head rows of the player in some results, from the results themselves (one SQL aggregate): the
    opponents' entries joined with the player's own entry of the same result (the filter's join, which the
    aggregates reuse)."""
    mine = F("result__entries__rank")
    return (
        ResultEntry.objects.filter(result__entries__player=player, result__in=results).exclude(player=player)
        .values(opponent=F("player"))
        .annotate(won=Count("id", filter=Q(rank__gt=mine)), lost=Count("id", filter=Q(rank__lt=mine)),
                  name=Max("player__name"))
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
    private = _private_table_results(viewer)
    if private is None:
        return stored
    extra = list(_head_to_head_live(player, private))
    if not extra:
        return stored
    return head_to_head_merged(stored, extra)


def stored_head_to_head(player: Player, viewer: AbstractBaseUser) -> QuerySet:
    """The head-to-head rows of the stored tallies (RivalTally) of the clubs the viewer may see, in order: one SQL
    aggregate over the player's opponents."""
    return (
        _tallies_seen(RivalTally, player, viewer).values("opponent")
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


def _nemesis(rows) -> dict | None:
    """The opponent who finished ahead of the player most often (then the fewest games lost to him, then by name)."""
    if isinstance(rows, QuerySet):
        return rows.filter(lost__gt=0).order_by("-lost", "won", "name", "opponent").first()
    beaten_by = [row for row in rows if row["lost"] > 0]
    return min(beaten_by, key=lambda row: (-row["lost"], row["won"], row["name"], row["opponent"]), default=None)


def stored_record_rows(player: Player, viewer: AbstractBaseUser) -> list[dict]:
    """The player's stored record rows (PlayerTally: one per club and number of players at the table) of the clubs
    the viewer may see, with their ids: a few rows whatever his history. A recount rewrites all of a player's
    rows, so their ids also mark his stored head-to-head (leagues/player_page.py)."""
    return list(_tallies_seen(PlayerTally, player, viewer).order_by("id").values(
        "id", "game", "players", "games", "wins", "scored", "score_sum", "best"))


def _record_groups(player: Player, viewer: AbstractBaseUser, stored: list[dict] | None = None) -> list[dict]:
    """The player's record by game and number of players at the table: the stored tallies of the clubs the viewer
    may see (`stored`, read here unless given), summed over clubs, plus his games at private tables the viewer may
    see, from the results. Kept apart by game: one game's points and another's do not add up."""
    groups: dict[tuple[str, int], dict] = {}

    def add(game: str, size: int, row: dict) -> None:
        into = groups.setdefault((game, size), {"game": game, "size": size, "games": 0, "wins": 0, "scored": 0,
                                                "score_sum": 0, "best": None})
        for name in ("games", "wins", "scored", "score_sum"):
            into[name] += row[name] or 0
        if row["best"] is not None:
            into["best"] = row["best"] if into["best"] is None else max(into["best"], row["best"])

    for row in stored_record_rows(player, viewer) if stored is None else stored:
        add(row["game"], row["players"], row)
    private = _private_table_results(viewer)
    if private is not None:
        size = Subquery(ResultEntry.objects.filter(result=OuterRef("result")).order_by().values("result")
                        .annotate(n=Count("id")).values("n"))
        entries = ResultEntry.objects.filter(player=player, result__in=private)
        for row in (entries.annotate(size=size, game=F("result__game")).values("game", "size")
                    .annotate(games=Count("id"), wins=Count("id", filter=Q(rank=1)), scored=Count("score"),
                              score_sum=Sum("score"), best=Max("score")).order_by()):
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
    """The record's figures (_record_groups): games, wins, win rate by number of players, and per game its games,
    wins, average and best score in that game's unit. The top-level average and best are given only when every
    scored game was of one game: an average over two games' units means nothing."""
    by_size: dict[int, dict] = {}
    by_game: dict[str, dict] = {}
    game_sizes: dict[str, list[dict]] = {}  # each game's record by number of players (groups come sorted)
    for g in groups:
        game_sizes.setdefault(g["game"], []).append(
            {"players": g["size"], "games": g["games"], "wins": g["wins"],
             "win_rate": g["wins"] / g["games"] if g["games"] else 0})
        size = by_size.setdefault(g["size"], {"players": g["size"], "games": 0, "wins": 0})
        size["games"] += g["games"]
        size["wins"] += g["wins"]
        game = by_game.setdefault(g["game"], {"game": g["game"], "games": 0, "wins": 0, "scored": 0,
                                              "score_sum": 0, "best": None})
        for name in ("games", "wins", "scored", "score_sum"):
            game[name] += g[name] or 0
        if g["best"] is not None:
            game["best"] = g["best"] if game["best"] is None else max(game["best"], g["best"])
    games = []
    for game in sorted(by_game.values(), key=lambda row: (-row["games"], row["game"])):
        name, unit = _game_unit(game["game"])
        games.append({"game": game["game"], "name": name, "unit": unit, "games": game["games"],
                      "wins": game["wins"],
                      "average_score": game["score_sum"] / game["scored"] if game["scored"] else None,
                      "best_score": game["best"], "by_player_count": game_sizes[game["game"]]})
    scored = [game for game in games if game["average_score"] is not None]
    return {
        "games": sum(g["games"] for g in groups),
        "wins": sum(g["wins"] for g in groups),
        "by_player_count": [{**row, "win_rate": row["wins"] / row["games"]}
                            for _size, row in sorted(by_size.items())],
        "by_game": games,
        "average_score": scored[0]["average_score"] if len(scored) == 1 else None,
        "best_score": scored[0]["best_score"] if len(scored) == 1 else None,
    }


def game_sections(sections: list[tuple]) -> dict:
    """Each game's part of the player's statistics (_player_game_stats), by the game's slug and as the page's list."""
    return {
        **{game.slug: found for game, found in sections},  # stats[<slug>]: what its adapter's player_stats gave
        "game_sections": [{"game": game, "template": game.player_stats_template, "stats": found}
                          for game, found in sections],
    }


def player_stats(*, player: Player, viewer: AbstractBaseUser) -> dict:
    """Counted games the viewer may see: totals, win rate by player count, scores, every head-to-head record and
    the nemesis, from the stored tallies (leagues/tally_store.py) and SQL aggregates (the API's answer; the page
    reads the head-to-head a page at a time: leagues/player_page.py)."""
    rows = head_to_head_rows(player=player, viewer=viewer)
    nemesis = _nemesis(rows)
    return {
        **game_sections(_player_game_stats(player, viewer)),
        **record_summary(_record_groups(player, viewer)),
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


def _player_game_stats(player: Player, viewer: AbstractBaseUser) -> list[tuple]:
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


def results_visible_q(viewer: AbstractBaseUser, *, prefix: str = "") -> Q:
    """The condition on a result (reached by `prefix`, e.g. "result__") that the viewer may see it: no table or a
    table he may see (a plain condition on the joined table for a visitor), and a club he may look inside. A page
    that lists a few of a player's results uses it on its own join, so that PostgreSQL does not first gather
    every visible result of the site (results_visible as a subquery)."""
    from games.selectors import sessions_visible_q

    return ((Q(**{f"{prefix}session__isnull": True}) | sessions_visible_q(viewer, through=f"{prefix}session"))
            & clubs_inside_q(viewer, prefix=prefix))


def results_visible(viewer: AbstractBaseUser) -> QuerySet[Result]:
    """A result from a private table is seen only by those who may see the table, and a result of a private
    club only by its members, and always by its own players: a visitor seated at a club's table reads and signs
    off its result like the members beside him, or it could never count (issue 24)."""
    if not viewer.is_authenticated:
        return Result.objects.filter(results_visible_q(viewer))
    played = ResultEntry.objects.filter(player__user=viewer).values("result")
    return Result.objects.filter(results_visible_q(viewer) | Q(pk__in=played))
