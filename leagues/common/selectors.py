"""Reads for players and clubs, with the visibility rules in one place."""

from datetime import date

from django.contrib.auth.models import AbstractBaseUser
from django.core.paginator import Page, Paginator
from django.db import connection
from django.db.models import Case, CharField, Count, Exists, F, OuterRef, Q, QuerySet, Subquery, Value, When
from django.db.models.functions import Cast, Collate, Lower
from django.http import Http404
from django.utils.translation import gettext

from leagues import standings as standings_maths
from leagues.common.access import (
    club_sees_inside,
    clubs_inside_q,
    managed_club_ids,
    players_open_for,
    result_editable,
)
from leagues.models import (
    Club,
    League,
    Membership,
    Player,
    Rating,
    RatingEvent,
    RatingFit,
    Result,
    ResultEntry,
    Season,
    SignOff,
    Standing,
)
from shitenno_site.paging import LookaheadPage  # noqa: F401 (leagues' lists page with it too)

# Owners first, then admins, then members; each by name whatever its case ("emi" before "Gina"). The role's own
# string sorts "admin" < "member" < "owner", so the owner came last.
MEMBER_ORDER = (
    Case(
        When(role=Membership.Role.OWNER, then=Value(0)),
        When(role=Membership.Role.ADMIN, then=Value(1)),
        default=Value(2),
    ),
    Lower("player__name"),
    "player__name",
    "pk",
)


def club_members(club: Club) -> QuerySet[Membership]:
    return club.memberships.select_related("player", "player__user").order_by(*MEMBER_ORDER)


def club_member_rows(club: Club, *, for_manager: bool) -> QuerySet:
    """The club's members as its page lists them (owners, admins, members, each by name): only what a row shows,
    the player's name and the role, without the accounts club_members joins: a page of 50 of 1,000 members cost
    twice a page of 10. A manager's rows (with their forms) are memberships; anyone else's are dicts of
    `player_id`, `player__name`, `player__user_id` (None for a guest) and `role` (rows.member_rows), no objects made."""
    members = club.memberships.order_by(*MEMBER_ORDER)
    if for_manager:
        return members.select_related("player").only(
            "id", "club_id", "player_id", "role", "player__name", "player__user_id"
        )  # a guest is offered no role
    return members.values("player_id", "player__name", "player__user_id", "role")


def clubs_list() -> QuerySet[Club]:
    return Club.objects.annotate(member_count=Count("memberships")).order_by("name", "pk")  # a stable page order


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
        status__in=[Result.Status.PENDING, Result.Status.DISPUTED]
    )
    return awaiting.prefetch_related("sign_offs__player")  # the page reads who signed and who disputed


WAITING_SHOWN = 50


def results_to_sign(viewer: AbstractBaseUser) -> QuerySet[Result]:
    """The one definition of what waits for the viewer's signature, for the waiting page, the header's badge and
    the sign-off messages alike: a result he may see, not counted yet, with a player he answers for (his own, a
    guest he added or whose league's club he manages, any of an import he vouched for: access.entries_signed_by_q)
    who is not settled for him yet. A player is settled once agreed for, or disputed by the viewer himself;
    another's dispute of a play the viewer answers for waits for him to settle it. One query (the badge counts it
    on every page): an organiser who signs for his league's guests sees them counted too, not only his own games.
    """
    from leagues.common.access import entries_signed_by_q

    if not viewer.is_authenticated:
        return Result.objects.none()
    settled = SignOff.objects.filter(
        Q(agreed=True) | Q(by=viewer), result=OuterRef("result_id"), player=OuterRef("player_id")
    )
    open_for_viewer = ResultEntry.objects.filter(entries_signed_by_q(viewer), ~Exists(settled), result=OuterRef("pk"))
    return results_visible(viewer).filter(
        Exists(open_for_viewer), status__in=[Result.Status.PENDING, Result.Status.DISPUTED]
    )


def results_waiting_for(viewer: AbstractBaseUser) -> tuple[list[Result], list[Result]]:
    """Every result that waits for the viewer's sign-off (`results_to_sign`), in a season or not (issue 34: an
    import's results in no season waited on pages that listed only a league's), latest first; and the imported
    plays counted on a manager's word (`vouched_by`) that he may still dispute. Each waiting result carries
    `can_sign` (the list's partial is the league page's too), `signs_for` (the players he would sign for, so an
    organiser signing for a guest sees on whose behalf: access.players_open_for, the same rule read per row
    without a query) and `can_edit` (he may correct or delete it: access.result_editable)."""
    if not viewer.is_authenticated:
        return [], []
    waiting = list(
        results_to_sign(viewer)
        .select_related("season__league", "club")
        .prefetch_related("entries__player", "sign_offs__player")
        .order_by("-played_on", "-id")[:WAITING_SHOWN]
    )
    managed = managed_club_ids(viewer) if waiting else set()
    for result in waiting:
        result.can_sign = True
        result.signs_for = signs_for_names(players_open_for(result, viewer, managed), viewer)
        result.can_edit = result_editable(result, viewer, managed)
    signed_by_me = SignOff.objects.filter(by=viewer).values("result")
    vouched = (
        results_visible(viewer)
        .filter(entries__player__user=viewer, status=Result.Status.COUNTED, vouched_by__isnull=False)
        .exclude(source="")
        .exclude(vouched_by=viewer)
        .exclude(pk__in=signed_by_me)
        .distinct()
        .select_related("season__league", "club")
        .prefetch_related("entries__player")
        .order_by("-played_on", "-id")[:WAITING_SHOWN]
    )
    return waiting, list(vouched)


def signs_for_names(players: list[Player], viewer: AbstractBaseUser) -> list[str]:
    """On whose behalf a Sign off button signs (an organiser signing for a league's guests): the names, the
    viewer's own player as "you", first; nothing when he signs for himself alone."""
    if all(p.user_id == viewer.pk for p in players):
        return []
    own = [gettext("you")] if any(p.user_id == viewer.pk for p in players) else []
    return own + [p.name for p in players if p.user_id != viewer.pk]


def last_played_in_scope(kind: str, key) -> Subquery:
    """The day of a rating's latest game in its scope (for rust, leagues/rating/display.py): a subquery of the
    rating's own query, so reading it costs no query of its own.

    The scope is given, not read from the outer row (issue 46 finding 5): the rating history is partitioned by
    key (migration 0016), and a key taken from OuterRef made PostgreSQL plan the subquery across every scope's
    partition (a win-chances read 94 -> 894 ms from 79 to 1,079 scopes). `key` is the scope's key, or the keys of
    the rows read (a collection: the subquery matches the row's own key among them, and plans only their
    partitions), or an expression (the player page's game ratings, whose keys are not known before they are
    read: that one still plans every partition)."""
    events = RatingEvent.objects.filter(player=OuterRef("player_id"), kind=kind)
    if isinstance(key, str):
        events = events.filter(key=key)
    elif isinstance(key, list | tuple | set | frozenset):
        events = events.filter(key__in=sorted(key), key=OuterRef("key"))
    else:
        events = events.filter(key=key)
    return Subquery(events.order_by("-played_on").values("played_on")[:1])


def scope_performance_sd(kind=None, key=None) -> Subquery:
    """The scope's own performance spread for its win chances (RatingFit, issue 40; None: the fixed one): a
    subquery of the ratings' own query, so the chances still cost one query. The scope is the outer row's
    `kind` and `key` unless given (values or expressions)."""
    return Subquery(
        RatingFit.objects.filter(
            kind=OuterRef("kind") if kind is None else kind, key=OuterRef("key") if key is None else key
        ).values("performance_sd")[:1]
    )


def scope_skill_sd(kind=None, key=None) -> Subquery:
    """The spread of skills the scope's latest games give (RatingFit.skill_sd, leagues.rating.posterior; None: the
    chances read the ratings), a subquery of the ratings' own query as scope_performance_sd is."""
    return Subquery(
        RatingFit.objects.filter(
            kind=OuterRef("kind") if kind is None else kind, key=OuterRef("key") if key is None else key
        ).values("skill_sd")[:1]
    )


def ratings_list(*, kind: str, key: str, min_games: int = 0, active_since: date | None = None) -> QuerySet[Rating]:
    """A scope's leaderboard, by the conservative estimate mu - 3 sigma, ordered in SQL (pages take a slice), each
    with the day of its latest game (`last_played`); only those who played on or after `active_since` when given."""
    ratings = (
        Rating.objects.filter(kind=kind, key=key, games__gte=min_games)
        .select_related("player")
        .annotate(last_played=last_played_in_scope(kind, key))
    )
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
    events = list(
        RatingEvent.objects.filter(player=player, kind=kind, key=key)
        .order_by("-played_on", "-result_id")
        .values_list("mu_before", "sigma_before", "mu_after", "sigma_after")[:last]
    )
    if not events:
        return []
    events.reverse()
    return [(events[0][0], events[0][1]), *((mu, sigma) for _mu, _sigma, mu, sigma in events)]


def results_visible_q(viewer: AbstractBaseUser, *, prefix: str = "") -> Q:
    """The condition on a result (reached by `prefix`, e.g. "result__") that the viewer may see it: no table or a
    table he may see (a plain condition on the joined table for a visitor), and a club he may look inside. A page
    that lists a few of a player's results uses it on its own join, so that PostgreSQL does not first gather
    every visible result of the site (results_visible as a subquery)."""
    from games.selectors import sessions_visible_q

    return (
        Q(**{f"{prefix}session__isnull": True}) | sessions_visible_q(viewer, through=f"{prefix}session")
    ) & clubs_inside_q(viewer, prefix=prefix)


def results_visible(viewer: AbstractBaseUser) -> QuerySet[Result]:
    """A result from a private table is seen only by those who may see the table, and a result of a private
    club only by its members, and always by its own players: a visitor seated at a club's table reads and signs
    off its result like the members beside him, or it could never count (issue 24)."""
    if not viewer.is_authenticated:
        return Result.objects.filter(results_visible_q(viewer))
    played = ResultEntry.objects.filter(player__user=viewer).values("result")
    return Result.objects.filter(results_visible_q(viewer) | Q(pk__in=played))


LISTED_TABLES = 20


def listed_sessions(sessions) -> list:
    """The latest tables as the pages' lists show them (games/partials/session_list.html: the link, the names at
    the seats, the status and the day): their moves' state and set-up, the largest columns, are not read, and the
    names at their seats come in one query of names (`seat_names`), not as seat and player objects: 80 seats made
    into 160 objects cost a page with 20 tables twice what one with a few cost (issue 18). A table still playing
    whose result was entered by hand (a league night's) is `settled`: listed as finished, as its night says."""
    from games.selectors import seat_names, sessions_settled

    tables = list(
        sessions.select_related(None)
        .prefetch_related(None)
        .only("code", "status", "created_at", "club", "entry")[:LISTED_TABLES]
    )
    names = seat_names([table.pk for table in tables])
    settled = sessions_settled(tables)
    for table in tables:
        table.seat_names = names.get(table.pk, [])
        table.settled = table.pk in settled
    return tables


def results_listed(
    *, viewer: AbstractBaseUser, waiting: bool = False, season: int | None = None, table: str = ""
) -> QuerySet[Result]:
    """The API's list of results (issue 48): those the viewer may see or, `waiting`, those waiting for his
    sign-off (`results_to_sign`, the waiting page's one definition); in a season, from a table (by its code) when
    asked; latest first, with what ResultOutput reads."""
    found = results_to_sign(viewer) if waiting else results_visible(viewer)
    if season is not None:
        found = found.filter(season_id=season)
    if table:
        found = found.filter(session__code=table)
    return (
        found.select_related("session").prefetch_related("entries__player", "sign_offs").order_by("-played_on", "-id")
    )
