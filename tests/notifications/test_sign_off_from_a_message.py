"""Signing off from a message's link (a new user's walk): the message opens the sign-off page; signing there takes
him back to that page, at the result he signed, not off to the league's page. Where he goes next is the form's own
page only: a `next` to another site is ignored."""

import re

import pytest
from django.urls import reverse

from leagues.models import SignOff
from leagues.notifications.models import Kind, Notification
from leagues.people.players import player_for_user
from leagues.result import results

from .conftest import TONIGHT


@pytest.fixture
def waiting(season, alice, bob, members):
    """alice recorded a game with bob; it waits for bob's sign-off, and bob has the message saying so."""
    return results.result_enter(
        game="shitenno",
        played_on=TONIGHT,
        season=season,
        user=alice,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )


def form_next(page: str, result) -> str:
    """The `next` of the sign-off form of `result` on the page."""
    form = page[page.index(f'action="{reverse("result_sign_off", args=[result.pk])}"') :]
    return re.search(r'name="next" value="([^"]*)"', form[: form.index("</form>")]).group(1)


def test_signing_off_from_the_message_s_page_comes_back_to_it_at_that_result(client, waiting, bob):
    link = Notification.objects.get(recipient=bob, kind=Kind.SIGN_OFF).payload["url"]
    client.force_login(bob)
    page = client.get(link).content.decode()
    back = form_next(page, waiting)
    assert back == f"/results/waiting/#result-{waiting.pk}"
    answer = client.post(reverse("result_sign_off", args=[waiting.pk]), {"agreed": "yes", "next": back})
    assert answer.status_code == 302 and answer["Location"] == back
    assert SignOff.objects.filter(result=waiting, player=player_for_user(bob), agreed=True).exists()
    assert "Thank you: your sign-off is recorded." in client.get(answer["Location"]).content.decode()


def test_signing_off_on_the_league_page_stays_on_it(client, waiting, season, bob):
    client.force_login(bob)
    league_page = reverse("league_detail", args=[season.league_id]) + f"?season={season.pk}"
    back = form_next(client.get(league_page).content.decode(), waiting)
    assert back == f"{league_page}#result-{waiting.pk}"
    answer = client.post(reverse("result_sign_off", args=[waiting.pk]), {"agreed": "yes", "next": back})
    assert answer["Location"] == back


def test_a_refused_dispute_also_goes_back_to_the_form_s_page(client, waiting, bob):
    client.force_login(bob)
    back = f"/results/waiting/#result-{waiting.pk}"
    answer = client.post(reverse("result_sign_off", args=[waiting.pk]), {"agreed": "no", "note": " ", "next": back})
    assert answer["Location"] == back  # the message says what is missing there
    assert not SignOff.objects.filter(result=waiting, player=player_for_user(bob)).exists()


@pytest.mark.parametrize(
    "elsewhere",
    ["https://evil.example/", "//evil.example/results/", "javascript:alert(1)", "http://testserver.evil.example/", ""],
)
def test_a_next_off_this_site_is_ignored_for_the_league_page(client, waiting, season, bob, elsewhere):
    client.force_login(bob)
    answer = client.post(reverse("result_sign_off", args=[waiting.pk]), {"agreed": "yes", "next": elsewhere})
    assert answer.status_code == 302
    assert answer["Location"] == reverse("league_detail", args=[season.league_id])
