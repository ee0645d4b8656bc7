"""A name others read holds nothing they cannot see (issue 47, finding 7): "bob" + U+3164 (a Hangul filler) or a
braille blank passed the name rule, so a member could look like another. The rule refuses every format (Cf),
private-use (Co) and unassigned (Cn) character and the blank-looking letters and signs, and a name needs a
visible letter or digit; names in any script without those pass.
"""

from __future__ import annotations

import unicodedata

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from leagues.people.players import player_for_user
from shitenno_site.validation import name_problem

NAMED_INVISIBLES = (
    [chr(c) for c in range(0x200B, 0x2010)]
    + [chr(c) for c in range(0x2060, 0x2065)]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\ufeff", "\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u180e", "\u00ad"]
)
# Every character of the refused categories (no surrogates: they are refused as broken text, before).
INVISIBLE_CATEGORY = st.characters(categories=["Cf", "Co", "Cn"])
INVISIBLE = st.one_of(st.sampled_from(NAMED_INVISIBLES), INVISIBLE_CATEGORY)
ANY_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=20)
ORDINARY_NAMES = [
    "Alice",
    "Élodie van der Berg",
    "Jeroen d'Hondt",
    "Zoë Brouwer",
    "İlkay Gündoğan",
    "東京の侍",
    "山田 太郎",
    "やまだ",
    "محمد العلي",
    "Ørjan Ødegård",
    "Ĳsbrand",
    "Дмитрий",
    "Σωκράτης",
    "김민준",
    "O'Brien-Smith",
    "R2-D2",
    "José María",
    "ทักษิณ",
]


@given(before=ANY_TEXT, invisible=INVISIBLE, after=ANY_TEXT)
def test_a_name_with_any_invisible_character_is_refused(before, invisible, after):
    assert name_problem(f"{before}{invisible}{after}") is not None
    assert name_problem(f"Alice{invisible}") is not None


@given(name=st.sampled_from(ORDINARY_NAMES), padding=st.sampled_from(["", " ", "  "]))
def test_ordinary_names_in_many_scripts_pass(name, padding):
    assert name_problem(name) is None
    assert name_problem(f"{name}{padding}{name}") is None


@pytest.mark.parametrize("name", ["-", "...", "★", "\u3000", "\u3164\u3164", "\u2800"])
def test_a_name_needs_a_visible_letter_or_digit(name):
    assert name_problem(name) is not None


def test_the_refusal_says_why_in_english_and_dutch():
    with translation.override("en"):
        assert "invisible characters" in name_problem("bob\u200b")
        assert "letter or digit" in name_problem("--")
    with translation.override("nl"):
        assert "onzichtbare tekens" in name_problem("bob\u200b")
        assert "letter of cijfer" in name_problem("--")


def test_the_categories_cover_the_named_ones_that_are_format_characters():
    """The list the issue names is refused whether or not its characters are Cf (the fillers are letters)."""
    assert {unicodedata.category(ch) for ch in "\u3164\u115f\u1160\uffa0"} == {"Lo"}
    assert unicodedata.category("\u2800") == "So"


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["alice\u3164", "\u2800", "Alice\u200b", "\u115fAlice"])
def test_renaming_oneself_to_an_invisible_name_is_refused_on_the_api_and_the_page(api, client, alice, name):
    player = player_for_user(alice)
    response = api.login(alice).patch("/api/me/", {"name": name})
    assert response.status_code == 400 and "name" in response.json()["errors"]
    client.force_login(alice)
    response = client.post("/accounts/me/", {"name": name})
    assert response.status_code == 400
    player.refresh_from_db()
    assert player.name == "alice"


@pytest.mark.django_db
def test_a_guest_with_an_invisible_name_is_refused_and_not_made(api, alice):
    from leagues.models import Player

    before = Player.objects.count()
    response = api.login(alice).post("/api/players/", {"name": "bob\u2063"})
    assert response.status_code == 400 and "name" in response.json()["errors"]
    assert Player.objects.count() == before
