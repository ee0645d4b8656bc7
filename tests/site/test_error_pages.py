"""Issue 45: a page that is not there, a server error and an expired form each answer with the site's own page in
the reader's language (Django's were bare English pages, under `nl` too, and the CSRF page said `lang="en"` over a
Dutch heading); the API's paths answer JSON. Crawlers get robots.txt and a sitemap of the public pages only."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def lang_of(response) -> str:
    return re.search(r'<html lang="([a-z-]+)"', response.content.decode()).group(1)


@pytest.mark.parametrize(("language", "heading"), [("en", "Page not found"), ("nl", "Pagina niet gevonden")])
def test_a_missing_page_is_the_site_s_page_in_the_reader_s_language(language, heading):
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get("/no-such-page/")
    assert response.status_code == 404
    assert lang_of(response) == language
    page = response.content.decode()
    assert f"<h1>{heading}</h1>" in page
    assert 'class="brand"' in page  # the site's header: the reader can go on from here


@pytest.mark.parametrize(("language", "heading"), [("en", "Something went wrong"), ("nl", "Er ging iets mis")])
def test_a_server_error_is_a_page_that_needs_nothing_that_failed(settings, language, heading):
    settings.ROOT_URLCONF = "tests.site.error_urls"
    client = Client(HTTP_ACCEPT_LANGUAGE=language, raise_request_exception=False)
    response = client.get("/boom/")
    assert response.status_code == 500
    assert lang_of(response) == language
    assert f"<h1>{heading}</h1>" in response.content.decode()
    api = client.get("/api/boom/")
    assert api.status_code == 500 and api["Content-Type"] == "application/problem+json"


@pytest.mark.parametrize(("language", "heading"), [("en", "Form expired"), ("nl", "Formulier verlopen")])
def test_a_form_without_its_csrf_token_says_what_to_do_in_the_reader_s_language(alice, language, heading):
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(alice)
    response = client.post("/clubs/new/", {"name": "Sneaky"})
    assert response.status_code == 403
    assert lang_of(response) == language
    assert f"<h1>{heading}</h1>" in response.content.decode()
    from leagues.models import Club

    assert not Club.objects.filter(name="Sneaky").exists()


def test_robots_txt_keeps_crawlers_out_of_accounts_and_the_api_and_names_the_sitemap(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert "Disallow: /accounts/" in lines and "Disallow: /api/" in lines and "Disallow: /admin/" in lines
    assert "Sitemap: http://testserver/sitemap.xml" in lines


def test_the_sitemap_lists_the_public_pages_and_each_game_and_nothing_of_an_account(client):
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    urls = [loc.text for loc in ET.fromstring(response.content).findall("s:url/s:loc", namespace)]
    assert "http://testserver/" in urls and "http://testserver/rankings/" in urls
    assert "http://testserver/games/shitenno/" in urls
    assert not [url for url in urls if "/accounts/" in url or "/api/" in url or "/admin/" in url]
    for url in urls:  # every listed page is there for an anonymous reader
        assert client.get(url.removeprefix("http://testserver")).status_code == 200, url


def test_every_page_names_its_canonical_address_without_the_query(client):
    page = client.get("/rankings/?game=shitenno").content.decode()
    assert '<link rel="canonical" href="http://testserver/rankings/">' in page
