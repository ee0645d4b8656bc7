"""A tournament day's reads (issue 51): what the day page, the wall, the CSV and the API show. One read of the
rounds and pods, one of the entries with their players' names; the standings computed from the pods' places
(leagues.tournaments.ranking), never stored."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Prefetch, Q, QuerySet
from django.shortcuts import get_object_or_404

from games.engines import UnknownGame
from games.plugins import game_name, get_game
from leagues.models import Club, Player

from . import cut, services
from .models import Tournament, TournamentEntry, TournamentPod, TournamentRound


def club_tournaments(club: Club) -> QuerySet[Tournament]:
    return Tournament.objects.filter(club=club).select_related("club").order_by("-date", "-pk")


@dataclass
class PodView:
    round: int
    position: int
    table: int  # 1 for the leaders' pod, as the tables are numbered in the hall
    game: str
    players: list[dict]  # {"id", "name", "seat" (1 for the first), "place" (None until played)}
    played: bool
    table_code: str = ""  # the site table opened for the pod, if any
    table_url: str = ""
    table_finished: bool = False  # its game has ended on the phones (a judge may settle the places from it)
    places_from: str = ""  # TournamentPod.PlacesFrom
    on_site: bool = False  # its game has tables on the site (the organiser may open one for the pod)
    count_label: str = ""  # what its game asks the organiser to count at the table before it opens

    @property
    def can_open(self) -> bool:
        return self.on_site and not self.table_code and not self.played


@dataclass
class RoundView:
    number: int
    kind: str
    pods: list[PodView]
    byes: list[str]
    bye_ids: list[int]
    clock_started_at: datetime.datetime | None
    clock_ends_at: datetime.datetime | None

    @property
    def playing(self) -> list[PodView]:
        return [pod for pod in self.pods if not pod.played]

    @property
    def can_open(self) -> bool:
        """Some pod still waits for its site table (the organiser's "Open the tables")."""
        return any(pod.can_open for pod in self.pods)


@dataclass
class Day:
    tournament: Tournament
    rounds: list[RoundView]
    standings: list[dict]
    entries: list[TournamentEntry]
    names: dict[int, str]
    over: bool
    winner: dict | None  # {"id", "name"} once the last round is played
    own_entry: TournamentEntry | None = None
    own_pod: PodView | None = None
    own_seat: int | None = None
    own_others: list[str] = field(default_factory=list)
    own_bye: bool = False
    may_judge: bool = False  # the viewer settles pods' places (the club's managers and the tournament's judges)
    judges: list[dict] = field(default_factory=list)  # {"id", "name"}

    @property
    def latest(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def final(self) -> RoundView | None:
        latest = self.latest
        return latest if latest is not None and latest.kind == TournamentRound.Kind.CUT else None

    @property
    def checked_in(self) -> int:
        return sum(1 for e in self.entries if e.checked_in_at is not None and e.dropped_after is None)


def _game(tournament: Tournament, position: int) -> str:
    game = services.pod_game(tournament, position)
    return game_name(game) if game else ""


def _site_table(game: str) -> dict:
    """Whether the site has tables for the game, and what it asks the organiser to count before one opens."""
    try:
        adapter = get_game(game)
    except UnknownGame:
        return {"on_site": False, "count_label": ""}
    return {"on_site": True, "count_label": str(adapter.night_count_label or "")}


def _number(value) -> float | int | None:
    """A Fraction as the pages show it: whole, or to two decimals."""
    if value is None:
        return None
    return int(value) if value.denominator == 1 else round(float(value), 2)


def standings_rows(tournament: Tournament, names: dict[int, str], cut_rounds: list | None = None) -> list[dict]:
    """The Swiss standings, or once the cut is played the final standings (cut.final_order: the final's places,
    then the other semi-finalists', then the Swiss standings), numbered in that order; the figures shown are the
    Swiss rounds'. `cut_rounds`: each cut round's played pods as {player: place}, in the order played."""
    swiss, _lots = services.tournament_standings(tournament)
    by_player = {r.player: r for r in swiss}
    order = cut.final_order([r.player for r in swiss], cut_rounds or [])
    rows = [by_player[p] for p in order]
    return [
        {
            "place": place,
            "player": r.player,
            "name": names.get(r.player, "?"),
            "points": _number(r.points),
            "opponents_average": _number(r.opponents_average),
            "average_place": _number(r.average_place),
            "head_to_head": r.head_to_head,
            "lot": None if r.lot is None else round(r.lot, 4),
        }
        for place, r in enumerate(rows, start=1)
    ]


def not_entered(tournament: Tournament) -> list[Player]:
    """The club's members and its guests who have not entered: the organiser's list to enter and check in."""
    entered = tournament.entries.values("player")
    return list(
        Player.objects.filter(Q(memberships__club=tournament.club) | Q(user__isnull=True, created_in=tournament.club))
        .exclude(pk__in=entered)
        .distinct()
        .order_by("name", "pk")
    )


def club_members(tournament: Tournament) -> list[Player]:
    """The club's members, who may be named the tournament's judges."""
    return list(Player.objects.filter(memberships__club=tournament.club).distinct().order_by("name", "pk"))


def _cut_places(rounds: list[RoundView]) -> list[list[dict[int, int]]]:
    """Each cut round's played pods as {player: place}, in the order played: what orders the final standings."""
    return [
        [{seat["id"]: seat["place"] for seat in pod.players} for pod in r.pods if pod.played]
        for r in rounds
        if r.kind != TournamentRound.Kind.SWISS
    ]


def tournament_day(tournament: Tournament, viewer: AbstractBaseUser | None = None) -> Day:
    entries = list(tournament.entries.select_related("player").order_by("pk"))
    names = {e.player_id: e.player.name for e in entries}
    minutes = datetime.timedelta(minutes=tournament.round_minutes)
    rounds = []
    pods_with_tables = Prefetch("pods", queryset=TournamentPod.objects.select_related("session"))
    for r in tournament.rounds.order_by("number").prefetch_related(pods_with_tables):
        pods = []
        for pod in r.pods.all():
            seated = [
                {"id": p, "name": names.get(p, "?"), "seat": n + 1, "place": pod.places.get(str(p))}
                for n, p in enumerate(pod.players)
            ]
            session = pod.session
            pods.append(
                PodView(
                    r.number,
                    pod.position,
                    pod.position + 1,
                    _game(tournament, pod.position),
                    seated,
                    bool(pod.places),
                    table_code=session.code if session else "",
                    table_url=session.get_absolute_url() if session else "",
                    table_finished=session is not None and session.status == session.Status.FINISHED,
                    places_from=pod.places_from,
                    **_site_table(services.pod_game(tournament, pod.position)),
                )
            )
        byes = r.pairing.get("byes", [])
        rounds.append(
            RoundView(
                r.number,
                r.kind,
                pods,
                [names.get(p, "?") for p in byes],
                byes,
                r.clock_started_at,
                r.clock_started_at + minutes if r.clock_started_at else None,
            )
        )
    day = Day(
        tournament,
        rounds,
        standings_rows(tournament, names, _cut_places(rounds)),
        entries,
        names,
        over=False,
        winner=None,
        judges=[{"id": p.pk, "name": p.name} for p in tournament.judges.order_by("name", "pk")],
    )
    latest = day.latest
    day.over = (
        latest is not None
        and not latest.playing
        and services.is_over(tournament, TournamentRound(number=latest.number, kind=latest.kind))
    )
    if day.over and day.final is not None:
        top = [p for pod in day.final.pods for p in pod.players if p["place"] == 1]
        day.winner = {"id": top[0]["id"], "name": top[0]["name"]} if len(day.final.pods) == 1 and top else None
    elif day.over and day.standings:
        day.winner = {"id": day.standings[0]["player"], "name": day.standings[0]["name"]}
    if viewer is not None and viewer.is_authenticated:
        day.may_judge = services.may_judge(tournament, viewer)
        day.own_entry = next((e for e in entries if e.player.user_id == viewer.pk), None)
        if day.own_entry is not None and latest is not None:
            day.own_bye = day.own_entry.player_id in latest.bye_ids
            for pod in latest.pods:
                for seat in pod.players:
                    if seat["id"] == day.own_entry.player_id:
                        day.own_pod, day.own_seat = pod, seat["seat"]
                        day.own_others = [p["name"] for p in pod.players if p["id"] != seat["id"]]
    return day


def tournament_pod(tournament: Tournament, number: int, position: int) -> TournamentPod:
    """Round `number`'s pod at `position` of the tournament (its round and club read with it); 404 for none."""
    return get_object_or_404(
        TournamentPod.objects.select_related("round__tournament__club"),
        round__tournament=tournament,
        round__number=number,
        position=position,
    )
