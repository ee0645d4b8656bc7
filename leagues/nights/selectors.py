"""Reading a league night (issue 25). `round_tables` is the one place a round's proposed tables are read, so
other features (win chances beside each table) can show them without knowing the models."""

from leagues import standings as standings_maths
from leagues.models import Membership, Player, Result

from .models import Night, NightRound, NightTable


def round_tables(night_round: NightRound) -> list[dict]:
    """The round's tables in order: {"position", "game", "players" (ids in seat order), "locked", "session" (its
    code) and "finished" (whether its game has ended; False before it opens)}."""
    return [{"position": t.position, "game": t.game, "players": list(t.players), "locked": t.locked,
             "session": t.session.code if t.session_id else None,
             "finished": bool(t.session_id) and t.session.status == t.session.Status.FINISHED}
            for t in night_round.tables.select_related("session").order_by("position", "pk")]


def player_table(night: Night, player_id: int) -> dict | None:
    """Where a player sits in the night's latest opened round: {"round", "number" (the table's, from 1), "game",
    "session" (its code)}; None before the tables open, or when he sits out that round (a latecomer)."""
    latest = night.rounds.filter(opened_at__isnull=False).order_by("-number").first()
    if latest is None:
        return None
    for table in latest.tables.select_related("session").order_by("position", "pk"):
        if player_id in table.players and table.session_id:
            return {"round": latest.number, "number": table.position + 1, "game": table.game,
                    "session": table.session.code}
    return None


def night_accepts(night: Night) -> dict[int, set[str]]:
    """Player -> the games he plays tonight, for those checked in for one game only (the others play any)."""
    return {p: {game} for p, game in night.check_ins.exclude(only_game="").values_list("player_id", "only_game")}


def night_present(night: Night) -> list[int]:
    """The ids of the players checked in tonight who have not left."""
    return list(night.check_ins.filter(left_at__isnull=True).values_list("player_id", flat=True))


def night_sessions(night: Night) -> list[int]:
    """The table sessions opened for the night's rounds (their ids)."""
    return [pk for pk in NightTable.objects.filter(round__night=night, session__isnull=False)
            .values_list("session_id", flat=True)]


def night_standings(night: Night) -> dict:
    """The night's own table: its tables' counted (signed-off) results under the season's points scheme and
    tie-breakers, rows of {"player", "name", "position", "points" (as shown), "games", "wins"}; how many
    of tonight's results still wait for sign-offs.

    Computed from tonight's few results on each read (a dozen tables at most), so it follows every sign-off at
    once, without waiting for the season's stored table to be recomputed by its job."""
    season = night.season
    results = list(Result.objects.filter(session_id__in=night_sessions(night)).prefetch_related("entries"))
    counted = [r for r in results if r.status == Result.Status.COUNTED]
    games = [[(e.player_id, e.rank, e.score) for e in r.entries.all()] for r in counted]
    rows = standings_maths.table_of(games, scheme=season.points_scheme, custom=season.custom_points,
                                    tie_breakers=season.tie_breakers) if games else []
    names = dict(Player.objects.filter(pk__in=[row.player for row in rows]).values_list("pk", "name"))
    shown = [{"player": row.player, "name": names.get(row.player, "?"), "position": row.position,
              "points": standings_maths.points_text(row.points), "games": row.games, "wins": row.wins}
             for row in rows]
    return {"rows": shown, "counted": len(counted), "waiting": sum(r.status == Result.Status.PENDING for r in results)}


def night_players(night: Night) -> list[dict]:
    """The club's members for the organiser's list, by name: {"player", "present", "left", "only_game"}."""
    check_ins = {c.player_id: c for c in night.check_ins.all()}
    members = Membership.objects.filter(club=night.season.league.club).select_related("player").order_by(
        "player__name")
    return [{"player": m.player, "present": m.player_id in check_ins and check_ins[m.player_id].left_at is None,
             "left": m.player_id in check_ins and check_ins[m.player_id].left_at is not None,
             "only_game": check_ins[m.player_id].only_game if m.player_id in check_ins else ""}
            for m in members]
