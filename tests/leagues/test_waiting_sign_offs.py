"""What waits for a person's signature has one definition (leagues.common.selectors.results_to_sign), read by the
waiting page, the header's "to sign" badge and the sign-off messages: a guest has no account, so who added it or
an organiser of the league's club signs for it, and such a result waits for him everywhere, not only on the page
(found by the walk: an organiser who had to sign for guests saw no badge)."""

import datetime
import itertools

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from leagues.club import seasons
from leagues.common.access import result_players_signed_by
from leagues.common.selectors import results_to_sign, results_visible, results_waiting_for
from leagues.models import Membership, Player, Result, ResultEntry, SignOff
from leagues.notifications.selectors import to_sign_count
from leagues.people.players import player_for_user, player_guest_create
from leagues.result import results

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


def _season(club, alice):
    league = seasons.league_create(club=club, name="Thursday", games=["shitenno"], user=alice)
    return seasons.season_create(
        league=league,
        name="Now",
        starts_on=TODAY - datetime.timedelta(days=30),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )


def _waiting_by_the_signers_rule(user) -> set[int]:
    """The page's old reading, result by result, by access.result_players_signed_by (the services' rule)."""
    waiting = set()
    for result in results_visible(user).filter(status__in=[Result.Status.PENDING, Result.Status.DISPUTED]):
        settled = {s.player_id for s in result.sign_offs.all() if s.agreed or s.by_id == user.pk}
        if any(p not in settled for p in result_players_signed_by(result, user)):
            waiting.add(result.pk)
    return waiting


def test_the_one_query_says_what_the_signers_rule_says_for_every_kind_of_player(club, alice, bob, carol, dave):
    """Own players, guests added by the reader or by another or by nobody, in a league or not, imports vouched
    for, agreed and disputed sign-offs: the SQL definition and the rule the sign-off service applies agree."""
    season = _season(club, alice)
    Membership.objects.create(club=club, player=player_for_user(bob), role=Membership.Role.ADMIN)
    guests = {
        "by alice": Player.objects.create(name="Gus", created_by=alice, created_in=club),
        "by carol": Player.objects.create(name="Hana", created_by=carol),
        "by nobody": Player.objects.create(name="Ichi"),
    }
    players = [player_for_user(carol), *guests.values()]
    sign_offs = [None, (carol, True), (bob, False), (alice, False), (alice, True)]
    made = 0
    for in_season, imported, player, sign_off, status in itertools.product(
        (True, False), (False, True), players, sign_offs, (Result.Status.PENDING, Result.Status.DISPUTED)
    ):
        result = Result.objects.create(
            game="shitenno",
            played_on=TODAY,
            season=season if in_season else None,
            club=club if in_season else None,
            status=status,
            created_by=dave,
            source="bgg" if imported else "",
            vouched_by=alice if imported else None,
        )
        ResultEntry.objects.bulk_create(
            [
                ResultEntry(result=result, player=player, rank=1),
                ResultEntry(result=result, player=player_for_user(dave), rank=2),
            ]
        )
        SignOff.objects.create(result=result, player=player_for_user(dave), by=dave)
        if sign_off is not None:
            SignOff.objects.create(result=result, player=player, by=sign_off[0], agreed=sign_off[1])
        made += 1
    counted = Result.objects.create(
        game="shitenno", played_on=TODAY, season=season, club=club, status=Result.Status.COUNTED, created_by=dave
    )
    ResultEntry.objects.create(result=counted, player=guests["by alice"], rank=1)
    assert made == 160
    for user in (alice, bob, carol, dave):
        expected = _waiting_by_the_signers_rule(user)
        assert set(results_to_sign(user).values_list("pk", flat=True)) == expected, user
        assert to_sign_count(user) == len(expected)
    assert _waiting_by_the_signers_rule(alice) and _waiting_by_the_signers_rule(bob)  # the check reads something


@pytest.fixture
def guest_result(club, alice, carol):
    """carol enters a league game with Gus, a guest alice (the club's owner) added: carol signs her own at once,
    Gus has no account, so the result waits for alice to sign for him."""
    season = _season(club, alice)
    gus = player_guest_create(name="Gus", created_by=alice, club=club)
    result = results.result_enter(
        game="shitenno",
        played_on=TODAY - datetime.timedelta(days=1),
        season=season,
        user=carol,
        entries=[{"player": player_for_user(carol), "rank": 1}, {"player": gus, "rank": 2}],
    )
    assert result.status == Result.Status.PENDING
    return result


def _badge(client) -> str | None:
    with translation.override("en"):
        body = client.get(reverse("home")).content.decode()
    if "to sign</a>" not in body:
        return None
    return body[: body.index(" to sign</a>")].rsplit(">", 1)[1]


def test_an_organiser_sees_the_guest_s_result_he_signs_for_in_the_badge_until_he_signs_it(
    client, guest_result, alice, carol
):
    client.force_login(alice)
    assert _badge(client) == "1"
    page = client.get(reverse("results_waiting"))
    assert [r.pk for r in page.context["awaiting"]] == [guest_result.pk]
    assert f"/results/{guest_result.pk}/sign-off/" in page.content.decode()
    client.post(reverse("result_sign_off", args=[guest_result.pk]), {"agreed": "yes"})
    guest_result.refresh_from_db()
    assert guest_result.status == Result.Status.COUNTED
    assert _badge(client) is None and to_sign_count(alice) == 0
    client.force_login(carol)  # carol signed her own when she entered it: nothing to sign, no badge
    assert _badge(client) is None and client.get(reverse("results_waiting")).context["awaiting"] == []


def test_a_member_with_nothing_to_sign_sees_no_badge(client, guest_result, carol, bob):
    client.force_login(carol)  # she entered it and signed her own; Gus is not hers to sign
    assert _badge(client) is None and to_sign_count(carol) == 0
    client.force_login(bob)  # not in the club, in no game
    assert _badge(client) is None and to_sign_count(bob) == 0


def test_the_page_and_the_badge_agree_on_his_own_game_and_a_guest_s(client, guest_result, alice, carol):
    own = results.result_enter(
        game="shitenno",
        played_on=TODAY,
        season=guest_result.season,
        user=carol,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(carol), "rank": 2}],
    )
    client.force_login(alice)
    assert _badge(client) == "2"
    page = client.get(reverse("results_waiting"))
    assert [r.pk for r in page.context["awaiting"]] == [own.pk, guest_result.pk]
    assert all(r.can_sign for r in page.context["awaiting"])
    awaiting, _vouched = results_waiting_for(alice)
    assert len(awaiting) == to_sign_count(alice) == 2
    results.result_sign_off(result=own, user=alice)
    assert _badge(client) == "1" and [r.pk for r in results_waiting_for(alice)[0]] == [guest_result.pk]


SIGNS_FOR = {"en": "for Gus", "nl": "voor Gus"}


@pytest.mark.parametrize("language", ["en", "nl"])
def test_the_organiser_sees_on_whose_behalf_he_signs(client, guest_result, alice, language):
    """Found by the walk: the waiting page listed "1. carol, 2. Gus — Sign off" to alice, who never played it,
    without saying she signs for Gus, the guest she answers for."""
    client.force_login(alice)
    page = client.get(reverse("results_waiting"), headers={"Accept-Language": language}).content.decode()
    row = page.split(f'id="result-{guest_result.pk}"')[1].split("</li>")[0]
    button = row.index('name="agreed" value="yes"')
    assert f'<span class="signs-for">{SIGNS_FOR[language]}</span>' in row[button : row.index("</form>", button)]


def _two_more(guest_result, alice, carol):
    """alice's own game with carol, and one of hers, Gus's and carol's: both wait for alice."""
    own = results.result_enter(
        game="shitenno",
        played_on=TODAY,
        season=guest_result.season,
        user=carol,
        entries=[{"player": player_for_user(alice), "rank": 1}, {"player": player_for_user(carol), "rank": 2}],
    )
    mixed = results.result_enter(
        game="shitenno",
        played_on=TODAY,
        season=guest_result.season,
        user=carol,
        entries=[
            {"player": player_for_user(alice), "rank": 1},
            {"player": guest_result.entries.get(rank=2).player, "rank": 2},
            {"player": player_for_user(carol), "rank": 3},
        ],
    )
    return own, mixed


def test_one_s_own_game_names_nobody_and_a_mixed_one_names_you_and_the_guest(client, guest_result, alice, carol):
    own, mixed = _two_more(guest_result, alice, carol)
    client.force_login(alice)
    with translation.override("en"):
        page = client.get(reverse("results_waiting"))
    body = page.content.decode()
    assert {r.pk: r.signs_for for r in page.context["awaiting"]} == {
        own.pk: [],
        mixed.pk: ["you", "Gus"],
        guest_result.pk: ["Gus"],
    }
    assert "signs-for" not in body.split(f'id="result-{own.pk}"')[1].split("</li>")[0]
    assert "for you, Gus" in body.split(f'id="result-{mixed.pk}"')[1].split("</li>")[0]
    results.result_sign_off(result=mixed, user=alice)  # signed: nothing of it waits, nor is named
    assert [r.pk for r in results_waiting_for(alice)[0]] == [own.pk, guest_result.pk]


def test_naming_whom_he_signs_for_costs_no_query_per_row(guest_result, alice, carol, django_assert_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as one:
        assert len(results_waiting_for(alice)[0]) == 1
    _two_more(guest_result, alice, carol)
    with django_assert_num_queries(len(one.captured_queries)):
        awaiting, _vouched = results_waiting_for(alice)
        assert [r.signs_for for r in awaiting] == [["you", "Gus"], [], ["Gus"]]
