"""Whole Dutch (issue 17): everything an engine says, move descriptions, refusals and tie-breaks, is said in
Dutch on a Dutch page, from each game's catalogue (games/plugins/<slug>/phrases.py).

The codes are read from the engines' source (tests/games/phrase_codes.py), so a new refusal or sentence
without a catalogue entry, or without Dutch, fails here.
"""

import re

import pytest
from django.urls import reverse
from django.utils import dateformat, translation

from games import services
from games.engines.base import IllegalMove
from games.plugins import get_game
from leagues.people.players import player_for_user
from tests.games.every_game import SLUGS
from tests.games.phrase_codes import engine_codes
from tests.games.tables import two_player_setup
from tests.leagues.league_helpers import enter, join, league_with_season

# Every registered game, a new one as soon as it is listed, and Pile, the test-only game (tests/games/tiny).
DUTCH = {"HTTP_ACCEPT_LANGUAGE": "nl"}

# English words that are no Dutch words: one of them in a Dutch sentence means a piece left untranslated.
ENGLISH = {
    "the",
    "and",
    "must",
    "cannot",
    "already",
    "takes",
    "take",
    "with",
    "has",
    "have",
    "only",
    "not",
    "turn",
    "card",
    "cards",
    "tile",
    "tiles",
    "needs",
    "paid",
    "from",
    "this",
    "each",
    "every",
    "player",
    "players",
    "treasure",
    "army",
    "armies",
    "token",
    "space",
    "wins",
    "draws",
    "position",
    "game",
    "to",
    "by",
    "its",
    "their",
    "no",
    "you",
    "after",
    "left",
    "lost",
    "deck",
    "troop",
    "troops",
    "favour",
    "victory",
    "shared",
    "ends",
    "passes",
    "refuses",
    "accepts",
    "offers",
    "chooses",
    "splits",
    "golden",
    "exchange",
    "taking",
    "year",
    "era",
    "count",
    "rolls",
    "raids",
    "buys",
    "trades",
    "fewest",
    "resources",
    "harvests",
    "recruits",
    "attack",
    "attacks",
    "castle",
    "port",
    "summer",
    "autumn",
    "spring",
    "yellow",
    "blue",
}

# A value for each parameter that names a game word (said through the catalogue's words); others get a number.
SAMPLES = {
    "shitenno": {
        "province": "kanto",
        "troop": "sohei",
        "to": "koku",
        "on": "bushi",
        "bonus": "card_taking",
        "bonuses": ["exchange", "card_taking"],
        "title": "daimyo",
        "titles": "daimyo > sensei",
        "general": "Honda",
        "mover": "Ii",
        "tairo": "Sakai",
        "to_general": "Ii",
        "position": 2,
        "card": "bushi+sohei",
        "what": "lot_a",
        "move": "take_card",
        "open": ["place", "end_turn"],
        "type": "place",
        "letter": "A",
    },
    "teikoku": {
        "seat": 0,
        "defender": 1,
        "turn": 1,
        "holder": "port",
        "season": "autumn",
        "phase": "commerce",
        "current_phase": "war",
        "deck": "units",
        "decks": ["ninja", "market"],
        "termination": "longevity",
        "action": "a raid",
        "expected": "boolean",
        "clans": ["fujiwara", "minamoto"],
        "clan": "Fujiwara",
        "card": "Ronin",
        "note": "Kaartnotitie",
        "dice": "3+5",
        "field": "blood",
    },
    "samurai_empires": {
        "ai": "yellow",
        "location": "capital",
        "resource": "food",
        "kind": "bushido",
        "action": "harvest",
        "open": ["place", "pass"],
        "types": ["report"],
        "party": "Aiko",
        "region": "Kansai",
        "province": "Edo",
        "field": "era",
    },
}


def _state(slug: str) -> dict:
    """A state to read names from (Teikoku's refusals name seats; the catalogue names their clans)."""
    game = get_game(slug)
    if not game.demo_players:
        return {}  # Small Samurai Empires' words need no state: its parties are named in the phrases
    setup, _moves = game.demo_game(1, game.demo_players[0])
    return game.engine.initial_state(setup)


def _sample(slug: str, code: str) -> dict:
    """The phrase `code` with a value for each parameter its English sentence names."""
    catalogue = get_game(slug).phrases
    with translation.override("en"):
        english = str(catalogue.sentences[code])
    names = re.findall(r"%\((\w+)\)s", english)
    samples = {"parts": ["Aiko 12", "Ren 9"], **SAMPLES.get(slug, {})}  # the parts of a list or of sentences: a list
    return {"code": code, "params": {name: samples.get(name, 3) for name in names}}


def _say(slug: str, phrase: dict, language: str, state: dict) -> str:
    with translation.override(language):
        said = get_game(slug).phrases.say(phrase, state)
    assert said is not None, f"{phrase['code']} could not be said in {language}"
    return said


def _english_words(text: str) -> set[str]:
    """The English words left in a Dutch text, JSON field names in quotes and examples in brackets aside."""
    text = re.sub(r'"[^"]*"|\{[^}]*\}|\[[^\]]*\]', " ", text)
    return {word for word in re.findall(r"[a-z']+", text.lower()) if word in ENGLISH}


@pytest.mark.parametrize("any_game", SLUGS, indirect=True)
def test_every_code_the_engine_can_say_is_in_its_catalogue(any_game):
    slug = any_game.slug
    codes, unreadable = engine_codes(slug)
    assert not unreadable, "codes the test cannot read from the source:\n" + "\n".join(unreadable)
    # The reading found the engine's refusals and sentences, not an empty source: every code of the game's own
    # that its catalogue says is among them.
    own = {code for code in get_game(slug).phrases.sentences if code.startswith(f"{slug}.")}
    assert own and own <= codes, f"codes of {slug} the reading did not find: {sorted(own - codes)}"
    missing = sorted(codes - set(get_game(slug).phrases.sentences))
    assert not missing, f"codes of {slug} without a sentence in its catalogue: {missing}"


@pytest.mark.parametrize("any_game", SLUGS, indirect=True)
def test_every_move_description_refusal_and_tie_break_is_said_in_dutch(any_game):
    slug = any_game.slug
    codes, _unreadable = engine_codes(slug)
    catalogue = get_game(slug).phrases
    state = _state(slug)
    untranslated, english_left = [], []
    for code in sorted(codes):
        phrase = _sample(slug, code)
        english, dutch = _say(slug, phrase, "en", state), _say(slug, phrase, "nl", state)
        if code not in catalogue.names and dutch == english:
            untranslated.append(f"{code}: {english}")
        if _english_words(dutch):
            english_left.append(f"{code}: {dutch} ({', '.join(sorted(_english_words(dutch)))})")
    assert not untranslated, "said in English on a Dutch page:\n" + "\n".join(untranslated)
    assert not english_left, "English words in Dutch sentences:\n" + "\n".join(english_left)


def test_the_game_words_among_the_parameters_are_the_dutch_rulebooks():
    with translation.override("nl"):
        say = get_game("shitenno").phrases.say
        assert (
            say(
                {
                    "code": "shitenno.describe.place_bonus",
                    "params": {
                        "placed": {"code": "shitenno.describe.pass", "params": {"general": "Honda"}},
                        "bonus": "exchange",
                    },
                }
            )
            == "Honda past; neemt een Ruilen-tegel"
        )
        assert (
            say({"code": "shitenno.kokus_short", "params": {"province": "kanto", "position": 2, "cost": 6, "paid": 5}})
            == "De 2e positie van Kantō kost 6 Kokus; je betaalde 5."
        )


def test_a_code_the_catalogue_does_not_know_is_said_in_the_engines_english():
    error = IllegalMove("A rule the site has not heard of.", code="shitenno.no_such_rule", params={"n": 1})
    with translation.override("nl"):
        assert get_game("shitenno").say_error(error) == "A rule the site has not heard of."


# --- the pages ------------------------------------------------------------------------------------------


def _table(alice, bob):
    return services.session_create(
        game="shitenno",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup=two_player_setup(),
        colours=["red", "blue"],
    )


@pytest.mark.django_db
def test_a_tables_move_log_and_its_refusals_are_dutch_on_a_dutch_page(client, alice, bob):
    session = _table(alice, bob)
    tairo = session.state["sharing"]["tairo"]
    draw = {"type": "draw", "seat": tairo, "troops": ["samurai", "bushi", "sohei", "shinobi"], "kokus": [1, 2]}
    services.move_record(session=session, seq=0, move=draw, user=alice)
    services.move_undo(session=session, seq=1, user=alice)
    client.force_login(alice)
    page = client.get(session.get_absolute_url(), **DUTCH).content.decode()
    said = "Jaar 2 — Honda, Tairō, trekt Samurai, Bushi, Sōhei, Shinobi, Koku 1, Koku 2"
    assert said in page and f"Ongedaan gemaakt: {said}" in page
    assert "draws" not in page and "Year 2" not in page and "Undo:" not in page
    history = client.get(reverse("table_history", args=[session.code]), **DUTCH).content.decode()
    assert said in history and "draws" not in history
    # A refused move answers in Dutch on the page, and nothing is written.
    session.refresh_from_db()
    refused = client.post(
        reverse("table_move", args=[session.code]),
        {"type": "draw", "seq": session.head_seq, "key": "k1", "n_samurai": "1"},
        **DUTCH,
    )
    assert refused.status_code == 400
    body = refused.content.decode()
    assert "De Tairō trekt" in body and "The Tairō draws" not in body
    assert session.events.count() == 2


@pytest.mark.django_db
def test_the_api_says_the_refusal_in_dutch_and_names_the_rule(client, alice, bob):
    """The API's `detail` in the reader's language, as the table page says it (issue 48); `rule` and `params`
    stay the same in every language, for a client that says it in its own words."""
    session = _table(alice, bob)
    client.force_login(alice)
    tairo = session.state["sharing"]["tairo"]
    response = client.post(
        f"/api/tables/{session.code}/moves/",
        {"seq": 0, "move": {"type": "draw", "seat": tairo, "troops": [], "kokus": []}},
        content_type="application/json",
        **DUTCH,
    )
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] == "De Tairō trekt troepenkaarten: 4, Kokukaarten: 2; de zet heeft er 0 en 0."
    assert body["code"] == "IllegalMove"
    assert body["rule"] == "shitenno.draw_size"
    assert body["params"] == {"troops": 4, "kokus": 2, "got_troops": 0, "got_kokus": 0}
    assert not session.events.exists()


@pytest.mark.django_db
def test_the_league_page_names_the_game_and_its_months_in_dutch(client, club, alice, bob):
    join(club, bob)
    league, season = league_with_season(club, alice)
    result = enter(season, alice, [(alice, 1, 30), (bob, 2, 20)], days_ago=3)
    client.force_login(bob)
    page = client.get(f"/leagues/{league.pk}/", **DUTCH).content.decode()
    assert "· Shitennō, Go" in page and "· Shitennō:" in page  # the league's games and the result's, by name
    assert "shitenno, Go" not in page and "· shitenno:" not in page
    with translation.override("nl"):
        played = dateformat.format(result.played_on, "j M Y")
    with translation.override("en"):
        english = dateformat.format(result.played_on, "j M Y")
    assert played in page
    if played != english:  # every month but one abbreviates differently ("mrt", "mei", "okt", "nov" ...)
        assert english not in page
