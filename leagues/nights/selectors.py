"""Reading a league night (issue 25). `round_tables` is the one place a round's proposed tables are read, so
other features (win chances beside each table) can show them without knowing the models.

A night table's state is read here and nowhere else: an opened table is finished when it has a result
(`night_results`: its session's own, or one entered by hand that covers it), so the organiser's screen, the API,
the night's standings and its notification agree however the result was entered."""

import datetime
from collections.abc import Iterable

from django.db.models import Q

from leagues import standings as standings_maths
from leagues.common.access import hand_entry_settles_q
from leagues.models import Membership, Player, Result

from .models import Night, NightRound, NightTable

NIGHT_SPAN = datetime.timedelta(days=1)  # a night goes past midnight: its games are played on its date or the next


def round_tables(night_round: NightRound) -> list[dict]:
    """The round's tables in order: {"position", "game", "players" (ids in seat order), "locked", "session" (its
    code) and "finished" (whether its game has ended, on the phones or by a result entered for it: `night_results`;
    False before it opens)}."""
    tables = list(night_round.tables.select_related("session").order_by("position", "pk"))
    with_result = set(night_results(night_round.night)) if night_round.opened_at else set()
    return [
        {
            "position": t.position,
            "game": t.game,
            "players": list(t.players),
            "locked": t.locked,
            "session": t.session.code if t.session_id else None,
            "finished": bool(t.session_id) and (t.session.status == t.session.Status.FINISHED or t.pk in with_result),
        }
        for t in tables
    ]


def night_results(night: Night) -> dict[int, Result]:
    """Each opened night table's result, by the table's id (a table still playing has none).

    Its session's own result when the game was played to its end on the phones; else a result entered by hand
    (the league page, the API: no session) that covers it: the table's game and exactly its players, in the
    night's season, played on the night's date or the next, entered after the table opened, and either entered
    by an organiser (an owner or admin of the club) or signed by every player (`access.hand_entry_settles_q`). A
    club that finishes a game on paper, or whose phone died, records it that way and expects the table done; a
    member's pending entry does not shut a table others still play (issue 47 finding 6). One result covers one
    table (the earliest still open, rounds in order); deleting it, or a player disputing it before it counts,
    puts the table back in play (a dispute after it counts flags it and it stays the table's)."""
    tables = list(
        NightTable.objects.filter(round__night=night, session__isnull=False)
        .select_related("round")
        .order_by("round__number", "position", "pk")
    )
    if not tables:
        return {}
    own = {
        r.session_id: r
        for r in Result.objects.filter(session_id__in=[t.session_id for t in tables]).prefetch_related("entries")
    }
    still_open = [t for t in tables if t.session_id not in own]
    by_hand = (
        list(
            Result.objects.filter(
                hand_entry_settles_q(),
                season=night.season,
                session__isnull=True,
                game__in={t.game for t in still_open},
                played_on__range=(night.date, night.date + NIGHT_SPAN),
                created_at__gte=min(t.round.opened_at for t in still_open),
            )
            .prefetch_related("entries")
            .order_by("created_at", "pk")
        )
        if still_open
        else []
    )
    return _tables_results(tables, own, by_hand)


def _tables_results(tables: list[NightTable], own: dict[int, Result], by_hand: list[Result]) -> dict[int, Result]:
    """`night_results` of one night's tables (rounds in order), given the results of their own sessions (by the
    session's id) and the night's season's results entered by hand played on its date or the next (oldest
    first): each hand result covers the earliest table still open with its game and exactly its players."""
    found = {t.pk: own[t.session_id] for t in tables if t.session_id in own}
    by_hand = list(by_hand)
    for table in (t for t in tables if t.pk not in found):
        covering = next(
            (
                r
                for r in by_hand
                if r.game == table.game
                and r.created_at >= table.round.opened_at
                and {e.player_id for e in r.entries.all()} == set(table.players)
            ),
            None,
        )
        if covering is not None:
            found[table.pk] = covering
            by_hand.remove(covering)
    return found


def sessions_settled_by_hand(session_ids: Iterable[int]) -> set[int]:
    """Which of these sessions are night tables finished by a result entered by hand (`hand_result_of_session`,
    for a whole list of tables at once: the club's and a player's lists say "finished" for them). Four queries
    however many tables and nights (their nights' tables, those tables' own results, the hand results of those
    nights' seasons and dates, and their entries); one when none of them is a night's table."""
    asked = set(session_ids)
    if not asked:
        return set()
    nights = NightTable.objects.filter(session_id__in=asked, round__opened_at__isnull=False).values("round__night")
    tables = list(
        NightTable.objects.filter(round__night__in=nights, session__isnull=False)
        .select_related("round__night")
        .order_by("round__night", "round__number", "position", "pk")
    )
    if not tables:
        return set()
    own = {r.session_id: r for r in Result.objects.filter(session_id__in=[t.session_id for t in tables])}
    by_night: dict[int, list[NightTable]] = {}
    for table in tables:
        by_night.setdefault(table.round.night_id, []).append(table)
    spans = Q()
    for night_tables in by_night.values():
        night = night_tables[0].round.night
        spans |= Q(season_id=night.season_id, played_on__range=(night.date, night.date + NIGHT_SPAN))
    hand = list(
        Result.objects.filter(spans, hand_entry_settles_q(), session__isnull=True)
        .prefetch_related("entries")
        .order_by("created_at", "pk")
    )
    settled = set()
    for night_tables in by_night.values():
        night = night_tables[0].round.night
        found = _tables_results(
            night_tables,
            own,
            [
                r
                for r in hand
                if r.season_id == night.season_id and night.date <= r.played_on <= night.date + NIGHT_SPAN
            ],
        )
        settled |= {
            t.session_id
            for t in night_tables
            if t.session_id in asked
            and t.round.opened_at is not None
            and t.pk in found
            and found[t.pk].session_id is None
        }
    return settled


def hand_result_of_session(session_id: int) -> Result | None:
    """The result entered by hand that finished the night table played at this session (`night_results`), or None
    (not a night's table, or its result is its session's own, or none yet).

    When its players then finish the game on the phones too, that hand result stays the table's one result: the
    phones make no second one (for_games), and the table page shows the hand one (table_result)."""
    table = (
        NightTable.objects.filter(session_id=session_id, round__opened_at__isnull=False)
        .select_related("round__night")
        .first()
    )
    if table is None:
        return None
    result = night_results(table.round.night).get(table.pk)
    return result if result is not None and result.session_id is None else None


def night_of_result(result: Result) -> Night | None:
    """The night one of whose tables `result` finished (`night_results`: its session's, or a game entered by hand
    that covers a table), or None."""
    if result.session_id:
        table = (
            NightTable.objects.filter(session_id=result.session_id)
            .select_related("round__night__season__league__club")
            .first()
        )
        return table.round.night if table else None
    if not result.season_id:
        return None
    nights = Night.objects.filter(
        season_id=result.season_id,
        rounds__opened_at__isnull=False,
        date__range=(result.played_on - NIGHT_SPAN, result.played_on),
    ).distinct()
    for night in nights.select_related("season__league__club").order_by("date", "pk"):
        if any(r.pk == result.pk for r in night_results(night).values()):
            return night
    return None


def sessions_around(season_id: int, dates: Iterable[datetime.date]) -> list[int]:
    """The sessions of the season's opened night tables that a result played on one of `dates` may settle or
    unsettle (`night_results`: a night's game is played on its date or the next): a hand entry's change shows on
    their pages (leagues.result.results tells games)."""
    nights = {date - offset for date in dates for offset in (datetime.timedelta(0), NIGHT_SPAN)}
    return list(
        NightTable.objects.filter(
            round__night__season_id=season_id,
            round__night__date__in=nights,
            round__opened_at__isnull=False,
            session__isnull=False,
        ).values_list("session_id", flat=True)
    )


def player_table(night: Night, player_id: int) -> dict | None:
    """Where a player sits in the night's latest opened round: {"round", "number" (the table's, from 1), "game",
    "session" (its code)}; None before the tables open, or when he sits out that round (a latecomer)."""
    latest = night.rounds.filter(opened_at__isnull=False).order_by("-number").first()
    if latest is None:
        return None
    for table in latest.tables.select_related("session").order_by("position", "pk"):
        if player_id in table.players and table.session_id:
            return {
                "round": latest.number,
                "number": table.position + 1,
                "game": table.game,
                "session": table.session.code,
            }
    return None


def night_accepts(night: Night) -> dict[int, set[str]]:
    """Player -> the games he plays tonight, for those checked in for one game only (the others play any)."""
    return {p: {game} for p, game in night.check_ins.exclude(only_game="").values_list("player_id", "only_game")}


def night_present(night: Night) -> list[int]:
    """The ids of the players checked in tonight who have not left."""
    return list(night.check_ins.filter(left_at__isnull=True).values_list("player_id", flat=True))


def night_sessions(night: Night) -> list[int]:
    """The table sessions opened for the night's rounds (their ids)."""
    return [
        pk
        for pk in NightTable.objects.filter(round__night=night, session__isnull=False).values_list(
            "session_id", flat=True
        )
    ]


def night_standings(night: Night) -> dict:
    """The night's own table: its tables' counted (signed-off) results under the season's points scheme and
    tie-breakers, rows of {"player", "name", "position", "points" (as shown), "games", "wins"}; how many
    of tonight's results still wait for sign-offs.

    Computed from tonight's few results on each read (a dozen tables at most), so it follows every sign-off at
    once, without waiting for the season's stored table to be recomputed by its job."""
    season = night.season
    results = list(night_results(night).values())
    counted = [r for r in results if r.status == Result.Status.COUNTED]
    games = [[(e.player_id, e.rank, e.score) for e in r.entries.all()] for r in counted]
    rows = (
        standings_maths.table_of(
            games, scheme=season.points_scheme, custom=season.custom_points, tie_breakers=season.tie_breakers
        )
        if games
        else []
    )
    names = dict(Player.objects.filter(pk__in=[row.player for row in rows]).values_list("pk", "name"))
    shown = [
        {
            "player": row.player,
            "name": names.get(row.player, "?"),
            "position": row.position,
            "points": standings_maths.points_text(row.points),
            "games": row.games,
            "wins": row.wins,
        }
        for row in rows
    ]
    return {"rows": shown, "counted": len(counted), "waiting": sum(r.status == Result.Status.PENDING for r in results)}


def night_players(night: Night) -> list[dict]:
    """The club's members for the organiser's list, by name: {"player", "present", "left", "only_game"}."""
    check_ins = {c.player_id: c for c in night.check_ins.all()}
    members = Membership.objects.filter(club=night.season.league.club).select_related("player").order_by("player__name")
    return [
        {
            "player": m.player,
            "present": m.player_id in check_ins and check_ins[m.player_id].left_at is None,
            "left": m.player_id in check_ins and check_ins[m.player_id].left_at is not None,
            "only_game": check_ins[m.player_id].only_game if m.player_id in check_ins else "",
        }
        for m in members
    ]
