"""Issue 24, as the attackers tried it: a recorder's unchanged PATCH that counted a result nobody signed, one
account farming the site-wide rankings with guests of its own, and a visitor at a club's table whose result could
never count. Each refusal checks the answer and that nothing was counted or rated.

mallory has no role anywhere; dave is in no club; alice owns the club Edo Gamers, bob is a visitor to it.
"""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from games.models import Seat, TableSession
from leagues.jobs import outbox
from leagues.models import LeagueJob, Rating, Result, SignOff
from leagues.people import players
from leagues.people.players import player_for_user
from leagues.result import results
from tests.conftest import _user
from tests.leagues.league_helpers import sat_with
from tests.leagues.test_result_admin import change_form

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


@pytest.fixture
def mallory(db):
    return _user("mallory")


def run_jobs():
    outbox.sweep(older_than=0)


def game_ratings():
    return {(r.key, r.player.name) for r in Rating.objects.filter(kind="game").select_related("player")}


def test_a_recorders_unchanged_patch_counts_nothing(api, mallory, alice, bob):
    sat_with(mallory, alice, bob)  # so he may name them outside a club at all
    api.login(mallory)
    body = {
        "game": "shitenno",
        "played_on": str(TODAY),
        "entries": [{"player": player_for_user(alice).pk, "rank": 1}, {"player": player_for_user(bob).pk, "rank": 2}],
    }
    made = api.post("/api/results/", body)
    assert made.status_code == 201 and made.json()["status"] == "pending"
    result_id = made.json()["id"]
    assert api.post(f"/api/results/{result_id}/sign-off/", {"agreed": True}).status_code == 403

    patched = api.patch(
        f"/api/results/{result_id}/", {"version": 1, "played_on": str(TODAY), "entries": body["entries"]}
    )

    assert patched.status_code == 200 and patched.json()["status"] == "pending"
    run_jobs()
    assert Result.objects.get(pk=result_id).status == "pending"
    assert not SignOff.objects.exists() and not Rating.objects.exists()
    assert not LeagueJob.objects.filter(job="rate_result").exists()


def test_a_correction_signs_for_nobody_and_the_players_agree_to_it_again(api, alice, bob):
    sat_with(alice, bob)
    api.login(alice)
    made = api.post(
        "/api/results/",
        {
            "game": "shitenno",
            "played_on": str(TODAY),
            "entries": [
                {"player": player_for_user(alice).pk, "rank": 1},
                {"player": player_for_user(bob).pk, "rank": 2},
            ],
        },
    ).json()
    api.login(bob)
    assert api.post(f"/api/results/{made['id']}/sign-off/", {"agreed": True}).json()["status"] == "counted"
    run_jobs()
    assert game_ratings() == {("shitenno", "alice"), ("shitenno", "bob")}

    api.login(alice)  # she swaps the places after bob signed: his agreement was to the other result
    swapped = api.patch(
        f"/api/results/{made['id']}/",
        {
            "version": 1,
            "entries": [
                {"player": player_for_user(bob).pk, "rank": 1},
                {"player": player_for_user(alice).pk, "rank": 2},
            ],
        },
    )
    assert swapped.status_code == 200 and swapped.json()["status"] == "pending"
    run_jobs()
    assert list(SignOff.objects.values_list("by__username", flat=True)) == ["alice"]
    assert not Rating.objects.exists()  # out of the ratings until bob agrees

    api.login(bob)
    assert api.post(f"/api/results/{made['id']}/sign-off/", {"agreed": True}).json()["status"] == "counted"
    run_jobs()
    assert game_ratings() == {("shitenno", "alice"), ("shitenno", "bob")}


def test_the_admin_counts_a_result_only_through_its_sign_offs(client, mallory, alice, bob):
    sat_with(mallory, alice, bob)
    result = results.result_enter(
        game="shitenno",
        played_on=TODAY,
        user=mallory,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(bob), "rank": 2}],
    )
    root = get_user_model().objects.create_superuser("root", "root@example.org", "a long admin passphrase")
    client.force_login(root)
    form = change_form(client, result)
    assert "status" not in form  # shown, not editable
    form["status"] = "counted"  # a forged field is ignored

    saved = client.post(reverse("admin:leagues_result_change", args=[result.pk]), form)

    assert saved.status_code == 302
    result.refresh_from_db()
    run_jobs()
    assert result.status == "pending" and result.version == 2 and not Rating.objects.exists()


def test_one_account_with_guests_of_its_own_never_enters_the_public_rankings(client, api, dave):
    guests = [players.player_guest_create(name=name, created_by=dave) for name in ("Jiro", "Saburo", "Shiro")]
    api.login(dave)
    for guest in guests:
        made = api.post(
            "/api/results/",
            {
                "game": "shitenno",
                "played_on": str(TODAY),
                "entries": [{"player": player_for_user(dave).pk, "rank": 1}, {"player": guest.pk, "rank": 2}],
            },
        )
        assert made.status_code == 201 and made.json()["status"] == "counted"  # it counts for dave himself
    run_jobs()

    assert Result.objects.filter(status="counted", ranked_publicly=False).count() == 3
    assert not Rating.objects.filter(kind="game").exists()
    client.logout()
    assert "dave" not in client.get("/rankings/?scope=game:shitenno").content.decode()
    page = client.get(player_for_user(dave).get_absolute_url()).content.decode()
    assert "Won 3 of 3 counted games" in page  # his own statistics still show them
    assert "3 counted games of Shitennō are not in the public rankings" in page


def test_a_guest_vouched_for_by_another_account_is_a_check(api, alice, bob):
    """bob brings his guest Goro to alice's game: two accounts signed, Goro answered for by someone other than the
    recorder, so the game is ranked site-wide. The same game with alice's own guest is not."""
    goro = players.player_guest_create(name="Goro", created_by=bob)
    kenshin = players.player_guest_create(name="Kenshin", created_by=alice)
    sat_with(alice, bob)
    api.login(alice)
    with_goro = api.post(
        "/api/results/",
        {
            "game": "shitenno",
            "played_on": str(TODAY),
            "entries": [
                {"player": player_for_user(alice).pk, "rank": 1},
                {"player": player_for_user(bob).pk, "rank": 2},
                {"player": goro.pk, "rank": 3},
            ],
        },
    ).json()
    with_kenshin = api.post(
        "/api/results/",
        {
            "game": "shitenno",
            "played_on": str(TODAY),
            "entries": [
                {"player": player_for_user(alice).pk, "rank": 1},
                {"player": player_for_user(bob).pk, "rank": 2},
                {"player": kenshin.pk, "rank": 3},
            ],
        },
    ).json()
    api.login(bob)
    for made in (with_goro, with_kenshin):
        assert api.post(f"/api/results/{made['id']}/sign-off/", {"agreed": True}).json()["status"] == "counted"
    run_jobs()

    assert Result.objects.get(pk=with_goro["id"]).ranked_publicly
    assert not Result.objects.get(pk=with_kenshin["id"]).ranked_publicly  # Kenshin: only his recorder vouched
    assert game_ratings() == {("shitenno", "alice"), ("shitenno", "bob"), ("shitenno", "Goro")}


def finished_club_table(club, seated):
    """A private Small Samurai Empires table of the club, finished: its result waits for sign-off."""
    table = TableSession.objects.create(
        game="samurai_empires",
        rules_version="1",
        setup={},
        state={},
        created_by=seated[0],
        club=club,
        is_public=False,
        status=TableSession.Status.FINISHED,
        finished_at=timezone.now(),
        outcome={
            "termination": "end",
            "details": {},
            "placings": [{"seat": n, "rank": n + 1, "score": 30 - n, "tiebreak": None} for n in range(len(seated))],
        },
    )
    for n, user in enumerate(seated):
        Seat.objects.create(session=table, position=n, player=player_for_user(user))
    return results.result_from_session(session=table)


def test_a_visitor_seated_at_a_club_table_reads_and_signs_off_its_result(api, club, alice, bob, carol):
    result = finished_club_table(club, [alice, carol, bob])
    assert result.status == "pending"
    api.login(bob)  # not a member of alice's private club, but seated at its table

    assert api.get(f"/api/results/{result.pk}/").status_code == 200
    for user in (bob, alice, carol):
        api.login(user)
        answer = api.post(f"/api/results/{result.pk}/sign-off/", {"agreed": True})
        assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "counted"


def test_an_outsider_still_cannot_read_the_club_tables_result(api, club, alice, bob, carol, dave):
    result = finished_club_table(club, [alice, carol, bob])
    api.login(dave)
    assert api.get(f"/api/results/{result.pk}/").status_code == 404
    assert api.post(f"/api/results/{result.pk}/sign-off/", {"agreed": True}).status_code == 404
    assert not SignOff.objects.filter(by=dave).exists()
