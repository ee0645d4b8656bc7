"""Data migrations of the games app, run on rows written by the schema before them."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE_SCORE = [("games", "0001_initial")]
WITH_SCORE = [("games", "0002_outcome_placings_score")]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_stored_placings_say_score_where_they_said_favour_and_back():
    apps = migrate(BEFORE_SCORE)
    User, Session = apps.get_model("auth", "User"), apps.get_model("games", "TableSession")
    alice = User.objects.create(username="alice")
    old = {
        "termination": "final_count",
        "details": {"breakdown": [{"favour_before_count": 3}]},
        "placings": [
            {"seat": 1, "rank": 1, "favour": 40, "tiebreak": None},
            {"seat": 0, "rank": 2, "favour": 31, "tiebreak": None},
        ],
    }
    finished = Session.objects.create(
        code="OLD1",
        game="shitenno",
        rules_version="1",
        setup={},
        state={},
        created_by=alice,
        status="finished",
        outcome=old,
    )
    playing = Session.objects.create(
        code="OLD2", game="shitenno", rules_version="1", setup={}, state={}, created_by=alice, outcome=None
    )
    try:
        TableSession = migrate(WITH_SCORE).get_model("games", "TableSession")  # the model of that schema
        outcome = TableSession.objects.get(pk=finished.pk).outcome
        assert [(p["seat"], p["rank"], p["score"]) for p in outcome["placings"]] == [(1, 1, 40), (0, 2, 31)]
        assert all("favour" not in p for p in outcome["placings"])
        assert outcome["details"] == old["details"]  # the game's own words in its details stay
        assert TableSession.objects.get(pk=playing.pk).outcome is None
        migrate(BEFORE_SCORE)
        assert Session.objects.get(pk=finished.pk).outcome == old
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
