"""Reads for players and clubs, with the visibility rules in one place."""

from collections import Counter, defaultdict
from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import Http404

from . import standings as standings_maths
from .access import club_sees_inside, clubs_inside_q
from .models import Club, League, Membership, Player, Rating, RatingEvent, Result, ResultEntry, Season, Standing


def club_members(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("player", "player__user").order_by("role", "player__name")


def club_members_visible(club: Club, user: AbstractBaseUser) -> bool:
    """Nobody outside a club sees a private members list."""
    if club.members_public or user.is_superuser:
        return True
    return user.is_authenticated and club.memberships.filter(player__user=user).exists()


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


def ratings_list(*, kind: str, key: str, min_games: int = 0) -> list[Rating]:
    """A scope's leaderboard, by the conservative estimate mu - 3 sigma."""
    ratings = Rating.objects.filter(kind=kind, key=key, games__gte=min_games).select_related("player")
    return sorted(ratings, key=lambda r: (-r.ordinal, r.player.name))


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


def rating_history(*, player: Player, kind: str, key: str) -> QuerySet[RatingEvent]:
    return RatingEvent.objects.filter(player=player, kind=kind, key=key).order_by("played_on", "result_id")


def player_stats(*, player: Player, viewer: AbstractBaseUser) -> dict:
    """Counted games the viewer may see: totals, win rate by player count, scores, head-to-head records and
    the nemesis."""
    entries = list(
        ResultEntry.objects.filter(player=player, result__status=Result.Status.COUNTED,
                                   result__in=results_visible(viewer))
        .select_related("result").prefetch_related(  # players joined, not fetched by id (SQLite caps a query's size)
            Prefetch("result__entries", queryset=ResultEntry.objects.select_related("player")))
    )
    by_count: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    ahead: Counter = Counter()
    behind: Counter = Counter()
    names: dict[int, Player] = {}
    scores = [e.score for e in entries if e.score is not None]
    for entry in entries:
        others = [o for o in entry.result.entries.all() if o.player_id != player.pk]
        count = len(others) + 1
        by_count[count][0] += 1
        by_count[count][1] += entry.rank == 1
        for other in others:
            names[other.player_id] = other.player
            if entry.rank < other.rank:
                ahead[other.player_id] += 1
            elif other.rank < entry.rank:
                behind[other.player_id] += 1
    head_to_head = sorted(
        ({"player": names[pid], "won": ahead[pid], "lost": behind[pid]} for pid in names),
        key=lambda row: (-(row["won"] + row["lost"]), row["player"].name),
    )
    nemesis = max(head_to_head, key=lambda row: (row["lost"], -row["won"]), default=None)
    sections = _player_game_stats(player, viewer)
    return {
        **{game.slug: found for game, found in sections},  # e.g. stats["shitenno"]["favourite_general"]
        "game_sections": [{"game": game, "template": game.player_stats_template, "stats": found}
                          for game, found in sections],
        "games": len(entries),
        "wins": sum(e.rank == 1 for e in entries),
        "by_player_count": [
            {"players": count, "games": g, "wins": w, "win_rate": w / g} for count, (g, w) in sorted(by_count.items())
        ],
        "average_score": sum(scores) / len(scores) if scores else None,
        "best_score": max(scores) if scores else None,
        "head_to_head": head_to_head,
        "nemesis": nemesis if nemesis and nemesis["lost"] else None,
    }


def _player_game_stats(player: Player, viewer: AbstractBaseUser) -> list[tuple]:
    """Each game's part of the player's page (e.g. Shitennō's favourite general), from the player's finished
    move-by-move tables of that game: (adapter, its statistics) for every game that has such a part."""
    from games.plugins import all_games
    from games.selectors import player_seats_finished

    return [
        (game, game.player_stats(player_seats_finished(player=player, game=game.slug, viewer=viewer)))
        for game in all_games() if game.player_stats_template
    ]


def results_visible(viewer: AbstractBaseUser) -> QuerySet[Result]:
    """A result from a private table is seen only by those who may see the table, and a result of a private
    club only by its members."""
    from games.selectors import sessions_visible

    return Result.objects.filter(Q(session__isnull=True) | Q(session__in=sessions_visible(viewer).values("pk")),
                                 clubs_inside_q(viewer))
