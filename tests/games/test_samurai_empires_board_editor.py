"""The Small Samurai Empires board editor (issue 30 §2): a club enters its board a region per screen, copies a
region to the next, gets the engine's refusals beside the fields in its own language, and saves the board the
set-up form then picks; nothing is saved until the engine accepts the whole board."""

from __future__ import annotations

import pytest

from games.engines.samurai_empires.board import check_board
from games.models import BoardSetup, TableSession
from games.plugins.samurai_empires.board_editor import DRAFT_KEY
from leagues.people.players import player_for_user
from tests.games.engines.samurai_empires.tables import BOARD, SOLO_BOARD

pytestmark = pytest.mark.django_db
DUTCH = {"HTTP_ACCEPT_LANGUAGE": "nl"}
START = "/games/samurai_empires/boards/new/"
SAVE = "/games/samurai_empires/boards/new/save/"


def region_url(n: int) -> str:
    return f"/games/samurai_empires/boards/new/region/{n}/"


def region_fields(region: dict) -> dict:
    """A region of the tests' board as the editor's screen posts it."""
    fields = {
        "name": region["name"],
        "values": " ".join(map(str, region["values"])),
        "influence_points": ", ".join(map(str, region["influence_points"])),
        "rows": "5",
    }
    for s, action in enumerate(region.get("spaces", [])):
        fields[f"space{s}"] = action
    for p, province in enumerate(region["provinces"]):
        fields[f"province{p}_name"] = province["name"]
        fields[f"province{p}_kind"] = province["kind"]
    return fields


def start(client, club, name="Our board", regions=4, **headers):
    return client.post(START, {"club": str(club.pk), "name": name, "regions": str(regions)}, **headers)


def enter_board(client, board: dict) -> None:
    for n, region in enumerate(board["regions"], start=1):
        response = client.post(region_url(n), region_fields(region))
        assert response.status_code == 302, response.content.decode()[:3000]


@pytest.fixture
def member(client, alice, club):
    client.force_login(alice)
    return alice


def test_a_club_enters_its_board_region_by_region_and_a_table_opens_from_it(client, member, club):
    assert start(client, club)["Location"] == region_url(1)
    enter_board(client, BOARD)
    assert not BoardSetup.objects.exists()  # nothing saved before the last screen
    response = client.post(SAVE, {})
    assert response.status_code == 302 and response["Location"] == "/tables/new/?game=samurai_empires"
    saved = BoardSetup.objects.get(club=club, name="Our board")
    assert saved.board == BOARD and saved.game == "samurai_empires" and saved.created_by == member
    assert DRAFT_KEY not in client.session
    page = client.get(response["Location"]).content.decode()
    assert "is saved for Edo Gamers" in page
    assert f'<option value="{saved.pk}" selected>Our board (Edo Gamers)</option>' in page  # picked already
    opened = client.post(
        "/tables/new/",
        {
            "game": "samurai_empires",
            "mode": "multiplayer",
            "players_count": "2",
            "seat0_player": str(player_for_user(member).pk),
            "seat1_guest": "Ren",
            "board_setup": str(saved.pk),
        },
    )
    assert opened.status_code == 302
    assert TableSession.objects.get().setup["board"]["regions"][0]["name"] == "Tohoku"


def test_copy_to_the_next_region_carries_the_numbers_and_kinds_but_no_names(client, member, club):
    start(client, club)
    first = region_fields(SOLO_BOARD["regions"][0])
    response = client.post(region_url(1), {**first, "action": "copy"})
    assert response["Location"] == region_url(2)
    page = client.get(region_url(2)).content.decode()
    assert "Copied from the region before" in page
    assert 'name="values" value="6 3 1"' in page and 'name="influence_points" value="0 1 2 4 7"' in page
    assert 'name="space3" value="move"' in page and 'value="move" id="id_space3_3" checked' in page
    assert 'value="capital" id="id_province0_kind_0" checked' in page
    assert 'name="province0_name"' in page and 'value="Tohoku Capital"' not in page
    assert 'name="name" maxlength="60" required id="id_name"' in page  # the name left for the club to enter
    # the copy is only a suggestion: region 2 is not entered until its screen is sent
    assert client.session[DRAFT_KEY]["regions"][1] is None
    assert client.get(SAVE)["Location"] == region_url(2)


def test_the_solo_parts_make_a_board_a_solo_table_opens_with(client, member, club):
    start(client, club, name="Solo board")
    enter_board(client, SOLO_BOARD)
    solo = {
        "order_attack": 2,
        "order_harvest": 2,
        "order_recruit": 2,
        "order_castle": 2,
        "destiny0": 4,
        "destiny1": 4,
        "destiny2": 4,
        "destiny3": 4,
        "seed_bushido": 6,
        "seed_food": 6,
    }
    response = client.post(SAVE, solo)
    assert response.status_code == 302
    saved = BoardSetup.objects.get(name="Solo board")
    assert saved.board == SOLO_BOARD
    check_board(saved.board, solo=True)
    opened = client.post(
        "/tables/new/",
        {
            "game": "samurai_empires",
            "mode": "solo",
            "players_count": "1",
            "seat0_player": str(player_for_user(member).pk),
            "board_setup": str(saved.pk),
        },
    )
    assert opened.status_code == 302 and TableSession.objects.get().state["mode"] == "solo"


def test_no_field_starts_with_a_number_that_could_pass_for_a_printed_one(client, member, club):
    start(client, club)
    page = client.get(region_url(1)).content.decode()
    assert 'name="values" maxlength="60" required' in page and 'name="values" value=' not in page
    assert 'name="influence_points" value=' not in page and '" checked' not in page
    finish = SOLO_BOARD
    enter_board(client, finish)
    page = client.get(SAVE).content.decode()
    assert 'type="number"' in page and 'type="number" name="order_attack" value=' not in page


def test_one_more_province_row_keeps_what_was_typed_and_saves_nothing(client, member, club):
    start(client, club)
    fields = {**region_fields(BOARD["regions"][0]), "action": "more"}
    page = client.post(region_url(1), fields)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="province5_name"' in html and 'name="rows" value="6"' in html and 'value="Tohoku South"' in html
    assert client.session[DRAFT_KEY]["regions"][0] is None


# --- refusals: said beside the fields, in the reader's language, nothing saved --------------------------------


def _without_capital(region: dict) -> dict:
    fields = region_fields(region)
    fields["province0_kind"] = "resource"
    return fields


@pytest.mark.parametrize(
    ("headers", "words"),
    [
        ({}, "Tohoku needs exactly one Capital and at least one Shrine province."),
        (DUTCH, "Tohoku heeft precies één Hoofdstad en minstens één Heiligdomprovincie nodig."),
    ],
)
def test_the_engines_refusal_is_said_in_the_game_s_words(client, member, club, headers, words):
    start(client, club)
    response = client.post(region_url(1), _without_capital(BOARD["regions"][0]), **headers)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert client.session[DRAFT_KEY]["regions"][0] is None


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"values": "6 three 1"}, "values", "“three” is not a whole number from 0 to 999."),
        ({"values": "1 2 3 4 5 6 7"}, "values", "Enter 1 to 6 numbers, one per place, not 7."),
        ({"values": ""}, "values", "This field is required."),
        ({"influence_points": "-1 2"}, "influence_points", "“-1” is not a whole number"),
        ({"influence_points": "1000"}, "influence_points", "“1000” is not a whole number"),
        ({"space0": "attack"}, "space1", "Give each of the four spaces its action, or none of them"),
        ({"space0": "fly"}, "space0", "Select a valid choice."),
        ({"province1_kind": ""}, "province1_kind", "Pick the kind of Tohoku North."),
        ({"province5_kind": "shrine", "rows": "6"}, "province5_name", "Name this province"),
        ({"province2_kind": "castle"}, "province2_kind", "Select a valid choice."),
        ({"name": "x" * 61}, "name", "at most 60 characters"),
        ({"province1_name": "Tohoku Capital"}, None, "Every region and province needs its own name."),
        (
            {**{f"province{p}_name": "" for p in range(5)}, **{f"province{p}_kind": "" for p in range(5)}},
            "province0_name",
            "Enter the region&#x27;s provinces, north to south.",
        ),
    ],
)
def test_bad_region_input_is_refused_beside_its_field_and_saves_nothing(client, member, club, change, field, words):
    start(client, club)
    response = client.post(region_url(1), {**region_fields(BOARD["regions"][0]), **change})
    assert response.status_code == 400
    html = response.content.decode()
    assert words in html
    if field is not None:
        assert f'id="id_{field}_error"' in html or f'id="id_{field}_0_error"' in html or f"{field}_error" in html
    assert client.session[DRAFT_KEY]["regions"] == [None] * 4


def test_a_name_another_region_uses_is_refused(client, member, club):
    start(client, club)
    enter_board(client, {"regions": BOARD["regions"][:1]})
    second = region_fields(BOARD["regions"][1])
    second["province0_name"] = "Tohoku Shrine"
    response = client.post(region_url(2), second)
    assert response.status_code == 400 and "Every region and province needs its own name." in response.content.decode()
    assert client.session[DRAFT_KEY]["regions"][1] is None


@pytest.mark.parametrize(
    ("solo", "words"),
    [
        ({"order_attack": 2}, "Fill in every solo part, or none of them"),
        (
            {
                "order_attack": 3,
                "order_harvest": 2,
                "order_recruit": 2,
                "order_castle": 2,
                "destiny0": 4,
                "destiny1": 4,
                "destiny2": 4,
                "destiny3": 4,
                "seed_bushido": 6,
                "seed_food": 6,
            },
            "An AI plays its 11 order tokens less the 3 Move tokens.",
        ),
        (
            {
                "order_attack": 2,
                "order_harvest": 2,
                "order_recruit": 2,
                "order_castle": 2,
                "destiny0": 4,
                "destiny1": 4,
                "destiny2": 4,
                "destiny3": 4,
                "seed_bushido": 6,
                "seed_food": 5,
            },
            "the seed tokens fill the map&#x27;s resource slots.",
        ),
        ({"order_attack": "x"}, "Enter a whole number."),
        ({"order_attack": 99}, "less than or equal to 50"),
    ],
)
def test_bad_solo_parts_are_refused_and_save_nothing(client, member, club, solo, words):
    start(client, club)
    enter_board(client, SOLO_BOARD)
    response = client.post(SAVE, solo)
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not BoardSetup.objects.exists() and client.session[DRAFT_KEY]["regions"][3] is not None


def test_solo_parts_on_a_board_without_spaces_say_which_region_lacks_them(client, member, club):
    start(client, club)
    enter_board(client, BOARD)
    solo = {
        "order_attack": 2,
        "order_harvest": 2,
        "order_recruit": 2,
        "order_castle": 2,
        "destiny0": 4,
        "destiny1": 4,
        "destiny2": 4,
        "destiny3": 4,
        "seed_bushido": 6,
        "seed_food": 6,
    }
    response = client.post(SAVE, solo, **DUTCH)
    assert response.status_code == 400
    assert "Tohoku" in response.content.decode() and not BoardSetup.objects.exists()


def test_the_start_screen_refuses_a_taken_name_and_a_club_not_yours(client, member, club, dave):
    from leagues.club import clubs

    BoardSetup.objects.create(club=club, game="samurai_empires", name="Our board", board=BOARD)
    response = start(client, club)
    assert response.status_code == 400 and "already has a board of that name" in response.content.decode()
    other = clubs.club_create(name="Elsewhere", owner=dave)
    response = start(client, other, name="Theirs")
    assert response.status_code == 400 and DRAFT_KEY not in client.session
    assert start(client, club, regions=3).status_code == 400


def test_the_name_taken_while_the_board_was_entered_saves_nothing_twice(client, member, club):
    start(client, club)
    enter_board(client, BOARD)
    BoardSetup.objects.create(club=club, game="samurai_empires", name="Our board", board={"regions": []})
    response = client.post(SAVE, {})
    assert response.status_code == 400 and "already has a board of that name" in response.content.decode()
    assert BoardSetup.objects.get().board == {"regions": []}


def test_a_member_who_left_the_club_saves_nothing(client, member, club):
    from leagues.models import Membership

    start(client, club)
    enter_board(client, BOARD)
    Membership.objects.filter(club=club, player=player_for_user(member)).delete()
    response = client.post(SAVE, {})
    assert response.status_code == 400 and not BoardSetup.objects.exists()


def test_screens_without_a_draft_or_out_of_range_and_visitors(client, alice, club):
    assert client.get(START)["Location"].startswith("/accounts/login/")
    client.force_login(alice)
    assert client.get(region_url(1))["Location"] == START
    assert client.get(SAVE)["Location"] == START
    start(client, club)
    assert client.get(region_url(5)).status_code == 404
    assert client.get(region_url(0)).status_code == 404
    assert client.get(SAVE)["Location"] == region_url(1)


def test_the_start_screen_leads_back_to_the_draft_where_it_stopped(client, member, club):
    start(client, club)
    enter_board(client, {"regions": BOARD["regions"][:2]})
    page = client.get(START).content.decode()
    assert "You have a board in progress: “Our board”." in page and f'href="{region_url(3)}"' in page
    enter_board(client, BOARD)
    assert f'href="{SAVE}"' in client.get(START).content.decode()


def test_someone_without_a_club_is_told_to_join_one(client, dave):
    client.force_login(dave)
    page = client.get(START)
    assert page.status_code == 200 and "join or start a club first" in page.content.decode()


@pytest.mark.parametrize(("headers", "words"), [({}, "Region 1 of 4"), (DUTCH, "Regio 1 van 4")])
def test_the_region_screen_in_english_and_dutch(client, member, club, headers, words):
    start(client, club)
    assert words in client.get(region_url(1), **headers).content.decode()


def test_the_set_up_form_leads_to_the_editor_not_to_developer_docs(client, member):
    page = client.get("/tables/new/?game=samurai_empires").content.decode()
    assert START in page and "docs/api.md" not in page


def test_every_screen_of_the_editor_speaks_dutch(client, member, club):
    """No English-only word (tests/site/test_dutch_pages.py's check) on the screens, their refusals included; the
    region and province names are the club's own."""
    from tests.site.test_dutch_pages import _words, english_only_words, visible_text

    words = english_only_words()
    client.defaults.update(DUTCH)
    pages = [client.get(START)]
    start(client, club)
    pages.append(
        client.post(
            region_url(1),
            {
                **region_fields(SOLO_BOARD["regions"][0]),
                "values": "6 x",
                "space0": "",
                "province1_kind": "",
                "action": "copy",
            },
        )
    )
    pages.append(client.post(region_url(1), _without_capital(SOLO_BOARD["regions"][0])))
    client.post(region_url(1), {**region_fields(SOLO_BOARD["regions"][0]), "action": "copy"})
    pages.append(client.get(region_url(2)))
    enter_board(client, SOLO_BOARD)
    pages.append(client.get(SAVE))
    pages.append(client.post(SAVE, {"order_attack": 1}))
    pages.append(
        client.post(
            SAVE,
            {
                "order_attack": 1,
                "order_harvest": 2,
                "order_recruit": 2,
                "order_castle": 2,
                "destiny0": 4,
                "destiny1": 4,
                "destiny2": 4,
                "destiny3": 4,
                "seed_bushido": 6,
                "seed_food": 6,
            },
        )
    )
    club_names = _words(
        " ".join(r["name"] + " " + " ".join(p["name"] for p in r["provinces"]) for r in SOLO_BOARD["regions"])
    ) | {"our", "board"}  # the board's name
    for page in pages:
        text = visible_text(page.content.decode())
        assert not (_words(text) & words) - club_names, (page.request["PATH_INFO"], _words(text) & words)
    assert [p.status_code for p in pages] == [200, 400, 400, 200, 200, 400, 400]
