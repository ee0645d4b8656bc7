"""Run as a script: two phones end the same turn at once on a SQLite file database, as in `make run`.

Prints one JSON line: the two answers' status codes, the stale phone's notice, and whether the posts overlapped.
They do, every run, without sleeping: the first phone's move stops inside its write transaction (in the engine)
until the second phone's request starts its own transaction (BEGIN IMMEDIATE, which then waits for the lock),
and `overlapped` says that this happened rather than the first simply finishing first."""

import json
import os
import sys
import threading

import django

sys.path.insert(0, os.getcwd())
django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db.backends.sqlite3.base import DatabaseWrapper  # noqa: E402
from django.test import Client  # noqa: E402

from games import services  # noqa: E402
from games.engines.shitenno import ShitennoEngine  # noqa: E402
from games.engines.shitenno.simulation import random_legal_game  # noqa: E402
from leagues.people.players import player_for_user, user_sign_up  # noqa: E402

assert settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"), settings.DATABASES
call_command("migrate", verbosity=0)
alice = user_sign_up(username="alice", email="alice@example.org", password="a long passphrase 42")
bob = user_sign_up(username="bob", email="bob@example.org", password="a long passphrase 42")
setup, moves = random_legal_game(1, 2)
session = services.session_create(
    game="shitenno", created_by=alice, setup=setup, players=[player_for_user(alice), player_for_user(bob)]
)
turn = next(i for i, move in enumerate(moves) if move["type"] == "end_turn")
for seq, move in enumerate(moves[:turn]):
    services.move_record(session=session, seq=seq, move=move, user=alice)

apply = ShitennoEngine.apply


first_inside = threading.Event()  # a phone's move is inside its write transaction, in the engine
second_begins = threading.Event()  # the other phone's post has started its transaction (before or meanwhile)
posting: set[int] = set()  # the phones' threads once past the start line
begun: set[int] = set()  # those of them that have started their move's transaction
holder: list[int] = []  # the thread whose move is inside
overlap: list[bool] = []
note = threading.Lock()


def held_apply(self, state, move):
    with note:
        first = not holder
        if first:
            holder.append(threading.get_ident())
            first_inside.set()
            if begun - set(holder):  # the other phone is already waiting for the write lock
                second_begins.set()
    if first:
        overlap.append(second_begins.wait(timeout=60))  # a failed wait is reported, not hidden
    return apply(self, state, move)


begin = DatabaseWrapper._start_transaction_under_autocommit


def noted_begin(self):
    me = threading.get_ident()
    with note:
        if me in posting:
            begun.add(me)
            if holder and me != holder[0]:
                second_begins.set()
    return begin(self)


ShitennoEngine.apply = held_apply
DatabaseWrapper._start_transaction_under_autocommit = noted_begin
start = threading.Barrier(2)
answers: dict[str, tuple[int, str]] = {}


def phone(user) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    start.wait()
    with note:
        posting.add(threading.get_ident())
    response = client.post(f"/tables/{session.code}/move/", {"type": "end_turn", "seq": turn}, HTTP_HX_REQUEST="true")
    answers[user.username] = (response.status_code, response.content.decode())


threads = [threading.Thread(target=phone, args=(user,)) for user in (alice, bob)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(
    json.dumps(
        {
            "statuses": sorted(status for status, _html in answers.values()),
            "stale": next((html for status, html in answers.values() if status == 409), ""),
            "overlapped": overlap == [True],
        }
    )
)
