"""`manage.py demo_data` (run by `make run`) loads a club, eight players and tables, once."""

import pytest
from django.core.management import call_command

from games.models import TableSession
from leagues.models import Club, Player


@pytest.mark.django_db
def test_it_loads_the_demo_once():
    call_command("demo_data", games=2)
    call_command("demo_data", games=2)
    club = Club.objects.get(name="Edo Gamers")
    assert club.memberships.count() == 8 and Player.objects.count() == 8
    assert TableSession.objects.filter(status="finished").count() == 2
    assert TableSession.objects.filter(status="playing").count() == 1
