"""Download my data (issue 47 finding 8): one JSON file with what the site holds about the person who asks, and
nothing of anyone else's."""

import json

import pytest

from leagues.notifications.models import Notification, Preference, PushSubscription
from leagues.people import players
from leagues.rating import store as rating_store
from leagues.standings import store as standings_store
from tests.leagues.league_helpers import enter, join, league_with_season, sign_all

pytestmark = pytest.mark.django_db


@pytest.fixture
def history(club, alice, bob, carol):
    """carol and bob played alice's league twice; each has a device, carol has messages and choices."""
    join(club, bob)
    _league, season = league_with_season(club, alice)
    players.player_rename(user=bob, name="Bob the Builder")
    sign_all(enter(season, alice, [(carol, 1, 30), (bob, 2, 20)], days_ago=3), carol, bob)
    sign_all(enter(season, alice, [(bob, 1, 31), (carol, 2, 21)], days_ago=2), carol, bob)
    for kind, key in sorted(rating_store.rating_scopes()):
        rating_store.ratings_recompute(kind=kind, key=key)
    standings_store.standings_compute(season=season)
    PushSubscription.objects.create(
        user=carol,
        endpoint="https://push.example/carols-secret-path",
        p256dh="x" * 40,
        auth="y" * 16,
        user_agent="Carol's phone",
    )
    PushSubscription.objects.create(
        user=bob,
        endpoint="https://push.example/bobs-secret-path",
        p256dh="x" * 40,
        auth="y" * 16,
        user_agent="Bob's phone",
    )
    Preference.objects.create(user=carol, sign_off="email", language="nl")
    Notification.objects.create(
        recipient=carol, kind="sign_off", dedupe_key="sign_off:1:carol", payload={"with": "Bob the Builder"}
    )
    return season


def _download(client, user):
    client.force_login(user)
    response = client.post("/accounts/me/data/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment;")
    return response, json.loads(response.content)


def test_the_download_holds_his_account_clubs_results_sign_offs_ratings_and_devices(client, history, carol):
    _response, data = _download(client, carol)
    assert data["account"]["username"] == "carol" and data["account"]["email"] == "carol@example.org"
    assert data["account"]["email_verified_at"]  # when her address was verified (issue 47)
    assert [p["name"] for p in data["players"]] == ["carol"]
    assert [(m["club"], m["role"]) for m in data["memberships"]] == [("Edo Gamers", "member")]
    assert sorted((r["rank"], r["score"]) for r in data["results"]) == [(1, 30.0), (2, 21.0)]
    assert len(data["sign_offs"]) == 2 and all(s["for_you"] and s["agreed"] for s in data["sign_offs"])
    assert {r["scope"] for r in data["ratings"]} >= {"league"} and all(r["games"] == 2 for r in data["ratings"])
    assert [s["games"] for s in data["standings"]] == [2]
    assert data["notifications"]["settings"]["sign_off"] == "email"
    assert data["notifications"]["settings"]["language"] == "nl"
    assert len(data["notifications"]["messages"]) == Notification.objects.filter(recipient=carol).count() >= 1
    assert data["notifications"]["devices"] == [
        {
            "endpoint": "https://push.example/…",
            "user_agent": "Carol's phone",
            "created_at": data["notifications"]["devices"][0]["created_at"],
        }
    ]


def test_the_download_holds_nothing_of_another_person(client, history, carol):
    response, _data = _download(client, carol)
    text = response.content.decode()
    for theirs in (
        "Bob the Builder",
        "bob@example.org",
        '"bob"',
        "Bob's phone",
        "alice",
        "secret-path",
        "pbkdf2",
        "password",
    ):
        assert theirs not in text, theirs


def test_the_api_gives_the_same_file_and_asks_who_you_are(api, history, carol, bob):
    assert api.get("/api/me/data/").status_code == 401
    data = api.login(bob).get("/api/me/data/").json()
    assert data["account"]["username"] == "bob"
    assert [p["name"] for p in data["players"]] == ["Bob the Builder"]
    assert data["notifications"]["devices"][0]["user_agent"] == "Bob's phone"
    assert "carol" not in json.dumps(data) and "Carol" not in json.dumps(data)


def test_the_page_explains_the_file_in_dutch_and_is_on_the_account_page(client, carol):
    client.force_login(carol)
    assert 'href="/accounts/me/data/"' in client.get("/accounts/me/").content.decode()
    page = client.get("/accounts/me/data/", HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert "Mijn gegevens downloaden" in page


def test_the_page_needs_a_signed_in_person(client, history):
    response = client.post("/accounts/me/data/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
