"""Every page of the site with something to show on it, for the tests that read them all (the accessibility
engine in a browser, tests/browser/test_axe.py; the HTML validator, tests/site/test_html_valid.py): the demo data,
an outsider invited to its club, a guest with a claim link, a table in play and a finished one of each game, a
league night with a proposed round, a tournament day, an import waiting for its commit."""

from __future__ import annotations

import datetime
import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from games import services as game_services
from games.models import TableSession
from games.plugins import all_games
from leagues.club import clubs
from leagues.models import Club, League, Season
from leagues.people import players, verification
from leagues.people.players import player_for_user
from leagues.standings import store as standings_store
from leagues.standings import tally as tally_store
from tests.games import every_game, tiny


def _play_in_play_and_finished_tables(users: list) -> None:
    """Each game gets one table still being played and one finished, beside the demo data's: a legal game of its
    own (tests/games/every_game.py) with as many of `users` as its set-up seats."""
    players = [player_for_user(user) for user in users]
    club = Club.objects.get()
    for game in all_games():
        have = set(TableSession.objects.filter(game=game.slug).values_list("status", flat=True))
        for status, seed in (("playing", 9), ("finished", 8)):  # Pile seats six at seed 9
            if status in have:
                continue
            setup, moves = every_game.legal_game(game.slug, seed)
            seated = players[: every_game.seats(game.slug, setup)]
            session = game_services.session_create(
                game=game.slug, created_by=users[0], players=seated, setup=setup, club=club
            )
            played = moves if status == "finished" else moves[: len(moves) // 3]
            for seq, move in enumerate(played):
                game_services.move_record(session=session, seq=seq, move=move, user=users[0])


@pytest.fixture
def site(db, monkeypatch, settings):
    """The demo data, an outsider invited to its club, a guest with a claim link: every page has something to
    show; Pile, the test-only game (tests/games/tiny), registered beside the site's games. Returns the pages as
    (user or None, url) pairs."""
    tiny.register(monkeypatch, settings)
    call_command("demo_data", games=2, stdout=io.StringIO())
    for season in Season.objects.all():
        standings_store.standings_compute(season=season)
    tally_store.tallies_repair()  # the players' records and head-to-head, as the tally jobs keep them
    User = get_user_model()
    hana, kenji = User.objects.get(username="hana"), User.objects.get(username="kenji")
    yuki = User.objects.get(username="yuki")
    others = User.objects.exclude(pk__in=[kenji.pk, hana.pk, yuki.pk]).order_by("pk")
    _play_in_play_and_finished_tables([kenji, hana, yuki, *others])
    club, league = Club.objects.get(), League.objects.get()
    dora = players.user_sign_up(username="dora", email="dora@example.org", password="a long passphrase 42")
    clubs.club_member_add(club=club, player=players.player_for_user(dora), user=hana)
    guest = players.player_guest_create(name="Sora", created_by=kenji)
    claim = players.player_claim_link_create(player=guest, user=kenji)

    pages = [
        (None, reverse("home")),
        (None, reverse("sign_up")),
        (None, reverse("login")),
        (None, reverse("club_join", args=[club.invite_token])),
        (kenji, reverse("home")),
        (dora, reverse("club_list")),
        (dora, reverse("club_join", args=[club.invite_token])),
        (dora, reverse("player_claim", args=[claim])),
        (kenji, reverse("club_detail", args=[club.slug])),
        (kenji, reverse("league_detail", args=[league.pk])),
        (kenji, reverse("league_index")),
        (kenji, reverse("rankings")),
        (kenji, reverse("player_list")),
        (kenji, players.player_for_user(kenji).get_absolute_url()),
        (kenji, guest.get_absolute_url()),
        (kenji, reverse("final_count")),
        (kenji, reverse("guest_create")),
        (kenji, reverse("club_create")),
        (hana, reverse("league_create", args=[club.slug])),
        (hana, reverse("season_create", args=[league.pk])),
        (hana, reverse("result_create", args=[league.pk])),
        (hana, reverse("club_audit", args=[club.slug])),
        (kenji, reverse("password_change")),
        (None, reverse("api-docs")),
        (hana, reverse("import_start", args=[club.slug])),
        (hana, _import_preview(club, hana)),
        (hana, _import_preview(club, hana, reading=True)),
        *[(kenji, url) for url in _export_pages(club, kenji)],
        (hana, reverse("tournament_create", args=[club.slug])),
        (kenji, reverse("results_waiting")),
        (dora, reverse("account")),
        (None, reverse("verify_email", args=[verification.token_for(dora)])),
        (kenji, reverse("sse_board_new")),
    ]  # its region and save screens: test_samurai_empires_board_editor
    pages += _league_night(league, hana, kenji, User.objects.get(username="yuki"))
    pages += _tournament_day(club, hana, kenji)
    for game in all_games():
        pages.append((kenji, reverse("table_new") + f"?game={game.slug}"))
        if game.stats_template:
            pages.append((kenji, reverse("game_stats", args=[game.slug])))
        for session in TableSession.objects.filter(game=game.slug).order_by("status", "-pk").distinct("status"):
            pages.append((kenji, session.get_absolute_url()))
            pages.append((kenji, reverse("table_history", args=[session.code])))
    return pages


def _league_night(league, manager, member, newcomer) -> list:
    """A league night (issue 25) with a proposed round: the season's nights, the organiser's screen with its
    tap-to-swap seats, a member's check-in page before and after checking in, and the projected standings."""
    from leagues.nights import services as night_services

    season = league.seasons.order_by("-starts_on").first()
    night = night_services.night_open(
        season=season, user=manager, date=season.starts_on, games=league.games[:1], table_sizes=[2, 3, 4]
    )
    for user in (manager, member):
        night_services.night_check_in(night=night, user=user)
    night_services.round_propose(night=night, user=manager)
    return [
        (manager, reverse("season_nights", args=[season.pk])),
        (manager, reverse("night_detail", args=[night.pk])),
        (member, reverse("night_check_in", args=[night.pk])),
        (newcomer, reverse("night_check_in", args=[night.pk])),
        (None if league.club.members_public else member, reverse("night_standings", args=[night.pk])),
    ]


def _tournament_day(club, manager, member) -> list:
    """A tournament day (issue 51) in its first round with one pod's places in: the organiser's day page (QR,
    places forms, pairing), a player's (his table and seat), and the wall."""
    from leagues.tournaments import services as tournament_services

    tournament = tournament_services.tournament_create(
        club=club, user=manager, name="Winter cup", date=datetime.date.today(), games=["shitenno"]
    )
    entrants = [players.player_for_user(member)]
    entrants += [m.player for m in club.memberships.select_related("player").exclude(player=entrants[0])[:7]]
    for player in entrants:
        tournament_services.tournament_enter(tournament=tournament, user=manager, player=player, checked_in=True)
    pod = tournament_services.round_pair(tournament=tournament, user=manager).pods.first()
    tournament_services.pod_places(pod=pod, user=manager, places={p: n + 1 for n, p in enumerate(pod.players)})
    return [
        (manager, reverse("tournament_day", args=[tournament.pk])),
        (member, reverse("tournament_day", args=[tournament.pk])),
        (None if club.members_public else member, reverse("tournament_wall", args=[tournament.pk])),
    ]


def _export_pages(club, user) -> list[str]:
    """A large club's export file being made, ready, and failed (issue 46): its page in each state."""
    from leagues.imports.export_job import export_ask, export_build
    from leagues.models import ClubExport

    pages = []
    for kind in ("csv", "bgstats", "bgg"):
        made, _queue = export_ask(club, user, kind)
        pages.append(reverse("export_progress", args=[club.slug, made.token]))
    export_build(ClubExport.objects.get(club=club, kind="bgstats").token)
    ClubExport.objects.filter(club=club, kind="bgg").update(state=ClubExport.State.FAILED, error="failed")
    return pages


def _import_preview(club, user, *, reading: bool = False) -> str:
    """An upload waiting for its commit, as the import form leaves it (issues 27, 34): its preview page; `reading`,
    a large upload's page while the preview job reads it (issue 46)."""
    from leagues.imports.pending import pending_create
    from leagues.imports.preview import preview_ask

    data = (Path(__file__).parent / "leagues" / "fixtures" / "imports" / "bgstats.json").read_bytes()
    pending = pending_create(club=club, user=user, kind="bgstats", files=[("bgstats.json", data)])
    if reading:
        preview_ask(pending, {})
    return reverse("import_preview", args=[club.slug, pending.token])
