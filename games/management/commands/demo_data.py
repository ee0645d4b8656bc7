"""Demo data for `make run`: a club, eight players, finished and running Shitennō tables."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from games import services as game_services
from games.simulation import random_legal_game
from leagues import services as league_services
from leagues.models import Club

USERNAMES = ["hana", "kenji", "yuki", "taro", "emi", "sora", "ren", "aiko"]
PASSWORD = "shitenno-demo-2026"
CLUB = "Edo Gamers"


class Command(BaseCommand):
    help = f"Load demo data once: users {', '.join(USERNAMES)} (password {PASSWORD}), the club {CLUB!r} and tables."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=4, help="Finished tables to play out (default 4).")

    @transaction.atomic
    def handle(self, *args, games: int, **options):
        if Club.objects.filter(name=CLUB).exists():
            self.stdout.write("Demo data already loaded.")
            return
        User = get_user_model()
        users = [
            User.objects.filter(username=name).first()
            or league_services.user_sign_up(username=name, email=f"{name}@example.org", password=PASSWORD)
            for name in USERNAMES
        ]
        club = league_services.club_create(
            name=CLUB, owner=users[0], description="A Tuesday-night club that plays Shitennō.", members_public=True
        )
        for user in users[1:]:
            league_services.club_join(token=club.invite_token, user=user)
        players = [league_services.player_for_user(user) for user in users]
        for n in range(games + 1):
            seats = 2 + n % 3
            table_players = [players[(n * 3 + i) % len(players)] for i in range(seats)]
            setup, moves = random_legal_game(seed=100 + n, players=seats)
            session = game_services.session_create(
                game="shitenno", created_by=users[players.index(table_players[0])], players=table_players,
                setup=setup, club=club,
            )
            host = table_players[0].user
            played = moves if n < games else moves[: len(moves) // 3]  # the last table is still being played
            for seq, move in enumerate(played):
                game_services.move_record(session=session, seq=seq, move=move, user=host)
        self.stdout.write(self.style.SUCCESS(
            f"Loaded {len(users)} players in {CLUB}, {games} finished tables and one in play. "
            f"Log in as any of {', '.join(USERNAMES)} with the password {PASSWORD}."
        ))
