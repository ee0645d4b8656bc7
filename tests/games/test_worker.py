"""A task round-trips through the real Celery worker and Redis, against the real PostgreSQL."""

import pytest

from games import services, tasks
from games.models import TableSession
from leagues.people.players import player_for_user
from tests.games.tables import two_player_setup


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_it_rebuilds_a_tables_state_in_the_worker(celery_worker_process, alice, bob):
    table = services.session_create(
        game="shitenno",
        created_by=alice,
        players=[player_for_user(alice), player_for_user(bob)],
        setup=two_player_setup(),
    )
    good_state = table.state
    TableSession.objects.filter(pk=table.pk).update(state={"corrupted": True})

    result = tasks.session_rebuild.delay(table.pk)

    assert result.get(timeout=60) == 0
    table.refresh_from_db()
    assert table.state == good_state
