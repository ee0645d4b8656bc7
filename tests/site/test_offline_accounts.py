"""Whose copy a page is (shitenno_site/offline.py, docs/offline.md): every page names its account in an opaque
header the service worker keys its copies by; sign-out tells the browser to drop its cache; a page showing a
secret (an invite or claim link, a token in its address, a manager's actions) is answered `no-store`, never kept."""

from django.urls import reverse

from shitenno_site.offline import ACCOUNT_HEADER, ANONYMOUS


def test_each_account_names_its_pages_with_its_own_opaque_tag(client, alice, bob):
    assert client.get("/")[ACCOUNT_HEADER] == ANONYMOUS
    client.force_login(alice)
    tag = client.get("/")[ACCOUNT_HEADER]
    assert tag == client.get("/leagues/")[ACCOUNT_HEADER] and tag != ANONYMOUS
    assert "alice" not in tag and str(alice.pk) != tag
    assert f'data-account="{tag}"' in client.get("/").content.decode()
    client.force_login(bob)
    assert client.get("/")[ACCOUNT_HEADER] not in {tag, ANONYMOUS}


def test_an_htmx_fragment_names_no_account(client, alice):
    client.force_login(alice)
    assert ACCOUNT_HEADER not in client.get("/leagues/", headers={"HX-Request": "true"})


def test_sign_out_drops_the_browsers_cache(client, alice):
    client.force_login(alice)
    assert "Clear-Site-Data" not in client.get("/")
    response = client.post(reverse("logout"))
    assert response.status_code == 302 and response["Clear-Site-Data"] == '"cache"'
    assert response[ACCOUNT_HEADER] == ANONYMOUS


def test_a_club_page_with_its_invite_link_is_never_kept_and_a_members_one_may_be(client, club, alice, carol):
    client.force_login(alice)  # the owner: the invite link and the member actions
    owner_page = client.get(club.get_absolute_url())
    assert club.invite_token in owner_page.content.decode()
    assert "no-store" in owner_page["Cache-Control"]
    client.force_login(carol)  # a member: no secret on the page
    member_page = client.get(club.get_absolute_url())
    assert club.invite_token not in member_page.content.decode()
    assert "no-store" not in member_page.get("Cache-Control", "")


def test_a_page_reached_by_a_token_is_never_kept(client, club, bob):
    client.force_login(bob)
    response = client.get(reverse("club_join", args=[club.invite_token]))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
