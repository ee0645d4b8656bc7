"""Leagues' side of the one direction (docs/architecture.md): games never import leagues, so what leagues does when
a table changes, and what it answers for games about players and clubs, is plugged in here, at start-up
(LeaguesConfig.ready): receivers for games' table signals (games/signals.py) and the `People` games ask
(games/people.py)."""

from __future__ import annotations

from django.db.models import OuterRef, QuerySet, Subquery, Value
from django.urls import reverse
from django.utils.translation import gettext as _

from games import people, signals
from leagues.common import selectors
from leagues.common.audit import audit_record
from leagues.models import Membership, NightTable, Player, Rating, RatingEvent, ResultEntry, Season
from leagues.nights import selectors as night_selectors
from leagues.people import players
from leagues.rating import chances
from leagues.result import of_table, results, withdraw
from leagues.result.scope import table_scope


def _table_finished(sender, *, session, **_kwargs) -> None:
    """A finished table's pending result, in the finishing move's transaction; none for a night table whose game
    was entered by hand before its phones finished it: that result is the table's, and one game counts once.

    A night table's season row is locked first, as `results.result_enter` holds it while it writes a hand entry:
    a hand entry and the last move at once follow one another, so whichever commits first is the table's."""
    season_id = (
        NightTable.objects.filter(session_id=session.pk).values_list("round__night__season_id", flat=True).first()
    )
    if season_id is None:  # not a night's table (most are): no hand entry can cover it
        results.result_from_session(session=session)
        return
    list(Season.objects.select_for_update(no_key=True, of=("self",)).filter(pk=season_id).values_list("pk"))
    if night_selectors.hand_result_of_session(session.pk) is None:
        results.result_from_session(session=session)


def _table_reopening(sender, *, session, **_kwargs) -> None:
    """The reopened table's result goes; a result that already counts refuses the undo (409)."""
    results.result_withdraw_for_session(session=session)


def table_settled(session) -> people.Settled | None:
    """A night table still playing whose game the organiser entered by hand (`hand_result_of_session`): that result
    is the table's, so its page says so and its moves are refused (games.selectors.session_settled). The players
    placed first are named, as the page's one line: the link shows the whole result and its sign-offs."""
    result = night_selectors.hand_result_of_session(session.pk)
    if result is None:
        return None
    entries = list(result.entries.all())  # prefetched by night_results
    first = min((e.rank for e in entries), default=1)
    names = sorted(
        Player.objects.filter(pk__in=[e.player_id for e in entries if e.rank == first]).values_list("name", flat=True)
    )
    return people.Settled(
        says=_(
            "The organiser entered this table's result by hand (first place: %(first)s). Moves entered here no "
            "longer count."
        )
        % {"first": ", ".join(names)},
        url=reverse("table_result", args=[session.code]),
    )


def _move_undone(sender, *, session, user, event, undone, **_kwargs) -> None:
    audit_record(
        action="move.undo",
        obj=session,
        user=user,
        club=session.club_id,
        details={"table": session.code, "seq": event.seq, "undoes": undone.seq, "move": undone.description},
    )


def seats_rated(seats: QuerySet, session) -> QuerySet:
    """The seats with each player's rating in the table's scope (`table_scope`: its league, or its game;
    `rating_mu`, `rating_sigma`, `rating_games`, `rating_last_played`), what the scope's latest games say of his
    skill (`rating_chance_mean`, `rating_chance_sd`) and of the spread of skills (`rating_skill_sd`), the scope's
    own performance spread (`rating_performance_sd`, issue 40), which scope that is (`chance_scope`,
    `chance_league`, `chance_fallback`), for a finished table the chances its page showed when the game ended
    (`shown_win`, `shown_place`, kept on its result) and, for a rated one, his rating before it (`before_mu`,
    `before_sigma`): columns of the seats' own query, so the table page's win chances (issue 29) cost no query
    beyond choosing the scope.

    The scope is literal, so PostgreSQL plans the rating history's subqueries on that scope's partition only, not
    on every scope's (issue 46 finding 5: with the key from OuterRef, the page's planning grew with the number of
    scopes on the site)."""
    scope = table_scope(session)
    kind, key = scope.kind, scope.key
    rating = Rating.objects.filter(player=OuterRef("player_id"), kind=kind, key=key)
    events = RatingEvent.objects.filter(player=OuterRef("player_id"), kind=kind, key=key)
    before = events.filter(result__session=OuterRef("session_id"))
    shown = ResultEntry.objects.filter(result__session=OuterRef("session_id"), player=OuterRef("player_id"))
    latest = events.order_by("-played_on").values("played_on")[:1]
    return seats.annotate(
        rating_mu=Subquery(rating.values("mu")[:1]),
        rating_sigma=Subquery(rating.values("sigma")[:1]),
        rating_games=Subquery(rating.values("games")[:1]),
        rating_last_played=Subquery(latest),
        before_mu=Subquery(before.values("mu_before")[:1]),
        before_sigma=Subquery(before.values("sigma_before")[:1]),
        rating_chance_mean=Subquery(rating.values("chance_mean")[:1]),
        rating_chance_sd=Subquery(rating.values("chance_sd")[:1]),
        rating_performance_sd=selectors.scope_performance_sd(kind, key),
        rating_skill_sd=selectors.scope_skill_sd(kind, key),
        chance_scope=Value(kind),
        chance_league=Value(scope.league),
        chance_fallback=Value(scope.fallback),
        shown_win=Subquery(shown.values("win_before")[:1]),
        shown_place=Subquery(shown.values("place_before")[:1]),
    )


def connect() -> None:
    """Once, from LeaguesConfig.ready."""
    players.register_sign_offs_withdraw(withdraw.sign_offs_withdraw)
    signals.table_finished.connect(_table_finished, dispatch_uid="leagues-result-from-table")
    signals.table_reopening.connect(_table_reopening, dispatch_uid="leagues-result-withdrawn")
    signals.move_undone.connect(_move_undone, dispatch_uid="leagues-audit-undo")
    people.register(
        people.People(
            player_for_user=players.player_for_user,
            guest_create=lambda *, name, created_by: players.player_guest_create(name=name, created_by=created_by),
            clubs_of_user=selectors.clubs_of_user,
            writer_roles=(Membership.Role.OWNER, Membership.Role.ADMIN),
            seats_rated=seats_rated,
            seat_chances=chances.seat_chances,
            table_settled=table_settled,
            tables_settled=night_selectors.sessions_settled_by_hand,
            table_result=of_table.table_result_summary,
        )
    )
