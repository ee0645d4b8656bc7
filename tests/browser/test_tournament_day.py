"""A tournament day on phones at 360 px (issue 51), in English and in Dutch: sixteen members of a public club, the
organiser setting it up from the club's page, two of them checking in with one tap on their own phones and the
organiser entering the rest from her phone's list;
four Swiss rounds and a final table paired and their places entered through the day page; a player's phone shows
his table, seat and mates each round; the wall at 1920x1080, refreshing itself, ends with the final table and the
winner."""

import random
import re

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from leagues.club import clubs
from leagues.models import Tournament, TournamentPod
from leagues.people import players
from leagues.tournaments import selectors

from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

POLL = 25_000  # the wall polls every 10 s
WALL = {"width": 1920, "height": 1080}
WORDS = {
    "en": {
        "enter": "Enter and check in",
        "first": "Pair round 1",
        "next": "Pair the next round",
        "save": "Save the places",
        "line": "Round {round}: table {table}, Teikoku, seat {seat}, with {others}",
        "final": "Final: table {table}, Teikoku, seat {seat}, with {others}",
        "and": " and ",
        "checked": "You are checked in.",
        "winner": "Winner: {name}",
        "playing": "4 tables still playing",
        "done": "Every table has its places.",
        "final_table": "Final table",
        "standings": "Final standings",
        "set_up": "Set up a tournament",
        "set_up_button": "Set up the tournament",
        "own": "my own points, below",
        "scheme": "Points per place: 5, 3, 1, 0 (pods of 4)",
    },
    "nl": {
        "enter": "Meedoen en inchecken",
        "first": "Ronde 1 indelen",
        "next": "De volgende ronde indelen",
        "save": "Uitslag opslaan",
        "line": "Ronde {round}: tafel {table}, Teikoku, plaats {seat}, met {others}",
        "final": "Finale: tafel {table}, Teikoku, plaats {seat}, met {others}",
        "and": " en ",
        "checked": "Je bent ingecheckt.",
        "winner": "Winnaar: {name}",
        "playing": "4 tafels spelen nog",
        "done": "Alle tafels hebben hun uitslag.",
        "final_table": "Finaletafel",
        "standings": "Eindstand",
        "set_up": "Een toernooi opzetten",
        "set_up_button": "Het toernooi opzetten",
        "own": "mijn eigen punten, hieronder",
        "scheme": "Punten per plaats: 5, 3, 1, 0 (pods van 4)",
    },
}


def speaking(page, language, live_server):
    page.context.add_cookies(
        [{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    return page


def fits_the_wall(page) -> None:
    width, height = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert width == WALL["width"] and height <= WALL["height"], (width, height)


def own_line(words, tournament, user):
    day = selectors.tournament_day(tournament, user)
    if day.own_pod is None:
        return None
    others = day.own_others
    joined = ", ".join(others[:-1]) + words["and"] + others[-1] if len(others) > 1 else "".join(others)
    template = words["final"] if day.final else words["line"]
    return template.format(round=day.own_pod.round, table=day.own_pod.table, seat=day.own_seat, others=joined)


@pytest.mark.parametrize("language", ["en", "nl"])
def test_sixteen_players_four_swiss_rounds_and_a_final_table_on_phones_and_the_wall(
    phone, chromium, live_server, shoot, alice, carol, club, language
):
    words = WORDS[language]
    club.members_public = True  # the wall needs no log-in
    club.save()
    members = [carol]
    for n in range(14):
        user = players.user_sign_up(
            username=f"player{n:02}", email=f"p{n}@example.org", password="a long passphrase 42"
        )
        clubs.club_join(token=club.invite_token, user=user)
        members.append(user)
    # the organiser sets it up from the club's page: Teikoku, pods of four scoring 5, 3, 1, 0, four Swiss rounds,
    # a final table of 4
    organiser = speaking(phone(alice), language, live_server)
    organiser.goto(f"/clubs/{club.slug}/")
    with organiser.expect_navigation():
        organiser.get_by_role("link", name=words["set_up"]).tap()
    no_horizontal_scroll(organiser)
    organiser.locator("#id_name").fill("Winter cup")
    organiser.locator('input[name=engines][value="teikoku"]').check()
    organiser.locator('input[name=table_sizes][value="3"]').uncheck()
    expect(organiser.locator("#id_swiss_rounds")).to_have_value("4")
    expect(organiser.locator("#id_cut_size")).to_have_value("4")
    organiser.get_by_label(words["own"]).check()
    organiser.locator("#id_scheme").fill("4: 5, 3, 1, 0")
    shoot(organiser, f"tournament-{language}-set-up")
    with organiser.expect_navigation():
        organiser.get_by_role("button", name=words["set_up_button"]).tap()
    tournament = Tournament.objects.get(club=club)
    assert (
        tournament.name,
        tournament.games,
        tournament.table_sizes,
        tournament.swiss_rounds,
        tournament.cut,
        tournament.cut_size,
        tournament.scheme,
    ) == ("Winter cup", ["teikoku"], [4], 4, "final", 4, {"4": [5, 3, 1, 0]})
    expect(organiser).to_have_url(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(organiser.locator("p.scheme")).to_have_text(words["scheme"])
    with organiser.expect_navigation():
        organiser.get_by_role("button", name=words["enter"]).first.tap()  # alice enters herself
    expect(organiser.locator("#check-in-link")).to_have_value(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(organiser.locator(".qr svg")).to_be_visible()
    no_horizontal_scroll(organiser)

    carols = speaking(phone(carol), language, live_server)  # two scan the QR: one tap each
    second = speaking(phone(members[1]), language, live_server)
    for page in (carols, second):
        page.goto(f"/tournaments/{tournament.pk}/")
        page.get_by_role("button", name=words["enter"]).tap()
        expect(page.locator(".check-in-status")).to_contain_text(words["checked"])
        no_horizontal_scroll(page)
    organiser.reload()
    for _user in members[2:]:  # the organiser enters the others from the club's list
        organiser.locator("#enter-player").select_option(index=0)
        with organiser.expect_navigation():
            organiser.locator("#organiser form.stack").first.get_by_role("button", name=words["enter"]).tap()
    assert tournament.entries.filter(checked_in_at__isnull=False).count() == 16

    wall = chromium.new_context(viewport=WALL, base_url=live_server.url)
    violations = []
    wall.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    projector = speaking(wall.new_page(), language, live_server)
    projector.goto(f"/tournaments/{tournament.pk}/wall/")
    expect(projector.locator("p.scheme")).to_have_text(words["scheme"])

    rng = random.Random(51)
    try:
        for number in range(1, 6):
            with organiser.expect_navigation():
                organiser.get_by_role("button", name=words["first"] if number == 1 else words["next"]).tap()
            pods = TournamentPod.objects.filter(round__tournament=tournament, round__number=number).count()
            expect(organiser.locator("form.places-form")).to_have_count(pods)
            if number <= 4:
                expect(organiser.locator("#round .playing")).to_have_text(words["playing"])
                assert pods == 4
            else:
                expect(organiser.locator("#round-title")).to_have_text(words["final_table"])
                assert pods == 1
            expect(organiser.locator("[data-round-clock] [data-clock-left]")).to_have_text(
                re.compile(r"^\d+:\d\d$")
            )  # round-clock.js counts down
            no_horizontal_scroll(organiser)
            carols.reload()
            line = own_line(words, tournament, carol)
            if line is not None:
                expect(carols.locator(".own-line")).to_have_text(line)
            no_horizontal_scroll(carols)
            if number == 1:  # the wall's poll brings the round's four pods and the clock
                expect(projector.locator("#wall .pod")).to_have_count(4, timeout=POLL)
                expect(projector.locator("#wall [data-clock-left]")).to_have_text(re.compile(r"^\d+:\d\d$"))
                fits_the_wall(projector)
                shoot(projector, f"tournament-{language}-wall-round-1")
            shoot(carols, f"tournament-{language}-round-{number}-player")
            for position in range(pods):
                form = organiser.locator("form.places-form").nth(position)
                finish = list(range(1, form.locator("select").count() + 1))
                rng.shuffle(finish)
                for seat, place in enumerate(finish):
                    form.locator("select").nth(seat).select_option(str(place))
                with organiser.expect_navigation():
                    form.get_by_role("button", name=words["save"]).tap()
            expect(organiser.locator("#round .playing")).to_have_text(words["done"])
            shoot(organiser, f"tournament-{language}-round-{number}-organiser")
        final = TournamentPod.objects.get(round__tournament=tournament, round__number=5)
        winner = next(
            p for p in tournament.entries.select_related("player") if final.places.get(str(p.player_id)) == 1
        ).player.name
        expect(organiser.locator(".winner")).to_have_text(words["winner"].format(name=winner))
        expect(projector.locator("#wall .winner")).to_have_text(words["winner"].format(name=winner), timeout=POLL)
        expect(projector.locator("#standings-title")).to_have_text(words["standings"])
        expect(projector.locator(".tournament-standings tbody tr")).to_have_count(16)
        fits_the_wall(projector)
        shoot(projector, f"tournament-{language}-wall")
        small = speaking(phone(None), language, live_server)  # the wall on a phone
        small.goto(f"/tournaments/{tournament.pk}/wall/")
        expect(small.locator("#wall .winner")).to_be_visible()
        assert small.evaluate("document.documentElement.scrollWidth") == 360
    finally:
        wall.close()
    assert violations == [], violations
