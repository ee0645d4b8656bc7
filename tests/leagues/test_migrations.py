"""Data migrations, run on rows written by the schema before them."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from leagues.common import selectors
from leagues.models import Season

BEFORE_KEYS = [("leagues", "0005_rating_history_unchecked_keys")]
WITH_KEYS = [("leagues", "0006_standings_sort_key")]


def migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_stored_tables_get_their_keys_and_read_in_the_same_order():
    apps = migrate(BEFORE_KEYS)
    Club, League, Season_, Player = (apps.get_model("leagues", name) for name in ("Club", "League", "Season", "Player"))
    Result, ResultEntry, Standing = (apps.get_model("leagues", name) for name in ("Result", "ResultEntry", "Standing"))
    club = Club.objects.create(name="Old club", slug="old-club")
    league = League.objects.create(club=club, name="Old league", slug="old", games=["shitenno"])
    day = datetime.date(2026, 1, 5)
    season = Season_.objects.create(league=league, name="Old season", starts_on=day, ends_on=day, standings_results=2)
    ann, ben, cat = (Player.objects.create(name=name) for name in ("ann", "ben", "cat"))
    for placings in ([(ann, 1), (ben, 2), (cat, 3)], [(ben, 1), (ann, 2), (cat, 3)]):
        result = Result.objects.create(
            game="shitenno", played_on=day, club=club, season=season, status="counted", in_standings=True
        )
        for player, rank in placings:
            ResultEntry.objects.create(result=result, player=player, rank=rank)
    # the table as the old job stored it: ann and ben level on points, wins, second places and opponents'
    # points, and 1-1 head to head, so they share first place
    for order, (player, position, points, wins, seconds, opponents, separated_by) in enumerate(
        [(ann, 1, 4.5, 1, 1, 9.0, ""), (ben, 1, 4.5, 1, 1, 9.0, ""), (cat, 3, 0.0, 0, 0, 18.0, "points")]
    ):
        Standing.objects.create(
            season=season,
            player=player,
            order=order,
            position=position,
            points=points,
            games=2,
            wins=wins,
            seconds=seconds,
            opponents_points=opponents,
            separated_by=separated_by,
        )
    migrate(WITH_KEYS)
    try:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())  # the current code reads the current schema
        table = selectors.standings_of(Season.objects.get(pk=season.pk))
        assert [(row.player.name, row.position, row.separated_by) for row in table] == [
            ("ann", 1, ""),
            ("ben", 1, ""),
            ("cat", 3, "points"),
        ]
        assert all(row.sort_key for row in table)
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


BEFORE_RULES = [("leagues", "0008_consent_flags")]
WITH_RULES = [("leagues", "0009_season_rules_stored_as_applied")]


@pytest.mark.django_db(transaction=True)
def test_stored_rules_become_the_applied_ones_and_dense_ranks_competition_ranks():
    apps = migrate(BEFORE_RULES)
    Club, League, Season_, Player = (apps.get_model("leagues", name) for name in ("Club", "League", "Season", "Player"))
    Result, ResultEntry = (apps.get_model("leagues", name) for name in ("Result", "ResultEntry"))
    club = Club.objects.create(name="Rules club", slug="rules-club")
    league = League.objects.create(club=club, name="Rules league", slug="rules", games=["shitenno"])
    day = datetime.date(2026, 1, 5)
    empty = Season_.objects.create(
        league=league, name="empty", starts_on=day, ends_on=day, tie_breakers=[], standings_results=0
    )
    Season_.objects.create(
        league=league,
        name="no points",
        starts_on=day + datetime.timedelta(1),
        ends_on=day + datetime.timedelta(1),
        tie_breakers=["wins", "margin"],
        standings_results=0,
    )
    Season_.objects.create(
        league=league,
        name="placed",
        starts_on=day + datetime.timedelta(2),
        ends_on=day + datetime.timedelta(2),
        tie_breakers=["wins", "points"],
        standings_results=0,
    )
    ann, ben, cat, dan = (Player.objects.create(name=name) for name in ("ann", "ben", "cat", "dan"))
    dense = Result.objects.create(game="shitenno", played_on=day, club=club, season=empty, status="counted")
    for player, rank in ((ann, 1), (ben, 1), (cat, 2), (dan, 3)):
        ResultEntry.objects.create(result=dense, player=player, rank=rank)
    proper = Result.objects.create(game="shitenno", played_on=day, club=club, status="counted")
    for player, rank in ((ann, 1), (ben, 2), (cat, 2), (dan, 4)):
        ResultEntry.objects.create(result=proper, player=player, rank=rank)
    migrate(WITH_RULES)
    try:
        apps = migrate(WITH_RULES)
        Season_, ResultEntry = apps.get_model("leagues", "Season"), apps.get_model("leagues", "ResultEntry")
        rules = {s.name: (s.tie_breakers, s.standings_results) for s in Season_.objects.all()}
        assert rules == {
            "empty": (["points", "wins", "countback", "opponents_points", "head_to_head", "margin"], None),
            "no points": (["points", "wins", "margin"], None),
            "placed": (["wins", "points"], 0),
        }
        ranks = {(e.result_id, e.player.name): e.rank for e in ResultEntry.objects.select_related("player")}
        assert ranks == {
            (dense.pk, "ann"): 1,
            (dense.pk, "ben"): 1,
            (dense.pk, "cat"): 3,
            (dense.pk, "dan"): 4,
            (proper.pk, "ann"): 1,
            (proper.pk, "ben"): 2,
            (proper.pk, "cat"): 2,
            (proper.pk, "dan"): 4,
        }
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


BEFORE_PARTITIONS = [("leagues", "0015_latest_first")]
WITH_PARTITIONS = [("leagues", "0016_rating_history_partitions")]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the history is partitioned on PostgreSQL only")
@pytest.mark.django_db(transaction=True)
def test_the_rating_history_moves_into_a_partition_per_scope_and_back_with_its_ids():
    from leagues.rating import partitions as rating_partitions

    apps = migrate(BEFORE_PARTITIONS)
    Club, League, Player = (apps.get_model("leagues", name) for name in ("Club", "League", "Player"))
    Result, RatingEvent = apps.get_model("leagues", "Result"), apps.get_model("leagues", "RatingEvent")
    club = Club.objects.create(name="Parted club", slug="parted-club")
    league = League.objects.create(club=club, name="Parted league", slug="parted", games=["shitenno"])
    day = datetime.date(2026, 1, 5)
    ann, ben = Player.objects.create(name="ann"), Player.objects.create(name="ben")
    result = Result.objects.create(game="shitenno", played_on=day, club=club, status="counted")
    for kind, key in (("game", "shitenno"), ("league", str(league.pk))):
        for player, mu in ((ann, 26.0), (ben, 24.0)):
            RatingEvent.objects.create(
                kind=kind,
                key=key,
                result=result,
                player=player,
                played_on=day,
                mu_before=25.0,
                sigma_before=8.0,
                mu_after=mu,
                sigma_after=7.5,
            )
    columns = ("pk", "kind", "key", "result_id", "player_id", "played_on", "mu_after")
    before = sorted(RatingEvent.objects.values_list(*columns))
    try:
        apps = migrate(WITH_PARTITIONS)
        RatingEvent = apps.get_model("leagues", "RatingEvent")
        assert sorted(RatingEvent.objects.values_list(*columns)) == before
        with connection.cursor() as cursor:
            for key in ("shitenno", str(league.pk)):
                cursor.execute(f"SELECT count(*) FROM {rating_partitions.partition_name(key)}")
                assert cursor.fetchone()[0] == 2
            cursor.execute("SELECT count(*) FROM pg_indexes WHERE tablename = 'leagues_ratingevent'")
            assert cursor.fetchone()[0] == 4  # the plain table's indexes, on the partitioned table
        newer = RatingEvent.objects.create(
            kind="game",
            key="teikoku",
            result_id=result.pk,
            player_id=ann.pk,
            played_on=day,
            mu_before=25.0,
            sigma_before=8.0,
            mu_after=27.0,
            sigma_after=7.0,
        )
        assert newer.pk > max(row[0] for row in before)  # the id sequence goes on after the moved rows
        apps = migrate(BEFORE_PARTITIONS)
        RatingEvent = apps.get_model("leagues", "RatingEvent")
        assert sorted(RatingEvent.objects.values_list(*columns)) == sorted(
            [*before, (newer.pk, "game", "teikoku", result.pk, ann.pk, day, 27.0)]
        )
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


BEFORE_SEMI = [("leagues", "0038_import_preview_kept")]
WITH_SEMI = [("leagues", "0039_tournament_semi_final_round")]


@pytest.mark.django_db(transaction=True)
def test_a_semi_final_tournament_s_cut_round_becomes_its_semi_finals_and_back():
    """Before 0039 a tournament cut to semi-final pods stored those pods as its "cut" round, and no final followed;
    0039 names them "semi" (so its final may be paired), and leaves a final table's cut round a "cut"; back, "semi"
    is "cut" again."""
    apps = migrate(BEFORE_SEMI)
    Club, Tournament, Round = (apps.get_model("leagues", name) for name in ("Club", "Tournament", "TournamentRound"))
    club = Club.objects.create(name="Cut club", slug="cut-club")
    day = datetime.date(2026, 12, 5)
    semis = Tournament.objects.create(club=club, name="With semis", date=day, cut="semi", cut_size=8)
    final = Tournament.objects.create(club=club, name="With a final", date=day, cut="final", cut_size=4)
    for tournament in (semis, final):
        Round.objects.create(tournament=tournament, number=1, kind="swiss")
        Round.objects.create(tournament=tournament, number=2, kind="cut")
    try:
        apps = migrate(WITH_SEMI)
        Round = apps.get_model("leagues", "TournamentRound")
        kinds = dict(Round.objects.filter(number=2).values_list("tournament__name", "kind"))
        assert kinds == {"With semis": "semi", "With a final": "cut"}
        assert set(Round.objects.filter(number=1).values_list("kind", flat=True)) == {"swiss"}
        apps = migrate(BEFORE_SEMI)
        Round = apps.get_model("leagues", "TournamentRound")
        assert set(Round.objects.filter(number=2).values_list("kind", flat=True)) == {"cut"}
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


BEFORE_SEATS = [("leagues", "0040_club_export")]
WITH_SEATS = [("leagues", "0041_result_entry_seats_of_tables")]


@pytest.mark.django_db(transaction=True)
def test_a_table_s_old_result_gets_the_table_s_seats_and_an_entered_one_keeps_none():
    apps = migrate(BEFORE_SEATS)
    Player, Result, ResultEntry = (apps.get_model("leagues", n) for n in ("Player", "Result", "ResultEntry"))
    Session, Seat = (apps.get_model("games", n) for n in ("TableSession", "Seat"))
    ann, ben = Player.objects.create(name="ann"), Player.objects.create(name="ben")
    day = datetime.date(2026, 11, 5)
    table = Session.objects.create(
        game="shitenno", code="OLDSEATS", status="finished", rules_version="1", setup={}, state={}
    )
    Seat.objects.create(session=table, position=0, player=ben)
    Seat.objects.create(session=table, position=1, player=ann)
    played = Result.objects.create(game="shitenno", played_on=day, session=table, status="counted")
    entered = Result.objects.create(game="shitenno", played_on=day, status="counted")
    for result in (played, entered):
        ResultEntry.objects.create(result=result, player=ann, rank=1)
        ResultEntry.objects.create(result=result, player=ben, rank=2)
    try:
        apps = migrate(WITH_SEATS)
        ResultEntry = apps.get_model("leagues", "ResultEntry")
        assert dict(ResultEntry.objects.filter(result_id=played.pk).values_list("player__name", "seat")) == {
            "ben": 1,
            "ann": 2,
        }
        assert set(ResultEntry.objects.filter(result_id=entered.pk).values_list("seat", flat=True)) == {None}
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
