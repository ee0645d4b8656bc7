"""Issue 29's pages on a 360 px phone, in English and Dutch: the new-table page's win chances, swapped in as the
players are chosen, and the seat and faction balance on each game's statistics page with enough games for a
verdict (the demo's two games only say "not enough games to tell", which test_phone.py already shows)."""

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from playwright.sync_api import expect

from games import stats_store
from games.models import TableSession
from leagues.models import Rating
from leagues.people.players import player_for_user
from tests.browser.test_phone import fits_the_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
CHANCE = {"en": "has a", "nl": "heeft"}
VERDICT = {"en": "Seat 1 wins more often than chance would give", "nl": "Plaats 1 wint vaker dan toeval zou geven"}


def in_language(page, live_server, language: str) -> None:
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_new_table_page_shows_each_seats_chance_once_the_players_are_chosen(
    phone, shoot, live_server, club, alice, carol, language
):
    Rating.objects.create(kind="game", key="shitenno", player=player_for_user(alice), mu=31, sigma=2.5, games=60)
    her = player_for_user(carol)  # carol is in alice's club: alice may seat her; she has no rating (the prior)
    page = phone(alice)
    in_language(page, live_server, language)
    page.goto(reverse("table_new") + "?game=shitenno")
    page.locator("label.chip", has_text="2").first.tap()
    expect(page.locator("#new-chances")).not_to_contain_text(CHANCE[language])  # one seat named: nothing yet
    page.locator("#id_seat1_player").select_option(str(her.pk))
    chances = page.locator("#new-chances li")
    expect(chances).to_have_count(2)
    expect(chances.nth(0)).to_contain_text(f"alice {CHANCE[language]}")
    expect(chances.nth(1)).to_contain_text(f"carol {CHANCE[language]}")
    alice_percent = int(chances.nth(0).inner_text().split("%")[0].split()[-1])
    carol_percent = int(chances.nth(1).inner_text().split("%")[0].split()[-1])
    assert alice_percent > 50 > carol_percent and 99 <= alice_percent + carol_percent <= 101
    shoot(page, f"new-table-chances-{language}")
    fits_the_phone(page)


def finished(alice, game: str, setup: dict, ranks: list[int], times: int) -> None:
    outcome = {
        "termination": "end",
        "details": {},
        "placings": [{"seat": s, "rank": r, "score": 10 - r} for s, r in enumerate(ranks)],
    }
    for _ in range(times):
        session = TableSession.objects.create(
            game=game,
            rules_version="1",
            setup=setup,
            created_by=alice,
            is_public=True,
            entry="moves",
            status="finished",
            state={},
            outcome=outcome,
        )
        stats_store.table_changed(session)  # as the services do when a table finishes


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_balance_on_each_statistics_page_fits_the_phone_and_says_its_verdict(
    phone, shoot, live_server, alice, language
):
    shitenno = {
        "players": [{"general": "honda"}, {"general": "ii"}, {"general": "sakai"}],
        "titles": {"honda": "daimyo", "ii": "shomyo", "sakai": "sensei"},
    }
    finished(alice, "shitenno", shitenno, [1, 2, 3], 20)
    finished(alice, "shitenno", shitenno, [2, 1, 3], 4)
    teikoku = {"clans": ["fujiwara", "minamoto", "tokugawa"]}
    finished(alice, "teikoku", teikoku, [1, 3, 2], 14)
    finished(alice, "teikoku", teikoku, [3, 1, 2], 2)
    samurai = {"mode": "multiplayer", "players": [{"name": "a"}, {"name": "b"}], "turn_order": [1, 0]}
    finished(alice, "samurai_empires", samurai, [1, 2], 12)
    page = phone(None)
    in_language(page, live_server, language)
    for game in ("shitenno", "teikoku", "samurai_empires"):
        page.goto(reverse("game_stats", args=[game]))
        seat = page.locator(".balance-seat")
        expect(seat).to_have_attribute("data-verdict", "uneven")
        expect(seat.locator(".verdict")).to_contain_text(VERDICT[language])
        expect(seat.locator("tbody tr").first).to_contain_text("(")  # the Wilson interval beside the rate
        shoot(page, f"balance-{game}-{language}")
        fits_the_phone(page)
