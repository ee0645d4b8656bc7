"""Which ratings a table's win chances read (issue 50 finding 1): the league its result counts in, or its game's.
Asked by the table page (for_games.seats_rated) and by the finished table's result, which keeps the chances the
table showed (results.result_from_session), so both read one scope."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from leagues.club.seasons import season_for
from leagues.models import League, Player, Rating, Result
from leagues.rating import chances


@dataclass(frozen=True)
class TableScope:
    """The scope a table's chances read (issue 50 finding 1): the league its result counts in, or will count in
    when it ends (a night's league; else the club's season that would take it today), or the game's. `fallback`:
    the table counts in `league`, but nobody at it has a rating there yet, so its game's ratings are read."""

    kind: str
    key: str
    league: str = ""
    fallback: bool = False


def table_scope(session) -> TableScope:
    """Where the table's chances come from, the same before the game and after it (a finished table's "chances
    before" are read from the history rows of that scope). A table outside any club counts in no league: no
    query; a club's table, three or four small ones (its result's season, or `season_for`, and whether anyone
    seated has a rating in that league)."""
    game = TableScope("game", session.game)
    if session.club_id is None:
        return game
    counted_in = Result.objects.filter(session_id=session.pk).values_list("season__league_id", flat=True)
    if counted_in:
        league_id = counted_in[0]
    else:
        players = list(Player.objects.filter(seats__session_id=session.pk))
        season = season_for(
            club=session.club, game=session.game, played_on=timezone.localdate(), players=players, session_id=session.pk
        )
        league_id = season.league_id if season is not None else None
    if league_id is None:
        return game
    return _league_or_fallback(
        session.game,
        league_id,
        Rating.objects.filter(kind="league", key=str(league_id), player__seats__session_id=session.pk),
    )


def new_table_scope(*, club, game: str, players: list) -> TableScope:
    """The scope of a table not opened yet (the new-table page's chances, issue 50): the league its result would
    count in if it ended today (`season_for` of the chosen club with the seated players; a guest seat names
    nobody), else the game's: the same scope the table's own page will read once it is open."""
    if club is None:
        return TableScope("game", game)
    season = season_for(club=club, game=game, played_on=timezone.localdate(), players=players)
    if season is None:
        return TableScope("game", game)
    return _league_or_fallback(
        game,
        season.league_id,
        Rating.objects.filter(kind="league", key=str(season.league_id), player__in=[p.pk for p in players]),
    )


def _league_or_fallback(game: str, league_id: int, rated_there) -> TableScope:
    """The league's scope, or the game's with the league named when nobody seated has a rating there yet."""
    name = League.objects.values_list("name", flat=True).get(pk=league_id)
    if not rated_there.exists():
        return TableScope("game", game, league=name, fallback=True)
    return TableScope("league", str(league_id), league=name)


def chances_shown(session, players) -> dict[int, tuple[float, float]]:
    """Each player's chance to win and expected place as the table's page showed them when its game ended, in the
    scope its result counts in: kept on the result's entries (results.result_from_session), so the finished
    table's "chances before this game" are the ones its players saw (issue 50 finding 5: they were read again
    from the ratings of that day, up to 60 points from what the table had shown). Empty for a size the chances do
    not cover."""
    if not chances.MIN_PLAYERS <= len(players) <= chances.MAX_PLAYERS:
        return {}
    scope = table_scope(session)
    league_id = int(scope.key) if scope.kind == "league" else None
    seats = chances.table_chances(game=session.game, player_ids=[p.pk for p in players], league_id=league_id)
    return {seat.player_id: (seat.win, seat.expected_place) for seat in seats}
