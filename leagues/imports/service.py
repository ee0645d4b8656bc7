"""Reading a club's import files into a plan (a read) and writing a plan (one transaction).

The command, the pages and the Celery job all call these, so the preview the organiser saw is the plan that
is committed: the commit re-reads what the club holds under the club's lock and writes nothing twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engines import REGISTRY
from leagues.club.seasons import season_create, seasons_adopt
from leagues.common.access import club_manager_user_ids, require_club_manager
from leagues.common.audit import audit_record
from leagues.models.bulk import insert_rows
from leagues.result.results import results_settle_imported

from ..models import Club, Membership, Player, Result, ResultEntry, Season
from .formats import SOURCE_BGG, SOURCE_BGSTATS, ImportRefused, Source, check_results, parse_bgg, parse_bgstats
from .plan import Member, Plan, SiteGame, make_plan, parse_merges
from .seasons import place_plan

FORMATS = (SOURCE_BGSTATS, SOURCE_BGG)
CHUNK = 2000  # results a bulk insert writes at once (and a progress step)
IMPORT_LOCK = 34  # the advisory lock's first key: imports of a club


def site_games() -> list[SiteGame]:
    """The site's games, matched by their BoardGameGeek id where settings.GAME_BGG_IDS gives one, else by name (the
    organiser confirms the match)."""
    ids = settings.GAME_BGG_IDS
    return [
        SiteGame(
            slug=engine.slug,
            names=(engine.name, engine.slug),
            bgg_ids=(ids[engine.slug],) if engine.slug in ids else (),
            min_players=engine.min_players,
            max_players=engine.max_players,
        )
        for engine in REGISTRY.values()
    ]


def read_files(kind: str, files: Sequence[tuple[str, bytes]]) -> Source:
    if kind == SOURCE_BGSTATS:
        if len(files) != 1:
            raise ImportRefused(_("A BG Stats export is one file; give exactly one."))
        source = parse_bgstats(files[0][1], files[0][0])
    elif kind == SOURCE_BGG:
        if not files:
            raise ImportRefused(_("Give at least one page of BGG plays."))
        source = parse_bgg(files)
    else:
        raise ImportRefused(_("Unknown format %(kind)r: bgstats or bgg.") % {"kind": kind})
    check_results(source)
    return source


def club_members(club: Club) -> list[Member]:
    rows = Membership.objects.filter(club=club).values_list("player_id", "player__name", "player__user__username")
    return [Member(player_id=pid, name=name, username=username or "") for pid, name, username in rows]


def club_plan(
    club: Club, source: Source, *, merges: Iterable[str] = (), game_overrides: dict[str, str | None] | None = None
) -> Plan:
    """The preview: nothing is written."""
    existing = set(
        Result.objects.filter(club=club, source=source.kind)
        .exclude(external_id="")
        .values_list("external_id", flat=True)
    )
    return make_plan(
        source,
        games=site_games(),
        members=club_members(club),
        merges=parse_merges(merges),
        existing=existing,
        game_overrides=game_overrides,
    )


def _lock_club_imports(club: Club) -> None:
    """One import of a club at a time, without holding the club's row (issue 36): a transaction-level advisory
    lock on PostgreSQL, so a member leaving a night or a manager editing the club does not wait for an import of
    thousands of plays, nor deadlock with it. The unique (club, source, external id) stands behind it."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [IMPORT_LOCK, club.pk])


def _new_guests(club: Club, user: AbstractBaseUser, people: dict) -> None:
    """The plan's people who are nobody in the club yet: added as the importer's guests of the club, members."""
    guests = [p for p in people.values() if p.player_id is None]
    created = Player.objects.bulk_create(
        [Player(name=p.name[:80], created_by=user, created_in=club) for p in guests], batch_size=2000
    )
    for person, player in zip(guests, created, strict=True):
        person.player_id = player.pk
    Membership.objects.bulk_create([Membership(club=club, player=p) for p in created], batch_size=2000)


def _create_seasons(club: Club, user: AbstractBaseUser, plan: Plan, league_id: int | None) -> list[str]:
    """The seasons the preview offered for the plays no season takes (`place_plan`), in the league chosen."""
    if league_id is None:
        return []
    placing = place_plan(club, plan, league_id)
    if placing.league is None:
        raise ImportRefused(
            _("The league chosen for new seasons is not one of the club's leagues that count these games.")
        )
    for offer in placing.offers:
        season_create(
            league=placing.league, name=offer.name, starts_on=offer.starts_on, ends_on=offer.ends_on, user=user
        )
    return [offer.name for offer in placing.offers]


@transaction.atomic
def import_commit(
    *,
    club: Club,
    user: AbstractBaseUser,
    source: Source,
    merges: Iterable[str] = (),
    game_overrides: dict[str, str | None] | None = None,
    vouch: bool = False,
    season_league: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Write the plan: new guests (added for the club by the importer, and made members, as he answers for
    them), the seasons chosen on the preview, then the results with their entries. The club's seasons adopt
    them by the one rule (`seasons_adopt`), and the importer signs for the players he answers for: with `vouch`
    (he confirmed the plays on the preview) every player, so they count in the club's leagues at once. Whether a
    result counts is the ordinary sign-off rule (`results_settle_imported`). Returns the plan's summary.

    The club's members, its imported ids, its seasons and managers are read once, not once a play."""
    require_club_manager(club, user)
    _lock_club_imports(club)
    plan = club_plan(club, source, merges=merges, game_overrides=game_overrides)
    summary = plan.summary()  # before the new guests get their ids: they are counted as new
    used = {e.person for r in plan.results for e in r.entries}
    people = {key: plan.people[key] for key in used}
    _new_guests(club, user, people)
    new_seasons = _create_seasons(club, user, plan, season_league)
    if new_seasons:
        summary["new_seasons"] = new_seasons
    players = {p.pk: p for p in Player.objects.filter(pk__in={p.player_id for p in people.values()})}
    total, rows, players_of = len(plan.results), [], {}
    template = Result(
        club=club,
        created_by=user,
        source=plan.source,
        vouched_by=user if vouch else None,
        game="",
        played_on=timezone.localdate(),
    )
    for start in range(0, total, CHUNK):
        chunk = plan.results[start : start + CHUNK]
        insert_rows(
            template, ("game", "played_on", "external_id"), ((r.game, r.played_on, r.external_id) for r in chunk)
        )
        ids = dict(
            Result.objects.filter(
                club=club, source=plan.source, external_id__in=[r.external_id for r in chunk]
            ).values_list("external_id", "pk")
        )
        made = [
            Result(
                pk=ids[r.external_id],
                game=r.game,
                played_on=r.played_on,
                club=club,
                source=plan.source,
                external_id=r.external_id,
                vouched_by_id=template.vouched_by_id,
            )
            for r in chunk
        ]
        insert_rows(
            ResultEntry(result_id=0, player_id=0, rank=1),
            ("result_id", "player_id", "rank", "score", "score_text", "seat"),
            (
                (row.pk, people[e.person].player_id, e.rank, e.score, e.score_text, e.seat)
                for row, planned in zip(made, chunk, strict=True)
                for e in planned.entries
            ),
        )
        for row, planned in zip(made, chunk, strict=True):
            players_of[row.pk] = [players[people[e.person].player_id] for e in planned.entries]
        rows.extend(made)
        if progress:
            progress(min(start + CHUNK, total), total)
    _settle(club, user, rows, players_of)
    summary["imported"] = len(rows)
    audit_record(
        action="results.import",
        obj=club,
        user=user,
        club=club,
        details={"source": plan.source, "vouched": vouch, **summary},
    )
    return summary


def _settle(club: Club, user: AbstractBaseUser, rows: list[Result], players_of: dict[int, list[Player]]) -> None:
    """The club's seasons adopt the new results (the one rule, `seasons_adopt`); then they are signed and
    settled in memory, their seasons read back once."""
    ids = [row.pk for row in rows]
    if seasons_adopt(club=club, result_ids=ids):
        season_of = {}
        for start in range(0, len(ids), 20000):
            season_of.update(
                Result.objects.filter(pk__in=ids[start : start + 20000])
                .exclude(season=None)
                .values_list("pk", "season_id")
            )
        seasons = Season.objects.filter(pk__in=set(season_of.values())).select_related("league").in_bulk()
        for row in rows:
            if row.pk in season_of:
                row.season = seasons[season_of[row.pk]]
    results_settle_imported(rows, players_of, user, club_manager_user_ids(club.pk))
