"""Writes for notifications: each event writes its messages in the caller's transaction (the outbox), so a
message exists exactly when its event committed; the push itself runs later (`delivery`), hinted through the
league outbox (`outbox.ask_notify`).

Who is told: only a person with an account (never a guest), who is still a member of the club the event is in,
and who did not choose "nothing" for that kind. A message names only what its recipient may see: the players at
his own table or in his own result, the result he recorded or manages.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.urls import reverse
from django.utils.translation import get_language

from leagues.jobs import outbox
from leagues.models import Club, Player, Result

from .models import AT_ONCE, Channel, ClubHours, Kind, Notification, Preference, PushSubscription, default_channel
from .push import push_enabled


def game_name(slug: str) -> str:
    from games.engines import UnknownGame
    from games.plugins import get_game

    try:
        return str(get_game(slug).name)
    except (UnknownGame, KeyError):
        return slug


def reachable_users(user_ids: Iterable[int], club: Club | None) -> set[int]:
    """The accounts among `user_ids` that may be told of an event in `club`: active, and still members of it."""
    users = get_user_model().objects.filter(pk__in=set(user_ids), is_active=True)
    if club is not None:
        users = users.filter(player__memberships__club=club)
    return set(users.values_list("pk", flat=True))


def _channels(user_ids: Iterable[int], kind: str) -> dict[int, str]:
    chosen = dict(Preference.objects.filter(user_id__in=set(user_ids)).values_list("user_id", kind))
    default = default_channel(kind)
    return {uid: chosen.get(uid, default) for uid in user_ids}


def _first_state(kind: str, channel: str, has_device: bool) -> str:
    """Push with no device to push to (or push off on the site) is kept as dropped: the badge and the pages still
    show what waits, and the outbox is not asked for a push that cannot happen. By e-mail a message waits for the
    daily digest, unless its kind cannot wait (AT_ONCE): then the outbox sends it now, like a push."""
    if channel == Channel.EMAIL:
        return Notification.State.QUEUED if kind in AT_ONCE else Notification.State.DIGEST
    return Notification.State.QUEUED if has_device else Notification.State.DROPPED


def _write(messages: list[tuple[int, str, dict]], kind: str, club: Club | None) -> list[Notification]:
    """messages: (user id, dedupe key, payload). Each reachable person's message is written once per key; a push
    one is handed to the outbox. Returns the rows written now (none for a key written before)."""
    if not messages:  # nobody to tell (a result whose players all signed, a table of guests): no query
        return []
    reachable = reachable_users((uid for uid, _key, _payload in messages), club)
    channels = _channels(reachable, kind)
    devices = (
        set(PushSubscription.objects.filter(user_id__in=reachable).values_list("user_id", flat=True))
        if push_enabled()
        else set()
    )
    written = []
    for uid, key, payload in messages:
        channel = channels.get(uid, Channel.NONE)
        if channel == Channel.NONE:
            continue
        state = _first_state(kind, channel, uid in devices)
        row, created = Notification.objects.get_or_create(
            dedupe_key=key,
            defaults={"recipient_id": uid, "kind": kind, "club": club, "payload": payload, "state": state},
        )
        if created:
            written.append(row)
            if state == Notification.State.QUEUED:
                outbox.ask_notify(uid)
    return written


# --- the events (each called by one line in the service where the event happens) ---


def round_opened(night_round) -> list[Notification]:
    """Each seated member: "Round 2: table 3", the game and who else sits there, opening his table."""
    night = night_round.night
    club = night.season.league.club
    where = {"club": club.name, "league": night.season.league.name, "night": night.date.isoformat()}
    tables = list(night_round.tables.select_related("session"))
    players = Player.objects.in_bulk([p for t in tables for p in t.players])
    messages = []
    for table in tables:
        url = (
            table.session.get_absolute_url()
            if table.session_id
            else reverse("league_detail", args=[night.season.league_id])
        )
        for pid in table.players:
            uid = players[pid].user_id
            if uid is None:
                continue
            messages.append(
                (
                    uid,
                    f"your_table:{table.pk}:{uid}",
                    {
                        "round": night_round.number,
                        "table": table.position + 1,
                        "game": game_name(table.game),
                        "with": [players[o].name for o in table.players if o != pid],
                        "url": url,
                        **where,
                    },
                )
            )
    return _write(messages, Kind.YOUR_TABLE, club)


STAGES = {"semi": "semi", "cut": "final"}  # a tournament round's kind -> the stage its message names


def pods_paired(tournament_round, pod_games: dict[int, str]) -> list[Notification]:
    """Each seated player of a tournament's round (issue 51): "<game>, round 2, table 3, seat 4" (Winter cup) and
    who else sits there, opening the tournament's day page (where his table's link appears once it opens).
    `pod_games`: each pod's game by its position, in words."""
    tournament = tournament_round.tournament
    club = tournament.club
    where = {"club": club.name, "league": tournament.name, "day": tournament.date.isoformat()}
    pods = list(tournament_round.pods.order_by("position"))
    players = Player.objects.in_bulk([p for pod in pods for p in pod.players])
    url = reverse("tournament_day", args=[tournament.pk])
    messages = []
    for pod in pods:
        for seat, pid in enumerate(pod.players, start=1):
            uid = players[pid].user_id
            if uid is None:
                continue
            messages.append(
                (
                    uid,
                    f"your_table:tournament_pod:{pod.pk}:{uid}",
                    {
                        "round": tournament_round.number,
                        "table": pod.position + 1,
                        "seat": seat,
                        **({"stage": STAGES[tournament_round.kind]} if tournament_round.kind in STAGES else {}),
                        "game": pod_games.get(pod.position, ""),
                        "with": [players[o].name for o in pod.players if o != pid],
                        "url": url,
                        **where,
                    },
                )
            )
    return _write(messages, Kind.YOUR_TABLE, club)


def _result_where(result: Result) -> dict:
    """Where a result was played, for its messages: its club and league, and the night (its date) with the round
    and table when it was played at one (a table's result, or a game entered by hand for a night's table)."""
    from leagues.models import NightTable
    from leagues.nights.selectors import night_of_result

    league = result.season.league if result.season_id else None
    club = league.club if league is not None else result.club
    where: dict = {"club": club.name if club is not None else None, "league": league.name if league else None}
    table = (
        NightTable.objects.filter(session_id=result.session_id).select_related("round__night").first()
        if result.session_id
        else None
    )
    if table is not None:
        where |= {"night": table.round.night.date.isoformat(), "round": table.round.number, "table": table.position + 1}
    elif league is not None:
        night = night_of_result(result)
        if night is not None:
            where["night"] = night.date.isoformat()
    return where


def _result_payload(result: Result, mine: set[int], names: dict[int, str], where: dict, **extra) -> dict:
    """`with`: the others at the table, besides the players (`mine`) the recipient signs for."""
    return {
        "result": result.pk,
        "game": game_name(result.game),
        "played_on": result.played_on.isoformat(),
        "with": [name for pid, name in names.items() if pid not in mine],
        "url": reverse("results_waiting"),
        **where,
        **extra,
    }


def result_recorded(result: Result, *, reminder: bool = False) -> list[Notification]:
    """Each person who answers for a player not signed yet (and the result does not count yet): a player with an
    account for himself, and for a guest whoever signs for it (access.result_signers: who added it, the league's
    club's managers), told which guests are his to sign, so an organiser hears of them as his badge counts them."""
    from leagues.common.access import result_signers

    if result.status == Result.Status.COUNTED:
        return []
    entries = list(result.entries.select_related("player").order_by("rank", "pk"))
    names = {e.player_id: e.player.name for e in entries}
    signed = set(result.sign_offs.values_list("player_id", flat=True))
    prefix = "sign_off_reminder" if reminder else "sign_off"
    mine: dict[int, set[int]] = {}  # each person to tell -> the players he signs for
    guests: dict[int, list[str]] = {}  # -> the names of the guests among them
    signers = result_signers(result)
    for entry in entries:
        if entry.player_id in signed:
            continue
        for uid in sorted(signers.get(entry.player_id, set())):
            mine.setdefault(uid, set()).add(entry.player_id)
            if entry.player.user_id is None:
                guests.setdefault(uid, []).append(entry.player.name)
    messages = []
    where = _result_where(result) if mine else {}
    for uid, players in mine.items():
        extra = {"reminder": reminder} | ({"for": guests[uid]} if uid in guests else {})
        messages.append((uid, f"{prefix}:{result.pk}:{uid}", _result_payload(result, players, names, where, **extra)))
    return _write(messages, Kind.SIGN_OFF, result.club)


def dispute_url(result: Result) -> str:
    """Where a dispute's message leads: the result's row on its league page (`#result-<pk>`: the page lists every
    disputed result, and a flagged one for its managers), else its table, else the sign-off page."""
    if result.season_id:  # ?result=: the page lists that row however many others wait or were disputed
        return reverse("league_detail", args=[result.season.league_id]) + f"?result={result.pk}#result-{result.pk}"
    if result.session_id:
        return result.session.get_absolute_url()
    return reverse("results_waiting")


def _result_place(result: Result) -> dict:
    """Which result a manager is asked to look at: its club, league, night, round and table, and a link to the
    result itself."""
    return _result_where(result) | {"url": dispute_url(result)}


def result_disputed(result: Result, *, by: AbstractBaseUser, note: str) -> list[Notification]:
    """Its recorder and the club's managers (but not who disputed): who disputed which result (the game, the day,
    the league and the night's table), why, and a link to it."""
    from leagues.common.access import club_manager_user_ids

    told = {result.created_by_id} if result.created_by_id else set()
    managers = set(club_manager_user_ids(result.club_id)) if result.club_id else set()
    told |= managers
    told.discard(by.pk)
    who = getattr(getattr(by, "player", None), "name", None) or by.get_username()
    payload = {
        "result": result.pk,
        "game": game_name(result.game),
        "played_on": result.played_on.isoformat(),
        "by": who,
        "by_user": by.pk,
        "note": note[:200],
        **_result_place(result),
    }
    # A result that counts and is flagged has its row in the league page's "disputed after counting", which only
    # its managers see: its recorder's link opens the league page itself, not an anchor missing there.
    plain = payload | {"url": payload["url"].split("#")[0]}
    flagged_only = result.status == Result.Status.COUNTED and result.season_id
    return _write(
        [
            (uid, f"dispute:{result.pk}:{by.pk}:{uid}", plain if flagged_only and uid not in managers else payload)
            for uid in sorted(told)
        ],
        Kind.DISPUTE,
        result.club,
    )


# --- each person's choices and devices ---


def preference_for(user: AbstractBaseUser) -> Preference:
    return Preference.objects.filter(user=user).first() or Preference(user=user, language=get_language() or "en")


@transaction.atomic
def preference_save(*, user: AbstractBaseUser, choices: dict[str, str], language: str) -> Preference:
    preference = preference_for(user)
    for kind in Kind.values:
        setattr(preference, kind, choices[kind])
    preference.language = language
    preference.save()
    return preference


class EndpointTaken(Exception):
    """The endpoint is another account's device: it is not moved without proof (he logs out there first)."""


@transaction.atomic
def device_subscribe(
    *, user: AbstractBaseUser, endpoint: str, p256dh: str, auth: str, session_key: str, user_agent: str = ""
) -> PushSubscription:
    """One row per endpoint: a device that subscribes again is updated, never doubled. An endpoint another
    account registered raises EndpointTaken (knowing someone's endpoint must not move his pushes to you). At most
    PUSH_DEVICES_PER_ACCOUNT devices: a new one beyond it replaces his oldest (his account's row is locked, so two
    registrations at once count right)."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    if existing is not None and existing.user_id != user.pk:
        raise EndpointTaken(endpoint)
    subscription, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={
            "user": user,
            "p256dh": p256dh,
            "auth": auth,
            "session_key": session_key,
            "user_agent": user_agent[:200],
        },
    )
    keep = list(
        PushSubscription.objects.filter(user=user)
        .order_by("-created_at", "-pk")
        .values_list("pk", flat=True)[: settings.PUSH_DEVICES_PER_ACCOUNT]
    )
    PushSubscription.objects.filter(user=user).exclude(pk__in=keep).delete()
    if not Preference.objects.filter(user=user).exists():  # the language his pushes are worded in
        Preference.objects.create(user=user, language=get_language() or "en")
    return subscription


@transaction.atomic
def club_hours_save(
    *, club: Club, user: AbstractBaseUser, digest_hour: int, quiet_from: int, quiet_until: int
) -> ClubHours:
    """Managers only: the hour of the club's daily e-mail and its quiet hours (equal hours: none)."""
    from leagues.common.access import require_club_manager

    require_club_manager(club, user)
    hours, _created = ClubHours.objects.update_or_create(
        club=club, defaults={"digest_hour": digest_hour, "quiet_from": quiet_from, "quiet_until": quiet_until}
    )
    return hours


@transaction.atomic
def email_stop(*, user_id: int) -> int:
    """The digest's unsubscribe: every kind that went by e-mail goes nowhere; the messages waiting for it are
    dropped. Returns how many kinds changed."""
    preference = Preference.objects.select_for_update().filter(user_id=user_id).first()
    if preference is None:
        return 0
    changed = [kind for kind in Kind.values if preference.channel(kind) == Channel.EMAIL]
    for kind in changed:
        setattr(preference, kind, Channel.NONE)
    preference.save()
    Notification.objects.filter(recipient_id=user_id, state=Notification.State.DIGEST).update(
        state=Notification.State.DROPPED
    )
    return len(changed)


def device_unsubscribe(*, user: AbstractBaseUser, endpoint: str) -> int:
    return PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()[0]


def imported_to_sign(results: Iterable[Result]) -> list[Notification]:
    """An import: one message per person for all its plays that wait for his sign-off ("26 plays imported")."""
    from leagues.models import ResultEntry, SignOff

    pending = [r for r in results if r.status != Result.Status.COUNTED]
    if not pending:
        return []
    signed = set(SignOff.objects.filter(result__in=pending).values_list("result_id", "player_id"))
    played_on = {r.pk: r.played_on for r in pending}
    days: dict[int, list] = {}  # each person -> the days of the plays waiting for him
    for result_id, player_id, user_id in ResultEntry.objects.filter(
        result__in=pending, player__user__isnull=False
    ).values_list("result_id", "player_id", "player__user_id"):
        if (result_id, player_id) not in signed:
            days.setdefault(user_id, []).append(played_on[result_id])
    first = min(r.pk for r in pending)
    url = reverse("results_waiting")
    club = pending[0].club
    return _write(
        [
            (
                uid,
                f"import:{first}:{uid}",
                {
                    "count": len(on),
                    "url": url,
                    "club": club.name if club is not None else None,
                    "first": min(on).isoformat(),
                    "last": max(on).isoformat(),
                },
            )
            for uid, on in sorted(days.items())
        ],
        Kind.SIGN_OFF,
        club,
    )


STANDINGS_SHOWN = 3  # the top of the night's table in the message; the link opens the whole of it


def result_settled(result: Result) -> list[Notification]:
    """A night's table counted (played on the phones or entered by hand: leagues.nights.selectors.night_results):
    once every table opened that night counts, each member who checked in gets the
    night's standings (again after a later round's last table: the key counts the tables)."""
    if result.status != Result.Status.COUNTED or not (result.session_id or result.season_id):
        return []
    from leagues.models import NightCheckIn
    from leagues.nights.selectors import night_of_result, night_results, night_sessions, night_standings

    night = night_of_result(result)  # a table's own result, or one entered by hand for a night table
    if night is None:
        return []
    sessions = night_sessions(night)
    counted = sum(r.status == Result.Status.COUNTED for r in night_results(night).values())
    if counted < len(sessions):
        return []
    standings = night_standings(night)
    payload = {
        "league": night.season.league.name,
        "club": night.season.league.club.name,
        "night": night.date.isoformat(),
        "url": reverse("night_standings", args=[night.pk]),
        "top": [
            {"place": row["position"], "name": row["name"], "points": row["points"]}
            for row in standings["rows"][:STANDINGS_SHOWN]
        ],
    }
    users = NightCheckIn.objects.filter(night=night, player__user__isnull=False).values_list(
        "player__user_id", flat=True
    )
    return _write(
        [(uid, f"standings:{night.pk}:{counted}:{uid}", payload) for uid in sorted(set(users))],
        Kind.STANDINGS,
        night.season.league.club,
    )
