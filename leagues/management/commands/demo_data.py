"""Demo data for `make run`: a club, eight players, a league, finished and running tables of the registered
games (each game's adapter plays its demo game, GameAdapter.demo_game)."""

import datetime

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from games import services as game_services
from games.plugins import all_games
from leagues.club import clubs, seasons
from leagues.models import Club, Result, VerifiedAddress
from leagues.people.players import player_for_user, user_sign_up
from leagues.result import results

USERNAMES = ["hana", "kenji", "yuki", "taro", "emi", "sora", "ren", "aiko"]
PASSWORD = "shitenno-demo-2026"
CLUB = "Edo Gamers"


class Command(BaseCommand):
    help = f"Load demo data once: users {', '.join(USERNAMES)} (password {PASSWORD}), the club {CLUB!r} and tables."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--games", type=int, default=4, help="Finished tables to play out (default 4).")

    @transaction.atomic
    def handle(self, *args, games: int, **options) -> None:
        if Club.objects.filter(name=CLUB).exists():
            self.stdout.write("Demo data already loaded.")
            return
        User = get_user_model()
        users = [
            User.objects.filter(username=name).first()
            or user_sign_up(username=name, email=f"{name}@example.org", password=PASSWORD)
            for name in USERNAMES
        ]
        for user in users:  # the demo's people read their (console) mails: their example addresses count as verified
            VerifiedAddress.objects.get_or_create(
                user=user, defaults={"email": user.email, "verified_at": timezone.now()}
            )
        club = clubs.club_create(
            name=CLUB, owner=users[0], description="A Tuesday-night club that plays Shitennō.", members_public=True
        )
        for user in users[1:]:
            clubs.club_join(token=club.invite_token, user=user)
        players = [player_for_user(user) for user in users]
        demo_games = [game for game in all_games() if game.demo_players]
        league = seasons.league_create(
            club=club, name="Tuesday League", games=[game.slug for game in demo_games], user=users[0]
        )
        today = timezone.localdate()
        seasons.season_create(
            league=league,
            name=str(today.year),
            starts_on=today - datetime.timedelta(days=90),
            ends_on=today + datetime.timedelta(days=90),
            user=users[0],
        )
        for n in range(games + 1):
            game = demo_games[n % len(demo_games)]  # the games take turns
            seats = game.demo_players[n % len(game.demo_players)]
            # the table still in play seats the first accounts, so the README's first login sits at it
            first = 0 if n == games else n * 3
            table_players = [players[(first + i) % len(players)] for i in range(seats)]
            setup, moves = game.demo_game(100 + n, seats)
            session = game_services.session_create(
                game=game.slug,
                created_by=users[players.index(table_players[0])],
                players=table_players,
                setup=setup,
                club=club,
            )
            host = table_players[0].user
            played = moves if n < games else moves[: len(moves) // 3]  # the last table is still being played
            for seq, move in enumerate(played):
                game_services.move_record(session=session, seq=seq, move=move, user=host)
            result = Result.objects.filter(session=session).first()
            for player in table_players if result else []:  # everyone at the table signs the result off
                results.result_sign_off(result=result, user=player.user)
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {len(users)} players in {CLUB}, its Tuesday League, {games} finished tables and one in play. "
                f"Log in as any of {', '.join(USERNAMES)} with the password {PASSWORD}."
            )
        )
