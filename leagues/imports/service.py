"""Reading a club's import files into a plan (a read) and writing a plan (one transaction).

The command, the pages and the Celery job all call these, so the preview the organiser saw is the plan that
is committed: the commit re-reads what the club holds under the club's lock and writes nothing twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from games.engines import REGISTRY

from ..access import require_club_manager
from ..audit import audit_record
from ..models import Club, Membership, Player, Result, ResultEntry, Season, SignOff
from ..results import results_settle_imported
from ..seasons import season_refusals
from .formats import SOURCE_BGG, SOURCE_BGSTATS, ImportRefused, Source, parse_bgg, parse_bgstats
from .plan import Member, Plan, SiteGame, make_plan, parse_merges

FORMATS = (SOURCE_BGSTATS, SOURCE_BGG)


def site_games() -> list[SiteGame]:
    """The site's games, matched by name (no BGG id is recorded for them: the organiser confirms the match)."""
    return [SiteGame(slug=engine.slug, names=(engine.name, engine.slug)) for engine in REGISTRY.values()]


def read_files(kind: str, files: Sequence[tuple[str, bytes]]) -> Source:
    if kind == SOURCE_BGSTATS:
        if len(files) != 1:
            raise ImportRefused(_("A BG Stats export is one file; give exactly one."))
        return parse_bgstats(files[0][1], files[0][0])
    if kind == SOURCE_BGG:
        if not files:
            raise ImportRefused(_("Give at least one page of BGG plays."))
        return parse_bgg(files)
    raise ImportRefused(_("Unknown format %(kind)r: bgstats or bgg.") % {"kind": kind})


def club_members(club: Club) -> list[Member]:
    rows = Membership.objects.filter(club=club).values_list("player_id", "player__name", "player__user__username")
    return [Member(player_id=pid, name=name, username=username or "") for pid, name, username in rows]


def club_plan(club: Club, source: Source, *, merges: Iterable[str] = (),
              game_overrides: dict[str, str | None] | None = None) -> Plan:
    """The preview: nothing is written."""
    existing = set(Result.objects.filter(club=club, source=source.kind).exclude(external_id="")
                   .values_list("external_id", flat=True))
    return make_plan(source, games=site_games(), members=club_members(club), merges=parse_merges(merges),
                     existing=existing, game_overrides=game_overrides)


def _season_finder(club: Club) -> Callable:
    seasons = list(Season.objects.filter(league__club=club).select_related("league").order_by("league_id"))
    cache: dict = {}

    def find(game: str, played_on, players: list[Player]) -> Season | None:
        key = (game, played_on, tuple(p.pk for p in players))
        if key not in cache:
            cache[key] = next((s for s in seasons if s.starts_on <= played_on <= s.ends_on
                               and not season_refusals(s, game=game, played_on=played_on, players=players)), None)
        return cache[key]

    return find


@transaction.atomic
def import_commit(*, club: Club, user: AbstractBaseUser, source: Source, merges: Iterable[str] = (),
                  game_overrides: dict[str, str | None] | None = None,
                  progress: Callable[[int, int], None] | None = None) -> dict:
    """Write the plan: new guests (added for the club by the importer, and made members, as he answers for
    them), then the results with their entries, signed by the importer for the players he answers for. Whether
    a result counts is the ordinary sign-off rule (`results_settle_imported`). Returns the plan's summary."""
    require_club_manager(club, user)
    Club.objects.select_for_update().filter(pk=club.pk).first()  # one import of a club at a time
    plan = club_plan(club, source, merges=merges, game_overrides=game_overrides)
    summary = plan.summary()  # before the new guests get their ids: they are counted as new
    used = {e.person for r in plan.results for e in r.entries}
    people = {key: plan.people[key] for key in used}
    guests = [p for p in people.values() if p.player_id is None]
    created = Player.objects.bulk_create(
        [Player(name=p.name[:80], created_by=user, created_in=club) for p in guests])
    for person, player in zip(guests, created, strict=True):
        person.player_id = player.pk
    Membership.objects.bulk_create([Membership(club=club, player=p) for p in created])
    players = {p.pk: p for p in Player.objects.filter(pk__in={p.player_id for p in people.values()})}
    find_season = _season_finder(club)
    total, written = len(plan.results), []
    for start in range(0, total, 500):
        chunk = plan.results[start:start + 500]
        rows = [Result(game=r.game, played_on=r.played_on, club=club, created_by=user, source=plan.source,
                       external_id=r.external_id,
                       season=find_season(r.game, r.played_on, [players[people[e.person].player_id]
                                                                for e in r.entries]))
                for r in chunk]
        Result.objects.bulk_create(rows)
        ResultEntry.objects.bulk_create(
            ResultEntry(result=row, player_id=people[e.person].player_id, rank=e.rank, score=e.score,
                        score_text=e.score_text, seat=e.seat)
            for row, planned in zip(rows, chunk, strict=True) for e in planned.entries)
        written.extend(row.pk for row in rows)
        if progress:
            progress(min(start + 500, total), total)
    _sign(written, user)
    results_settle_imported(list(Result.objects.filter(pk__in=written).select_related("club", "season__league")))
    summary["imported"] = len(written)
    audit_record(action="results.import", obj=club, user=user, club=club,
                 details={"source": plan.source, **summary})
    return summary


def _sign(result_ids: list[int], user: AbstractBaseUser) -> None:
    """The importer signs for whom he answers, by the one rule (`result_players_signed_by`)."""
    from ..access import club_manager_user_ids, result_players_signed_by

    results = Result.objects.filter(pk__in=result_ids).select_related("season__league").prefetch_related(
        "entries__player")
    managers_by_club: dict[int, set[int]] = {}
    sign_offs = []
    for result in results.iterator(chunk_size=500):
        managers = set()
        if result.season_id:
            club_id = result.season.league.club_id
            if club_id not in managers_by_club:
                managers_by_club[club_id] = club_manager_user_ids(club_id)
            managers = managers_by_club[club_id]
        for player_id in result_players_signed_by(result, user, managers=managers):
            sign_offs.append(SignOff(result=result, player_id=player_id, by=user, agreed=True))
    SignOff.objects.bulk_create(sign_offs, batch_size=1000)
