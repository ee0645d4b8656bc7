"""A club invite opened by someone logged out: erin is new to the site, bob has an account. Both end in the
club; the sign-up's `next` never leads off the site."""

import re
from html import unescape
from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model

from leagues.models import Membership
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def links(html: str) -> list[str]:
    return [unescape(href) for href in re.findall(r'href="([^"]+)"', html)]


def test_a_logged_out_invitee_sees_the_club_and_can_sign_up_or_log_in_keeping_the_invite(client, club):
    join = f"/clubs/join/{club.invite_token}/"
    response = client.get(join)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Edo Gamers" in html and "You are invited to Edo Gamers" in html
    assert f"/accounts/sign-up/?next={quote(join)}" in links(html)
    assert f"/accounts/login/?next={quote(join)}" in links(html)
    assert not Membership.objects.filter(club=club).exclude(player__user__username__in=["alice", "carol"]).exists()


def test_a_new_invitee_signs_up_and_ends_in_the_club(client, club):
    join = f"/clubs/join/{club.invite_token}/"
    sign_up = client.get(f"/accounts/sign-up/?next={quote(join)}").content.decode()
    assert f'name="next" value="{join}"' in sign_up
    response = client.post(
        f"/accounts/sign-up/?next={quote(join)}",
        {
            "username": "erin",
            "email": "erin@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": join,
        },
    )
    assert response.status_code == 302 and response["Location"] == join
    response = client.post(join)
    assert response.status_code == 302 and response["Location"] == club.get_absolute_url()
    assert Membership.objects.get(club=club, player__user__username="erin").role == "member"


def test_the_log_in_page_carries_the_invite_to_create_an_account_and_back(client, club, bob):
    join = f"/clubs/join/{club.invite_token}/"
    login_page = client.get(f"/accounts/login/?next={quote(join)}").content.decode()
    assert f"/accounts/sign-up/?next={quote(join)}" in links(login_page)
    response = client.post(
        f"/accounts/login/?next={quote(join)}", {"username": "bob", "password": PASSWORD, "next": join}
    )
    assert response.status_code == 302 and response["Location"] == join


def test_a_logged_out_join_post_asks_to_log_in_and_writes_nothing(client, club):
    join = f"/clubs/join/{club.invite_token}/"
    response = client.post(join)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")
    assert Membership.objects.filter(club=club).count() == 2  # alice and carol


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "http://evil.example/clubs/"])
def test_it_never_redirects_off_the_site_after_sign_up(client, target):
    response = client.post(
        f"/accounts/sign-up/?next={quote(target, safe='')}",
        {
            "username": "erin",
            "email": "erin@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert get_user_model().objects.filter(username="erin").exists()
    response = client.post("/accounts/logout/")
    response = client.post(
        "/accounts/sign-up/",
        {
            "username": "fay",
            "email": "fay@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "next": target,
        },
    )
    assert response["Location"] == "/"


@pytest.mark.parametrize("path", ["/api/players/claim/", "/api/clubs/join/"])
@pytest.mark.parametrize(
    "language, says",
    [
        ("en", "A token holds letters, digits, - and _ only."),
        ("nl", "Een token bevat alleen letters, cijfers, - en _."),
    ],
)
def test_a_token_of_other_characters_is_refused_in_the_reader_s_language(client, club, bob, path, language, says):
    client.force_login(bob)
    refused = client.post(
        path, {"token": "abc\u00e9"}, content_type="application/json", headers={"Accept-Language": language}
    )
    assert refused.status_code == 400
    assert says in refused.content.decode()
    assert not Membership.objects.filter(club=club, player__user=bob).exists()
