"""A large night on the organiser's phone (issue 36): "Propose tables" for 16 players is answered at once with
"Proposing…" while a job seats them, the round's part polls by itself, and the tables appear when the job is done,
without a reload. A refusal the job reports appears the same way."""

import datetime

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from leagues.club import seasons
from leagues.models import Membership, NightCheckIn, Player
from leagues.nights import jobs, proposals
from leagues.nights import services as night_services

from .test_table import no_horizontal_scroll

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TODAY = timezone.localdate()
POLL = 15_000  # the round's part polls every second while a proposal runs


def _night(club, alice, count: int, sizes: list[int]):
    league = seasons.league_create(club=club, name="Thursday", games=["shitenno"], user=alice)
    season = seasons.season_create(
        league=league,
        name="Spring",
        starts_on=TODAY - datetime.timedelta(days=9),
        ends_on=TODAY + datetime.timedelta(days=30),
        user=alice,
    )
    night = night_services.night_open(season=season, user=alice, date=TODAY, games=["shitenno"], table_sizes=sizes)
    people = Player.objects.bulk_create([Player(name=f"Player {n:02d}") for n in range(count)])
    Membership.objects.bulk_create([Membership(club=club, player=p) for p in people])
    NightCheckIn.objects.bulk_create([NightCheckIn(night=night, player=p) for p in people])
    return night


@pytest.fixture
def held(monkeypatch):
    """The job's messages, held until the test plays the worker."""
    messages = []
    monkeypatch.setattr(proposals, "send_job", lambda *args: messages.append(args))
    return messages


def test_the_organiser_sees_proposing_then_the_tables_without_a_reload(phone, shoot, alice, club, held):
    night = _night(club, alice, 16, [4])
    organiser = phone(alice)
    organiser.goto(f"/nights/{night.pk}/")
    organiser.get_by_role("button", name="Propose tables").tap()
    status = organiser.locator("#night-round [role=status]")
    expect(status).to_contain_text("Proposing…")
    expect(organiser.get_by_role("button", name="Propose tables")).to_have_count(0)  # no second tap to make
    no_horizontal_scroll(organiser)
    shoot(organiser, "night-proposing")
    [job] = held
    jobs.propose_round(*job)  # the worker
    expect(organiser.locator(".night-table")).to_have_count(4, timeout=POLL)
    expect(organiser.get_by_text("Proposing…")).to_have_count(0)
    expect(organiser.get_by_role("button", name="Propose again")).to_be_visible()


def test_the_job_s_refusal_appears_where_the_tables_would(phone, alice, club, held):
    night = _night(club, alice, 13, [4])  # 13 players cannot sit at tables of 4
    organiser = phone(alice)
    organiser.goto(f"/nights/{night.pk}/")
    organiser.get_by_role("button", name="Propose tables").tap()
    expect(organiser.locator("#night-round [role=status]")).to_contain_text("Proposing…")
    jobs.propose_round(*held[0])
    expect(organiser.locator("#night-round [role=alert]")).to_have_text(
        "13 players cannot be split into tables of 4.", timeout=POLL
    )
    expect(organiser.get_by_role("button", name="Propose tables")).to_be_visible()  # to ask again, the night changed
