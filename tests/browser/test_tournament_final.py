"""The final after semi-final pods on phones at 360 px (issue 51), in English and in Dutch: eight members, two Swiss
rounds and the semi-finals played through the services; the organiser's phone shows the semi-finals, pairs the
final from them and enters its places; a finalist's phone shows his final table, seat and mates; both name the
winner, and nothing needs a sideways scroll."""

import datetime
import random

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from leagues.club import clubs
from leagues.models import TournamentPod
from leagues.people import players
from leagues.people.players import player_for_user
from leagues.tournaments import selectors, services

from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WORDS = {
    "en": {
        "next": "Pair the next round",
        "semi": "Semi-finals",
        "final_table": "Final table",
        "final": "Final: table 1, Teikoku, seat {seat}, with {others}",
        "and": " and ",
        "save": "Save the places",
        "winner": "Winner: {name}",
    },
    "nl": {
        "next": "De volgende ronde indelen",
        "semi": "Halve finales",
        "final_table": "Finaletafel",
        "final": "Finale: tafel 1, Teikoku, plaats {seat}, met {others}",
        "and": " en ",
        "save": "Uitslag opslaan",
        "winner": "Winnaar: {name}",
    },
}


def speaking(page, language, live_server):
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    return page


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_final_after_semi_final_pods_on_phones(phone, live_server, alice, carol, club, language):
    words = WORDS[language]
    users = [alice, carol]
    for n in range(6):
        user = players.user_sign_up(username=f"finalist{n}", email=f"f{n}@example.org", password="a long passphrase 42")
        clubs.club_join(token=club.invite_token, user=user)
        users.append(user)
    tournament = services.tournament_create(
        club=club,
        user=alice,
        name="Spring cup",
        date=datetime.date(2026, 12, 5),
        games=["teikoku"],
        swiss_rounds=2,
        cut="semi",
        cut_size=8,
        table_sizes=[4],
    )
    for user in users:
        services.tournament_enter(tournament=tournament, user=alice, player=player_for_user(user), checked_in=True)
    rng = random.Random(8)
    for _number in range(3):  # two Swiss rounds and the semi-finals
        paired = services.round_pair(tournament=tournament, user=alice)
        for pod in paired.pods.all():
            finish = list(pod.players)
            rng.shuffle(finish)
            services.pod_places(pod=pod, user=alice, places={p: n + 1 for n, p in enumerate(finish)})
    organiser = speaking(phone(alice), language, live_server)
    organiser.goto(f"/tournaments/{tournament.pk}/")
    expect(organiser.locator("#round-title")).to_have_text(words["semi"])
    no_horizontal_scroll(organiser)
    with organiser.expect_navigation():
        organiser.get_by_role("button", name=words["next"]).tap()
    expect(organiser.locator("#round-title")).to_have_text(words["final_table"])
    expect(organiser.locator("form.places-form")).to_have_count(1)
    no_horizontal_scroll(organiser)

    final = TournamentPod.objects.get(round__tournament=tournament, round__number=4)
    finalist = next(u for u in users if player_for_user(u).pk == final.players[2])
    day = selectors.tournament_day(tournament, finalist)
    others = day.own_others
    mine = speaking(phone(finalist), language, live_server)
    mine.goto(f"/tournaments/{tournament.pk}/")
    expect(mine.locator(".own-line")).to_have_text(
        words["final"].format(seat=3, others=", ".join(others[:-1]) + words["and"] + others[-1])
    )
    no_horizontal_scroll(mine)

    form = organiser.locator("form.places-form")
    for seat in range(4):
        form.locator("select").nth(seat).select_option(str(4 - seat))  # the last seat wins
    with organiser.expect_navigation():
        form.get_by_role("button", name=words["save"]).tap()
    winner = next(u for u in users if player_for_user(u).pk == final.players[3])
    expect(organiser.locator(".winner")).to_have_text(words["winner"].format(name=player_for_user(winner).name))
    no_horizontal_scroll(organiser)
    assert selectors.tournament_day(tournament).standings[0]["player"] == final.players[3]
