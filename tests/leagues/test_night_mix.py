"""The organiser picks the night's table mix (issue 37): "fill" by default, "free" on request; it reaches the
optimiser for every proposal, and a mix that is neither is refused with nothing written."""

import datetime

import pytest

from leagues.club import clubs, seasons
from leagues.models import Night
from leagues.nights import pods
from leagues.people import players


@pytest.fixture
def season(club, alice):
    league = seasons.league_create(club=club, name="Thursday", games=["shitenno"], user=alice)
    return seasons.season_create(
        league=league,
        name="Autumn",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 12, 31),
        user=alice,
    )


@pytest.fixture
def members(club):
    users = []
    for name in ("erin", "frank", "gina", "hiro", "ito"):
        user = players.user_sign_up(username=name, email=f"{name}@example.org", password="a long passphrase 42")
        clubs.club_join(token=club.invite_token, user=user)
        users.append(user)
    return users


def test_the_organiser_s_mix_reaches_the_optimiser(api, season, alice, members, monkeypatch):
    url = f"/api/seasons/{season.pk}/nights/"
    refused = api.login(alice).post(url, {"date": "2026-11-26", "games": ["shitenno"], "mix": "snug"})
    assert refused.status_code == 400 and "mix" in refused.json()["errors"]
    assert not Night.objects.exists()
    plain = api.post(url, {"date": "2026-11-26", "games": ["shitenno"]})
    assert plain.status_code == 201 and plain.json()["mix"] == "fill"
    opened = api.post(url, {"date": "2026-11-27", "games": ["shitenno"], "mix": "free"})
    assert opened.status_code == 201 and opened.json()["mix"] == "free"
    night = opened.json()["id"]
    for user in members:
        api.post(f"/api/nights/{night}/check-in/", {"player": user.player.pk})
    api.post(f"/api/nights/{night}/check-in/", {"player": alice.player.pk})
    asked = []
    real = pods.propose

    def spy(request):
        asked.append(request.mix)
        return real(request)

    monkeypatch.setattr(pods, "propose", spy)
    proposed = api.post(f"/api/nights/{night}/rounds/")
    assert proposed.status_code == 201, proposed.content
    assert asked == ["free"]


def test_the_night_form_offers_the_mix_in_dutch(client, season, alice):
    client.force_login(alice)
    page = client.get(f"/seasons/{season.pk}/nights/", headers={"Accept-Language": "nl"})
    assert page.status_code == 200
    text = page.content.decode()
    assert "Tafelverdeling" in text and "Eerst volle tafels" in text and "Eerst de minste herhalingen" in text
