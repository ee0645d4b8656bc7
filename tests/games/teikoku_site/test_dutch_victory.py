"""Teikoku's victory said in Dutch: a clan "wint" (the verb, not the tie-breaker noun "overwinningen"), and the
Port is "de Haven" everywhere."""

from __future__ import annotations

import pytest

from games import services
from leagues.people.players import player_for_user

pytestmark = pytest.mark.django_db
DUTCH = {"HTTP_ACCEPT_LANGUAGE": "nl"}
TWO_CLANS = {"clans": ["fujiwara", "minamoto"], "units_deck": 0, "chosen_specials": ["ninja", "market"]}
MOVES = [
    {"type": "correction", "seat": 1, "from": 1, "to": "supply", "amount": 1, "note": "paid a debt"},
    {"type": "cards_leave", "seat": 0, "deck": "yakuza", "count": 4, "note": "card effect"},
]


def test_the_dutch_victory_line_says_wint_and_the_port_is_de_haven(client, alice, bob):
    session = services.session_create(
        game="teikoku", created_by=alice, setup=TWO_CLANS, players=[player_for_user(alice), player_for_user(bob)]
    )
    for move in MOVES:
        session.refresh_from_db()
        services.move_record(session=session, seq=session.head_seq, move=move, user=alice)
    client.force_login(alice)
    page = client.get(session.get_absolute_url(), **DUTCH).content.decode()
    victory = page.split('class="winner"', 1)[1].split("</p>", 1)[0]
    assert "</strong>\n    wint:" in victory and "overwinningen" not in victory
    assert "De Haven heeft 50 schat." in page
    assert "de haven" not in page and "De haven" not in page
