"""A result corrected or deleted in the Django admin asks for the same jobs as a correction on the site: once the
outbox has run, ratings, standings and the players' tallies are what a recompute from scratch gives, and the
club's audit trail shows the change."""

from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from leagues.jobs import outbox
from leagues.models import AuditEntry, Rating, RatingEvent, Result, Standing
from leagues.people.players import player_for_user
from leagues.result import results
from leagues.standings import tally as tally_store
from shitenno_site.errors import Conflict

from .league_helpers import enter, join, league_with_season, sign_all, snapshot
from .test_results import rate_everything

pytestmark = pytest.mark.django_db


class _FormValues(HTMLParser):
    """The values a browser would post from the admin's change form, as the page holds them."""

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[str, str] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag == "input" and name and attrs.get("type") not in ("submit", "button", "file"):
            if attrs.get("type") in ("checkbox", "radio"):
                if "checked" in attrs:
                    self.values[name] = attrs.get("value", "on")
            else:
                self.values[name] = attrs.get("value") or ""
        elif tag == "select" and name:
            self._select = name
            self.values.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in attrs:
            self.values[self._select] = attrs.get("value") or ""
        elif tag == "textarea" and name:
            self._textarea = name
            self.values[name] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self.values[self._textarea] += data


def change_form(client, result) -> dict[str, str]:
    page = client.get(reverse("admin:leagues_result_change", args=[result.pk]))
    assert page.status_code == 200
    parser = _FormValues()
    parser.feed(page.content.decode())
    return parser.values


@pytest.fixture
def two_counted(club, alice, bob, carol):
    join(club, bob)
    _league, season = league_with_season(club, alice)
    first = sign_all(enter(season, alice, [(alice, 1, 30), (bob, 2, 20), (carol, 3, 10)], days_ago=4), bob, carol)
    second = sign_all(enter(season, alice, [(bob, 1, 30), (carol, 2, 20)], days_ago=2), bob, carol)
    outbox.sweep(older_than=0)
    return season, first, second


@pytest.fixture
def root(client):
    user = get_user_model().objects.create_superuser("root", "root@example.org", "a long admin passphrase")
    client.force_login(user)
    return user


def derived_from_scratch(season):
    Rating.objects.all().delete()
    RatingEvent.objects.all().delete()
    Standing.objects.all().delete()
    rate_everything(season)
    return snapshot()


def test_a_result_corrected_in_the_admin_is_rerated_ranked_and_recounted(client, root, two_counted, alice, carol):
    season, first, _second = two_counted
    before = snapshot()
    form = change_form(client, first)
    alice_row = next(
        k[: -len("-player")]
        for k, v in form.items()
        if k.startswith("entries-") and k.endswith("-player") and v == str(player_for_user(alice).pk)
    )
    carol_row = next(
        k[: -len("-player")]
        for k, v in form.items()
        if k.startswith("entries-") and k.endswith("-player") and v == str(player_for_user(carol).pk)
    )
    form[f"{alice_row}-rank"], form[f"{carol_row}-rank"] = "3", "1"  # the first and the last place swapped
    saved = client.post(reverse("admin:leagues_result_change", args=[first.pk]), form)
    assert saved.status_code == 302, saved.content.decode()[:2000]

    outbox.sweep(older_than=0)
    after = snapshot()
    assert after != before
    assert tally_store.tallies_repair()["players_changed"] == []  # the tallies were already recounted
    assert derived_from_scratch(season) == after
    first.refresh_from_db()
    assert first.version == 2  # a correction opened on the site before the admin's is refused as stale
    with pytest.raises(Conflict):
        results.result_update(result=first, version=1, user=alice, played_on=first.played_on)
    line = AuditEntry.objects.get(action="result.edit", object_id=first.pk)
    assert (line.user, line.club_id, line.details["via"]) == (root, season.league.club_id, "admin")
    assert [e[0] for e in line.details["before"]["entries"]] == ["alice", "bob", "carol"]
    assert [e[0] for e in line.details["after"]["entries"]] == ["carol", "bob", "alice"]


def test_a_result_deleted_in_the_admin_leaves_the_ratings_standings_and_tallies(client, root, two_counted):
    season, first, second = two_counted
    page = client.post(reverse("admin:leagues_result_delete", args=[first.pk]), {"post": "yes"})
    assert page.status_code == 302
    assert not Result.objects.filter(pk=first.pk).exists()

    outbox.sweep(older_than=0)
    assert set(RatingEvent.objects.values_list("result_id", flat=True)) == {second.pk}
    assert tally_store.tallies_repair()["players_changed"] == []
    after = snapshot()
    assert derived_from_scratch(season) == after
    assert AuditEntry.objects.filter(action="result.delete", object_id=first.pk, details__via="admin").exists()


def test_results_deleted_from_the_admins_list_each_ask_for_their_jobs(client, root, two_counted):
    season, first, second = two_counted
    page = client.post(
        reverse("admin:leagues_result_changelist"),
        {"action": "delete_selected", "_selected_action": [first.pk, second.pk], "post": "yes"},
    )
    assert page.status_code == 302
    outbox.sweep(older_than=0)
    assert not RatingEvent.objects.exists() and not Rating.objects.exists()
    assert not Standing.objects.filter(season=season, games__gt=0).exists()
    assert tally_store.tallies_repair()["players_changed"] == []


def test_a_stored_rating_deleted_in_the_admin_is_written_again_by_its_job(client, root, two_counted, bob):
    _season, _first, _second = two_counted
    before = snapshot()
    rating = Rating.objects.filter(player=player_for_user(bob)).first()
    page = client.post(reverse("admin:leagues_rating_delete", args=[rating.pk]), {"post": "yes"})
    assert page.status_code == 302 and not Rating.objects.filter(pk=rating.pk).exists()
    outbox.sweep(older_than=0)
    assert snapshot() == before


def test_the_admin_cannot_edit_derived_rows(client, root, two_counted):
    rating = Rating.objects.first()
    page = client.post(reverse("admin:leagues_rating_change", args=[rating.pk]), {"mu": "99", "sigma": "1"})
    assert page.status_code == 403
    assert Rating.objects.get(pk=rating.pk).mu == rating.mu
    assert client.get(reverse("admin:leagues_standing_add")).status_code == 403
