"""Run as a script: two phones end the same turn at once on a SQLite file database, as in `make run`.

Prints one JSON line: the two answers' status codes and the stale phone's notice. The engine is slowed down
so that both requests are inside their transaction at the same time, every run."""

import json
import os
import sys
import threading
import time

import django

sys.path.insert(0, os.getcwd())
django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402

from games import services  # noqa: E402
from games.engines.shitenno import ShitennoEngine  # noqa: E402
from games.engines.shitenno.simulation import random_legal_game  # noqa: E402
from leagues.players import player_for_user, user_sign_up  # noqa: E402

assert settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"), settings.DATABASES
call_command("migrate", verbosity=0)
alice = user_sign_up(username="alice", email="alice@example.org", password="a long passphrase 42")
bob = user_sign_up(username="bob", email="bob@example.org", password="a long passphrase 42")
setup, moves = random_legal_game(1, 2)
session = services.session_create(game="shitenno", created_by=alice, setup=setup,
                                  players=[player_for_user(alice), player_for_user(bob)])
turn = next(i for i, move in enumerate(moves) if move["type"] == "end_turn")
for seq, move in enumerate(moves[:turn]):
    services.move_record(session=session, seq=seq, move=move, user=alice)

apply = ShitennoEngine.apply


def slow_apply(self, state, move):
    time.sleep(0.3)
    return apply(self, state, move)


ShitennoEngine.apply = slow_apply
start = threading.Barrier(2)
answers: dict[str, tuple[int, str]] = {}


def phone(user) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    start.wait()
    response = client.post(f"/tables/{session.code}/move/", {"type": "end_turn", "seq": turn}, HTTP_HX_REQUEST="true")
    answers[user.username] = (response.status_code, response.content.decode())


threads = [threading.Thread(target=phone, args=(user,)) for user in (alice, bob)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps({"statuses": sorted(status for status, _html in answers.values()),
                  "stale": next((html for status, html in answers.values() if status == 409), "")}))
