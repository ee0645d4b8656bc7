"""A club's whole history as versioned JSON, and back: the format behind `export_club` / `import_club`.

Version 1 holds the club, its members, the players who sat at its tables or appear in its results, their
accounts (username, e-mail and names only: never a password hash or a staff flag), its leagues and seasons,
its tables with their seats and move logs exactly as entered, its results with entries and sign-offs, and
its audit trail. Objects refer to each other by the ids they had in the exporting database; users by
username. Ratings, standings and the players' tallies are not in the file: they are a fold over the counted
results, so the import recomputes them with the league services.

Secrets are left out: the club's invite link and guests' claim links are new after an import, and the
imported accounts have unusable passwords (people set one through "forgot password").
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import models, transaction
from django.db.models import Q

from games import stats_store
from games.models import MoveEvent, Seat, TableSession
from games.registry import one_name
from leagues.models import AuditEntry, Club, League, Membership, Player, Result, ResultEntry, Season, SignOff
from leagues.rating import store as rating_store
from leagues.result import results
from leagues.standings import DEFAULT_TIE_BREAKERS, competition_ranks, season_tie_breakers
from leagues.standings import store as standings_store
from leagues.standings import tally as tally_store
from shitenno_site.validation import json_text_problem

FORMAT = "shitenno-club-export"
VERSION = 1
# A file larger than this is refused before it is read: parsing and loading it in one transaction would hold the
# database for minutes (an 85 MB file did). A club past it moves with pg_dump (docs/operations.md).
MAX_EXPORT_BYTES = 64 * 1024 * 1024

User = get_user_model()


def _dt(value: datetime.datetime | datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _parse_dt(value: str | None) -> datetime.datetime | None:
    return datetime.datetime.fromisoformat(value) if value else None


def _parse_date(value: str) -> datetime.date:
    return datetime.date.fromisoformat(value)


# --- export ---


def club_export(club: Club) -> dict[str, Any]:
    """Everything the club has recorded, as JSON-ready data (strings, numbers, lists, dicts)."""
    results = list(
        Result.objects.filter(Q(club=club) | Q(season__league__club=club))
        .distinct()
        .order_by("id")
        .prefetch_related("entries", "sign_offs")
    )
    session_ids = {r.session_id for r in results if r.session_id}
    sessions = list(
        TableSession.objects.filter(Q(club=club) | Q(pk__in=session_ids))
        .distinct()
        .order_by("id")
        .prefetch_related("seats", "events")
    )
    memberships = list(Membership.objects.filter(club=club).order_by("id"))
    leagues = list(League.objects.filter(club=club).order_by("id").prefetch_related("seasons"))
    audit = list(AuditEntry.objects.filter(club=club).order_by("id"))

    player_ids = {m.player_id for m in memberships}
    player_ids |= {seat.player_id for s in sessions for seat in s.seats.all()}
    player_ids |= {e.player_id for r in results for e in r.entries.all()}
    player_ids |= {o.player_id for r in results for o in r.sign_offs.all()}
    players = list(Player.objects.filter(pk__in=player_ids).order_by("id"))

    user_ids = {p.user_id for p in players} | {p.created_by_id for p in players}
    user_ids |= {s.created_by_id for s in sessions} | {e.entered_by_id for s in sessions for e in s.events.all()}
    user_ids |= {r.created_by_id for r in results} | {o.by_id for r in results for o in r.sign_offs.all()}
    user_ids |= {a.user_id for a in audit}
    users = list(User.objects.filter(pk__in=user_ids - {None}).order_by("pk"))
    username = {u.pk: u.get_username() for u in users}

    def who(user_id: int | None) -> str | None:
        return username.get(user_id) if user_id is not None else None

    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _dt(datetime.datetime.now(datetime.UTC)),
        "club": {
            "name": club.name,
            "slug": club.slug,
            "description": club.description,
            "members_public": club.members_public,
            "created_at": _dt(club.created_at),
        },
        "users": [
            {
                "username": u.get_username(),
                "email": u.email,
                "first_name": getattr(u, "first_name", ""),
                "last_name": getattr(u, "last_name", ""),
                "is_active": u.is_active,
                "date_joined": _dt(getattr(u, "date_joined", None)),
            }
            for u in users
        ],
        "players": [
            {
                "id": p.pk,
                "name": p.name,
                "user": who(p.user_id),
                "created_by": who(p.created_by_id),
                "merged_into": p.merged_into_id if p.merged_into_id in player_ids else None,
                "created_at": _dt(p.created_at),
            }
            for p in players
        ],
        "memberships": [
            {"id": m.pk, "player": m.player_id, "role": m.role, "joined_at": _dt(m.joined_at)} for m in memberships
        ],
        "leagues": [
            {
                "id": lg.pk,
                "name": lg.name,
                "slug": lg.slug,
                "games": lg.games,
                "created_at": _dt(lg.created_at),
                "seasons": [
                    {
                        "id": s.pk,
                        "name": s.name,
                        "starts_on": _dt(s.starts_on),
                        "ends_on": _dt(s.ends_on),
                        "points_scheme": s.points_scheme,
                        "custom_points": s.custom_points,
                        "min_games": s.min_games,
                        "tie_breakers": s.tie_breakers,
                        "created_at": _dt(s.created_at),
                    }
                    for s in sorted(lg.seasons.all(), key=lambda s: s.pk)
                ],
            }
            for lg in leagues
        ],
        "tables": [
            {
                "id": s.pk,
                "code": s.code,
                "game": s.game,
                "rules_version": s.rules_version,
                "entry": s.entry,
                "setup": s.setup,
                "created_by": who(s.created_by_id),
                "in_club": s.club_id == club.pk,
                "is_public": s.is_public,
                "status": s.status,
                "head_seq": s.head_seq,
                "state": s.state,
                "outcome": s.outcome,
                "created_at": _dt(s.created_at),
                "updated_at": _dt(s.updated_at),
                "finished_at": _dt(s.finished_at),
                "seats": [
                    {"position": seat.position, "player": seat.player_id, "colour": seat.colour}
                    for seat in sorted(s.seats.all(), key=lambda seat: seat.position)
                ],
                "moves": [
                    {
                        "seq": e.seq,
                        "kind": e.kind,
                        "payload": e.payload,
                        "description": e.description,
                        "entered_by": who(e.entered_by_id),
                        "idempotency_key": e.idempotency_key,
                        "created_at": _dt(e.created_at),
                    }
                    for e in sorted(s.events.all(), key=lambda e: e.seq)
                ],
            }
            for s in sessions
        ],
        "results": [
            {
                "id": r.pk,
                "game": r.game,
                "played_on": _dt(r.played_on),
                "season": r.season_id,
                "table": r.session_id,
                "status": r.status,
                "version": r.version,
                "created_by": who(r.created_by_id),
                "created_at": _dt(r.created_at),
                "updated_at": _dt(r.updated_at),
                "entries": [
                    {"player": e.player_id, "rank": e.rank, "score": e.score}
                    for e in sorted(r.entries.all(), key=lambda e: e.pk)
                ],
                "sign_offs": [
                    {
                        "player": o.player_id,
                        "by": who(o.by_id),
                        "agreed": o.agreed,
                        "note": o.note,
                        "created_at": _dt(o.created_at),
                    }
                    for o in sorted(r.sign_offs.all(), key=lambda o: o.pk)
                ],
            }
            for r in results
        ],
        "audit": [
            {
                "user": who(a.user_id),
                "created_at": _dt(a.created_at),
                "action": a.action,
                "object_type": a.object_type,
                "object_id": a.object_id,
                "details": a.details,
            }
            for a in audit
        ],
    }


# --- import ---


def club_export_too_large(name: str) -> str:
    return f"{name} is larger than {MAX_EXPORT_BYTES // (1024 * 1024)} MB: this import refuses it."


def club_export_parse(raw: bytes, *, name: str = "the file") -> dict[str, Any]:
    """The export's JSON, refusing what would hang or crash the import: a file over MAX_EXPORT_BYTES, text that is
    not UTF-8 JSON, or arrays nested too deep for the parser."""
    if len(raw) > MAX_EXPORT_BYTES:
        raise ValidationError(club_export_too_large(name))
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValidationError(f"{name} is not UTF-8 text (byte {exc.start}).") from exc
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{name} is not JSON: {exc}.") from exc
    except RecursionError as exc:
        raise ValidationError(f"{name} nests arrays or objects too deep to be a club export.") from exc


def _check_text(data: Any) -> None:
    """The site's one text rule (shitenno_site.validation.text_problem) over every key and text of the file: a
    NUL (PostgreSQL stores none), a lone surrogate (nothing can write it), a control or direction character is
    refused naming its place, instead of failing mid-import with a traceback or storing what no form takes."""
    problem = json_text_problem(data)
    if problem:
        raise ValidationError(problem)


def _check_names(data: dict) -> None:
    """Slugs and usernames go into URLs and log-ins: they pass the same checks as the forms that make them."""
    checks = [("club.slug", data["club"]["slug"], validate_slug)]
    checks += [(f"leagues[{n}].slug", row["slug"], validate_slug) for n, row in enumerate(data["leagues"])]
    checks += [
        (f"users[{n}].username", row["username"], UnicodeUsernameValidator()) for n, row in enumerate(data["users"])
    ]
    for where, value, check in checks:
        if not isinstance(value, str) or not value or len(value) > 100:
            raise ValidationError(f"{where} must be a text of 1 to 100 characters.")
        try:
            check(value)
        except ValidationError as exc:
            raise ValidationError(f"{where} {value!r} is refused: {' '.join(exc.messages)}") from exc


def _check_player_counts(data: dict) -> None:
    """A result with more (or fewer) players than its game allows is refused as the result forms refuse it, before
    anything is written (issue 50: a restore took a five-player Shitennō result and rated it)."""
    for n, row in enumerate(data["results"]):
        problem = results.player_count_problem(one_name(row["game"]), len(row["entries"]))
        if problem:
            raise ValidationError(f"results[{n}] (id {row['id']}): {problem}")


def _check_header(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValidationError(f'This is not a club export: expected "format": "{FORMAT}".')
    if data.get("version") != VERSION:
        raise ValidationError(
            f"Unknown club export version {data.get('version')!r}: this site reads version {VERSION} only."
        )


def _check_empty(data: dict) -> None:
    """Ids, slugs and table codes are taken as they are, so the import goes into an empty database only."""
    found = {
        label: model.objects.count()
        for label, model in (
            ("clubs", Club),
            ("players", Player),
            ("leagues", League),
            ("results", Result),
            ("tables", TableSession),
        )
    }
    busy = {label: n for label, n in found.items() if n}
    if busy:
        listed = ", ".join(f"{n} {label}" for label, n in busy.items())
        raise ValidationError(f"The target database is not empty ({listed}); import a club into an empty database.")
    names = [u["username"] for u in data["users"]]
    taken = sorted(
        User.objects.filter(**{f"{User.USERNAME_FIELD}__in": names}).values_list(User.USERNAME_FIELD, flat=True)
    )
    if taken:
        raise ValidationError(f"These accounts already exist in the target database: {', '.join(taken)}.")


def _restore_times(objects: Iterable[models.Model], times: Iterable[dict[str, datetime.datetime | None]]) -> None:
    """auto_now(_add) fields are set on insert; put the exported moments back without touching them again."""
    objects, times = list(objects), list(times)
    if not objects:
        return
    for obj, values in zip(objects, times, strict=True):
        for field, value in values.items():
            setattr(obj, field, value)
    type(objects[0]).objects.bulk_update(objects, list(times[0]), batch_size=1000)


@transaction.atomic
def club_import(data: dict[str, Any]) -> Club:
    """Load an export into an empty database in one transaction, then recompute ratings and standings."""
    _check_header(data)
    try:
        _check_text(data)
        _check_names(data)
        _check_player_counts(data)
        return _import(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise ValidationError(f"The club export is damaged or incomplete: {exc!r}.") from exc


def _import(data: dict[str, Any]) -> Club:
    """The rows in the order their foreign keys need (accounts, club, players, memberships, leagues and seasons,
    tables, results, audit), then the ratings, standings and tallies recomputed from them."""
    _check_empty(data)
    users = _import_users(data["users"])

    def user_of(name: str | None):
        return users[name] if name is not None else None

    club_row = data["club"]
    club = Club.objects.create(
        name=club_row["name"],
        slug=club_row["slug"],
        description=club_row["description"],
        members_public=club_row["members_public"],
    )
    _restore_times([club], [{"created_at": _parse_dt(club_row["created_at"])}])

    # Rows go in in their exported id order, so (played_on, id) and other id orders are kept.
    player_of = _import_players(data["players"], user_of)
    membership_rows = sorted(data["memberships"], key=lambda m: m["id"])
    memberships = Membership.objects.bulk_create(
        Membership(club=club, player=player_of[m["player"]], role=m["role"]) for m in membership_rows
    )
    _restore_times(memberships, ({"joined_at": _parse_dt(m["joined_at"])} for m in membership_rows))
    league_of, season_of = _import_leagues(club, data["leagues"])
    session_of = _import_tables(club, data["tables"], user_of, player_of)
    result_of = _import_results(club, data["results"], user_of, player_of, season_of, session_of)

    # Audit lines keep pointing at their objects under the new ids; a line about a deleted object keeps none.
    new_ids = {
        "leagues.player": {old: p.pk for old, p in player_of.items()},
        "leagues.membership": {row["id"]: m.pk for row, m in zip(membership_rows, memberships, strict=True)},
        "leagues.league": {old: lg.pk for old, lg in league_of.items()},
        "leagues.season": {old: s.pk for old, s in season_of.items()},
        "leagues.result": {old: r.pk for old, r in result_of.items()},
        "games.tablesession": {old: s.pk for old, s in session_of.items()},
    }
    audit_rows = data.get("audit", [])
    audit = AuditEntry.objects.bulk_create(
        AuditEntry(
            club=club,
            user=user_of(a["user"]),
            action=a["action"],
            object_type=a["object_type"],
            object_id=new_ids.get(a["object_type"], {}).get(a["object_id"]),
            details=a["details"],
        )
        for a in audit_rows
    )
    _restore_times(audit, ({"created_at": _parse_dt(a["created_at"])} for a in audit_rows))

    for kind, key in sorted(rating_store.rating_scopes()):
        rating_store.ratings_recompute(kind=kind, key=key)
    for season in season_of.values():
        standings_store.standings_compute(season=season)
    tally_store.tallies_recount(players=[player.pk for player in player_of.values()])
    return club


def _import_users(rows: list[dict]) -> dict[str, Any]:
    """The accounts, by username, with unusable passwords."""
    users: dict[str, Any] = {}
    for row in rows:
        user = User.objects.create_user(**{User.USERNAME_FIELD: row["username"]}, email=row["email"], password=None)
        user.first_name, user.last_name = row.get("first_name", ""), row.get("last_name", "")
        user.is_active = row.get("is_active", True)
        if row.get("date_joined"):
            user.date_joined = _parse_dt(row["date_joined"])
        user.save()
        users[row["username"]] = user
    return users


def _import_players(rows: list[dict], user_of: Callable[[str | None], Any]) -> dict[int, Player]:
    """The players by their exported id; a merged guest points at the player it was merged into."""
    player_rows = sorted(rows, key=lambda p: p["id"])
    players = Player.objects.bulk_create(
        Player(name=p["name"], user=user_of(p["user"]), created_by=user_of(p["created_by"])) for p in player_rows
    )
    player_of = {row["id"]: player for row, player in zip(player_rows, players, strict=True)}
    for row, player in zip(player_rows, players, strict=True):
        if row.get("merged_into") is not None:
            player.merged_into = player_of[row["merged_into"]]
    Player.objects.bulk_update([p for p in players if p.merged_into_id], ["merged_into"])
    _restore_times(players, ({"created_at": _parse_dt(p["created_at"])} for p in player_rows))
    return player_of


def _import_leagues(club: Club, rows: list[dict]) -> tuple[dict[int, League], dict[int, Season]]:
    """The leagues and their seasons, each by its exported id."""
    season_of: dict[int, Season] = {}
    league_of: dict[int, League] = {}
    for row in sorted(rows, key=lambda lg: lg["id"]):
        league = League.objects.create(
            club=club,
            name=row["name"],
            slug=row["slug"],  # an older export's names
            games=list(dict.fromkeys(one_name(g) for g in row["games"])),
        )  # fold (issue 40)
        _restore_times([league], [{"created_at": _parse_dt(row["created_at"])}])
        league_of[row["id"]] = league
        for s in sorted(row["seasons"], key=lambda s: s["id"]):
            season = Season.objects.create(
                league=league,
                name=s["name"],
                starts_on=_parse_date(s["starts_on"]),
                ends_on=_parse_date(s["ends_on"]),
                points_scheme=s["points_scheme"],
                custom_points=s["custom_points"],
                min_games=s["min_games"],
                # files written before the stored order was the applied one said [] for the six defaults
                tie_breakers=season_tie_breakers(s["tie_breakers"] or DEFAULT_TIE_BREAKERS),
            )
            _restore_times([season], [{"created_at": _parse_dt(s["created_at"])}])
            season_of[s["id"]] = season
    return league_of, season_of


def _scored(outcome: dict | None) -> dict | None:
    """An export made before games migration 0002 names a placing's points "favour": read as "score"."""
    for placing in (outcome or {}).get("placings") or []:
        if "favour" in placing and "score" not in placing:
            placing["score"] = placing.pop("favour")
    return outcome


def _import_tables(
    club: Club, rows: list[dict], user_of: Callable[[str | None], Any], player_of: dict[int, Player]
) -> dict[int, TableSession]:
    """The tables by their exported id, with their seats and move logs; the finished public ones join their
    game's statistics."""
    table_rows = sorted(rows, key=lambda t: t["id"])
    sessions = TableSession.objects.bulk_create(
        TableSession(
            code=t["code"],
            game=t["game"],
            rules_version=t["rules_version"],
            entry=t["entry"],
            setup=t["setup"],
            created_by=user_of(t["created_by"]),
            club=club if t.get("in_club", True) else None,
            is_public=t["is_public"],
            status=t["status"],
            head_seq=t["head_seq"],
            state=t["state"],
            outcome=_scored(t["outcome"]),
            finished_at=_parse_dt(t["finished_at"]),
        )
        for t in table_rows
    )
    session_of = {row["id"]: s for row, s in zip(table_rows, sessions, strict=True)}
    _restore_times(
        sessions,
        ({"created_at": _parse_dt(t["created_at"]), "updated_at": _parse_dt(t["updated_at"])} for t in table_rows),
    )
    stats_store.tables_changed(sessions)  # the public finished tables join their game's statistics
    Seat.objects.bulk_create(
        Seat(
            session=session_of[t["id"]],
            position=seat["position"],
            player=player_of[seat["player"]],
            colour=seat["colour"],
        )
        for t in table_rows
        for seat in t["seats"]
    )
    move_rows = [(t["id"], m) for t in table_rows for m in sorted(t["moves"], key=lambda m: m["seq"])]
    events = MoveEvent.objects.bulk_create(
        (
            MoveEvent(
                session=session_of[table],
                seq=m["seq"],
                kind=m["kind"],
                payload=m["payload"],
                description=m["description"],
                entered_by=user_of(m["entered_by"]),
                idempotency_key=m["idempotency_key"],
            )
            for table, m in move_rows
        ),
        batch_size=1000,
    )
    _restore_times(events, ({"created_at": _parse_dt(m["created_at"])} for _table, m in move_rows))
    return session_of


def _import_results(
    club: Club,
    rows: list[dict],
    user_of: Callable[[str | None], Any],
    player_of: dict[int, Player],
    season_of: dict[int, Season],
    session_of: dict[int, TableSession],
) -> dict[int, Result]:
    """The results by their exported id, with their entries and sign-offs; each counts as its sign-offs say."""
    result_rows = sorted(rows, key=lambda r: r["id"])
    results_made = Result.objects.bulk_create(
        Result(
            game=one_name(r["game"]),
            played_on=_parse_date(r["played_on"]),
            club=club,
            season=season_of[r["season"]] if r["season"] is not None else None,
            session=session_of[r["table"]] if r["table"] is not None else None,
            status=r["status"],
            version=r["version"],
            created_by=user_of(r["created_by"]),
        )
        for r in result_rows
    )
    result_of = {row["id"]: result for row, result in zip(result_rows, results_made, strict=True)}
    _restore_times(
        results_made,
        ({"created_at": _parse_dt(r["created_at"]), "updated_at": _parse_dt(r["updated_at"])} for r in result_rows),
    )
    ranks_of = {r["id"]: competition_ranks([e["rank"] for e in r["entries"]]) for r in result_rows}
    ResultEntry.objects.bulk_create(
        (
            ResultEntry(result=result_of[r["id"]], player=player_of[e["player"]], rank=rank, score=e["score"])
            for r in result_rows
            for e, rank in zip(r["entries"], ranks_of[r["id"]], strict=True)
        ),
        batch_size=1000,
    )
    sign_off_rows = [(r["id"], o) for r in result_rows for o in r["sign_offs"]]
    sign_offs = SignOff.objects.bulk_create(
        (
            SignOff(
                result=result_of[result],
                player=player_of[o["player"]],
                by=user_of(o["by"]),
                agreed=o["agreed"],
                note=o["note"],
            )
            for result, o in sign_off_rows
        ),
        batch_size=1000,
    )
    _restore_times(sign_offs, ({"created_at": _parse_dt(o["created_at"])} for _result, o in sign_off_rows))
    # The file's word on a status is not taken: each result counts only as its sign-offs say (issue 24).
    for result in results_made:
        result.status, result.ranked_publicly = results.signed_status(result)
    Result.objects.bulk_update(results_made, ["status", "ranked_publicly"], batch_size=1000)
    return result_of
