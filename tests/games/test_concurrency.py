"""Phones submitting at once, on the real PostgreSQL: no move lost or doubled, answers 201 or 409."""

import threading

import pytest
from django.db import connection
from django.test import Client

from games import services
from games.engines.shitenno.simulation import random_legal_game
from games.models import MoveEvent
from leagues.people.players import player_for_user


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("phones", [2, 4, 8])
def test_it_lets_exactly_one_of_simultaneous_moves_land(alice, bob, phones):
    setup, moves = random_legal_game(5, 2)
    table = services.session_create(
        game="shitenno",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup=setup,
    )
    statuses: list[int] = []
    barrier = threading.Barrier(phones)

    def phone(user, key: str) -> None:
        client = Client()
        client.force_login(user)
        barrier.wait()
        response = client.post(
            f"/api/tables/{table.code}/moves/",
            {"seq": 0, "move": moves[0]},
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=key,
        )
        statuses.append(response.status_code)
        connection.close()

    threads = [threading.Thread(target=phone, args=(alice if i % 2 else bob, f"phone-{i}")) for i in range(phones)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [201] + [409] * (phones - 1)
    assert list(MoveEvent.objects.filter(session=table).values_list("seq", flat=True)) == [1]


@pytest.mark.django_db(transaction=True)
def test_it_creates_one_move_for_one_key_sent_twice_at_once(alice, bob):
    setup, moves = random_legal_game(5, 2)
    table = services.session_create(
        game="shitenno",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup=setup,
    )
    bodies: list[tuple[int, dict]] = []
    barrier = threading.Barrier(2)

    def phone() -> None:
        client = Client()
        client.force_login(alice)
        barrier.wait()
        response = client.post(
            f"/api/tables/{table.code}/moves/",
            {"seq": 0, "move": moves[0]},
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY="same-key",
        )
        bodies.append((response.status_code, response.json()))
        connection.close()

    threads = [threading.Thread(target=phone) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(status for status, _ in bodies) == [200, 201]
    assert bodies[0][1] == bodies[1][1]
    assert MoveEvent.objects.filter(session=table).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_to_eight_phones_racing_on_every_move_two_hundred_times(alice, bob):
    """200 rounds, each move of a game raced by 2-8 phones: every answer 201 or 409, the log without gap."""
    import random

    rng = random.Random(2026)
    setup, moves = random_legal_game(9, 2)
    table = services.session_create(
        game="shitenno",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup=setup,
    )
    clients = []
    for i in range(8):
        client = Client()
        client.force_login(alice if i % 2 else bob)
        clients.append(client)
    url = f"/api/tables/{table.code}/moves/"
    for round_ in range(200):
        seq = round_ % len(moves)
        if seq == 0 and round_:
            table = services.session_create(
                game="shitenno", created_by=alice, players=[player_for_user(alice), player_for_user(bob)], setup=setup
            )
            url = f"/api/tables/{table.code}/moves/"
        phones = rng.randint(2, 8)
        statuses: list[int] = []
        barrier = threading.Barrier(phones)

        def phone(client, seq=seq, url=url, barrier=barrier, statuses=statuses) -> None:
            barrier.wait()
            response = client.post(url, {"seq": seq, "move": moves[seq]}, content_type="application/json")
            statuses.append(response.status_code)
            connection.close()

        threads = [threading.Thread(target=phone, args=(clients[i],)) for i in range(phones)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(statuses) == [201] + [409] * (phones - 1), (round_, statuses)
        assert list(MoveEvent.objects.filter(session=table).values_list("seq", flat=True)) == list(range(1, seq + 2))
