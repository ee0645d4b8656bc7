"""A second game plugged in beside Shitennō: one engine line and one adapter line, and the shared pages, the
move log and the leagues take it as they are (issue 13). The game here is a toy dice race, not a real one."""

from __future__ import annotations

import pytest
from django import forms
from django.template import engines
from django.urls import reverse

from games import engines as game_engines
from games import plugins
from games.engines.base import IllegalMove, InvalidMove, Outcome, Placing
from games.forms import TableSetupForm
from games.models import TableSession
from leagues.common.selectors import rating_scope_choices
from leagues.models import Result
from leagues.people.players import player_for_user

pytestmark = pytest.mark.django_db


class DiceRace:
    """Seats roll in turn and add the pips; the round in which someone reaches the target is the last."""

    slug, name, min_players, max_players, rules_version, score_unit = "dice", "Dice race", 2, 3, "1", "pips"

    def initial_state(self, setup: dict) -> dict:
        if not isinstance(setup.get("target"), int) or setup["target"] < 1:
            raise InvalidMove("The target is a whole number of pips.", code="dice.target")
        return {"target": setup["target"], "pips": [0] * setup["players"], "turn": 0}

    def apply(self, state: dict, move: dict) -> dict:
        if move.get("type") != "roll" or move.get("pips") not in range(1, 7):
            raise InvalidMove("A roll is 1 to 6 pips.", code="dice.roll")
        if self.outcome(state) or move.get("seat") != state["turn"]:
            raise IllegalMove("Not your roll.", code="dice.turn")
        pips = list(state["pips"])
        pips[move["seat"]] += move["pips"]
        return {**state, "pips": pips, "turn": (state["turn"] + 1) % len(pips)}

    def hint(self, state: dict) -> dict:
        over = self.outcome(state) is not None
        return {"to_move": None if over else state["turn"], "moves": [] if over else ["roll"]}

    def outcome(self, state: dict) -> Outcome | None:
        pips = state["pips"]
        if state["turn"] != 0 or max(pips) < state["target"]:
            return None
        ranks = [1 + sum(other > mine for other in pips) for mine in pips]
        placings = sorted(
            (Placing(seat, ranks[seat], pips[seat]) for seat in range(len(pips))), key=lambda p: (p.rank, p.seat)
        )
        return Outcome("target_reached", tuple(placings))

    def score(self, state: dict) -> list[int]:
        return list(state["pips"])

    def describe(self, state: dict, move: dict, *, checked: bool = False) -> str:
        return f"Seat {move['seat'] + 1} rolls {move['pips']}"


class DiceSetupForm(TableSetupForm):
    seat0_player = forms.ChoiceField(required=False)
    seat1_player = forms.ChoiceField(required=False)
    target = forms.IntegerField(label="Target", min_value=1)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for name in ("seat0_player", "seat1_player"):
            self.fields[name].choices = self.player_choices

    def clean(self) -> dict:
        data = super().clean()
        data["seats"] = [
            {"player": self.players.get(data.get(f"seat{i}_player") or ""), "guest_name": f"guest {i}"}
            for i in range(2)
        ]
        data["setup"], data["deal"] = {"players": 2, "target": data.get("target")}, False
        return data


def _template(text: str):
    return engines["django"].from_string(text)


class DiceGame(plugins.GameAdapter):
    slug = "dice"
    score_unit = "pips"
    table_heading = "Dice race table"
    setup_form_class = DiceSetupForm
    setup_template = _template("{{ form.seat0_player }}{{ form.seat1_player }}{{ form.target }}")
    board_template = _template('<p class="pips">{{ pips|join:"-" }}</p><p>{{ expected_moves|join:"," }}</p>')
    panel_template = _template('<form data-move="roll"></form>')
    outcome_template = _template('<p class="winner">{{ outcome.winners|join:"," }}</p>')
    move_labels = {"roll": "roll the die"}

    def move_from_post(self, state: dict, data) -> dict:
        return {"type": data.get("type"), "seat": state["turn"], "pips": int(data.get("pips") or 0)}

    def table_context(self, session, seats, query) -> dict:
        return {"pips": session.state["pips"], "hint": self.engine.hint(session.state)}

    def outcome_context(self, outcome: dict, names: list[str], state: dict) -> dict:
        return {"winners": [names[p["seat"]] for p in outcome["placings"] if p["rank"] == 1]}


@pytest.fixture
def dice(monkeypatch):
    """The toy game registered beside Shitennō, as its one engine line and one adapter line would."""
    monkeypatch.setitem(game_engines.REGISTRY, "dice", DiceRace())
    monkeypatch.setitem(plugins.ADAPTERS, "dice", DiceGame())
    return plugins.ADAPTERS["dice"]


def test_it_offers_a_second_registered_game_on_the_home_new_table_and_rankings_pages(client, alice, dice):
    home = client.get("/").content.decode()
    assert "Dice race" in home and "?game=dice" in home and "?game=shitenno" in home
    client.force_login(alice)
    page = client.get(reverse("table_new") + "?game=dice").content.decode()
    assert 'name="target"' in page and "gate_kanto" not in page
    assert ("game", "dice", "Dice race") in rating_scope_choices(viewer=alice)
    assert "Dice race" in client.get(reverse("rankings")).content.decode()


def test_it_plays_a_second_game_through_the_shared_pages_and_feeds_a_tied_result_to_the_leagues(client, alice, dice):
    client.force_login(alice)
    response = client.post(
        reverse("table_new"),
        {  # seat 1 is a guest named by the form
            "game": "dice",
            "seat0_player": str(player_for_user(alice).pk),
            "target": 5,
            "is_public": "on",
        },
    )
    assert response.status_code == 302
    session = TableSession.objects.get(game="dice")
    assert "roll the die" in client.get(session.get_absolute_url()).content.decode()
    move = reverse("table_move", args=[session.code])
    for seq, pips in enumerate([6, 6]):  # both reach 6 in the first round: a tie
        assert client.post(move, {"type": "roll", "pips": pips, "seq": seq}).status_code == 302
    assert client.post(move, {"type": "roll", "pips": 9, "seq": 2}).status_code == 400  # the engine says no
    session.refresh_from_db()
    assert session.status == "finished" and session.outcome["placings"][0]["score"] == 6
    result = Result.objects.get(session=session)
    assert result.game == "dice" and sorted((e.rank, e.score) for e in result.entries.all()) == [(1, 6), (1, 6)]
    body = client.get(f"/api/tables/{session.code}/score/").json()
    assert body["score"] == [6, 6] and body["favour"] is None  # the old name is Shitennō's only
    assert "alice,guest 1" in client.get(session.get_absolute_url()).content.decode()


def test_a_game_without_a_calculator_or_statistics_has_no_such_pages(client, dice):
    assert client.get(reverse("final_count", args=["dice"])).status_code == 404
    assert client.get(reverse("game_stats", args=["dice"])).status_code == 404
    assert client.get(reverse("game_stats", args=["nosuchgame"])).status_code == 404
    assert client.get(reverse("final_count")).status_code == 200  # Shitennō's, the game that has one
