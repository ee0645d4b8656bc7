"""Reading a league night (issue 25). `round_tables` is the one place a round's proposed tables are read, so
other features (win chances beside each table) can show them without knowing the models."""

from .models import Night, NightRound


def round_tables(night_round: NightRound) -> list[dict]:
    """The round's tables in order: {"position", "game", "players" (ids in seat order), "locked", "session"}."""
    return [{"position": t.position, "game": t.game, "players": list(t.players), "locked": t.locked,
             "session": t.session.code if t.session_id else None}
            for t in night_round.tables.select_related("session").order_by("position", "pk")]


def night_present(night: Night) -> list[int]:
    """The ids of the players checked in tonight who have not left."""
    return list(night.check_ins.filter(left_at__isnull=True).values_list("player_id", flat=True))
