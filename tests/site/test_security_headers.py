"""Every page carries the Content-Security-Policy: scripts only from the site, no inline script, no framing."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url",
    [
        "/",
        "/tables/new/",
        "/players/",
        "/clubs/",
        "/leagues/",
        "/rankings/",
        "/accounts/login/",
        "/accounts/sign-up/",
        "/api/docs/",
    ],
)
def test_every_page_carries_a_strict_policy(client, url):
    response = client.get(url)
    assert response.status_code in (200, 302)
    policy = dict(part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";") if part.strip())
    assert policy["script-src"] == "'self'"
    assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy["default-src"] + policy["script-src"]


def test_the_api_docs_load_their_start_up_script_from_the_site(client):
    page = client.get("/api/docs/").content.decode()
    assert "<script>" not in page and "?script" in page
    assert client.get("/api/docs/?script").status_code == 200
