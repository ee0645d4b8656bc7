"""A claimed guest's imported plays (issue 47 finding 5): the importer answered for the guest; once the guest's
person claims it, the plays not counted yet are his to sign, on his badge and waiting page, and count when he
signs."""

import io
import json

import pytest
from django.core.management import call_command

from leagues.common.selectors import results_to_sign
from leagues.models import Player, Result, SignOff
from leagues.notifications.models import Notification
from leagues.notifications.selectors import to_sign_count
from leagues.people import players
from leagues.result import results
from tests.leagues.test_imports import BGSTATS

pytestmark = pytest.mark.django_db


def imported(club):
    out = io.StringIO()
    call_command(
        "import_plays",
        "--club",
        club.slug,
        "--format",
        "bgstats",
        "--as",
        "alice",
        BGSTATS,
        stdout=out,
        stderr=io.StringIO(),
    )
    return json.loads(out.getvalue())


def test_import_claim_sign_and_the_plays_count(client, club, alice, bob, carol):
    imported(club)
    hanzo = Player.objects.get(name="Hanzo", user__isnull=True)
    waiting = set(
        Result.objects.filter(entries__player=hanzo, status=Result.Status.PENDING)
        .filter(entries__player__user=carol)
        .values_list("pk", flat=True)
    )
    counted = set(
        Result.objects.filter(entries__player=hanzo, status=Result.Status.COUNTED).values_list("pk", flat=True)
    )
    assert waiting and counted  # plays with carol wait for her; alice answered for the rest, counted
    assert SignOff.objects.filter(result__in=waiting, player=hanzo, by=alice).count() == len(waiting)

    token = players.player_claim_link_create(player=hanzo, user=alice)
    me = players.player_claim(token=token, user=bob)

    assert set(results_to_sign(bob).values_list("pk", flat=True)) == waiting
    assert to_sign_count(bob) == len(waiting)
    assert not SignOff.objects.filter(result__in=waiting, player=me).exists()  # alice's word for Hanzo is gone
    assert Notification.objects.filter(recipient=bob, kind="sign_off").exists()
    client.force_login(bob)
    page = client.get("/results/waiting/").content.decode()
    assert all(f"/results/{pk}/sign-off/" in page for pk in waiting)
    assert set(Result.objects.filter(pk__in=counted).values_list("status", flat=True)) == {Result.Status.COUNTED}

    for result in Result.objects.filter(pk__in=waiting):
        results.result_sign_off(result=result, user=carol)
    assert set(Result.objects.filter(pk__in=waiting).values_list("status", flat=True)) == {Result.Status.PENDING}
    for result in Result.objects.filter(pk__in=waiting):
        results.result_sign_off(result=result, user=bob)
    assert set(Result.objects.filter(pk__in=waiting).values_list("status", flat=True)) == {Result.Status.COUNTED}
    assert to_sign_count(bob) == 0


def test_a_claim_leaves_a_vouched_import_counted_and_waiting_for_nobody(club, alice, bob, carol):
    """An import its manager vouched for counts at once: his word stands for every player, before the claim and
    after it; the claimer may still dispute it from the waiting page's vouched list."""
    imported(club)
    hanzo = Player.objects.get(name="Hanzo", user__isnull=True)
    Result.objects.filter(entries__player=hanzo, status=Result.Status.PENDING).update(vouched_by=alice)
    vouched = list(Result.objects.filter(entries__player=hanzo, vouched_by=alice))
    before = {r.pk: r.status for r in vouched}
    rows = SignOff.objects.filter(result__in=vouched, player=hanzo).count()
    players.player_claim(token=players.player_claim_link_create(player=hanzo, user=alice), user=bob)
    assert SignOff.objects.filter(result__in=vouched, player__user=bob).count() == rows
    assert {r.pk: r.status for r in Result.objects.filter(pk__in=before)} == before


def test_the_waiting_page_signs_all_of_a_claimed_guests_imported_plays_in_one_tap(
    client, club, alice, bob, carol, dave
):
    imported(club)
    hanzo = Player.objects.get(name="Hanzo", user__isnull=True)
    players.player_claim(token=players.player_claim_link_create(player=hanzo, user=alice), user=bob)
    waiting = sorted(results_to_sign(bob).values_list("pk", flat=True))
    for result in Result.objects.filter(pk__in=waiting):
        results.result_sign_off(result=result, user=carol)
    signed_before = SignOff.objects.count()

    client.force_login(dave)  # a stranger posting bob's plays signs nothing
    assert client.post("/results/waiting/sign-imported/", {"result": waiting}).status_code == 302
    assert client.post("/results/waiting/sign-imported/", {"result": ["x"]}).status_code == 400
    assert client.post("/results/waiting/sign-imported/", {}).status_code == 400
    assert SignOff.objects.count() == signed_before

    client.force_login(bob)
    page = client.get("/results/waiting/").content.decode()
    assert f"Sign all {len(waiting)} imported plays below" in page
    response = client.post("/results/waiting/sign-imported/", {"result": waiting}, follow=True)
    assert f"{len(waiting)} imported plays signed." in response.content.decode()
    assert set(Result.objects.filter(pk__in=waiting).values_list("status", flat=True)) == {Result.Status.COUNTED}
    assert to_sign_count(bob) == 0
