"""The players' stored tallies (issue 18): whatever results are counted, corrected, deleted or claimed, and in
whatever order the jobs run, the stored rows are what a count from scratch over the results gives, and the
player page's record read from them is the record of the games the viewer may see."""

import datetime
import itertools

import pytest
from django.contrib.auth import get_user_model
from django.db.models import Q
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import TableSession
from leagues.jobs import outbox, repair
from leagues.models import Club, LeagueJob, Membership, Player, PlayerTally, Result, ResultEntry, RivalTally
from leagues.people import player_record, players
from leagues.result import results
from leagues.standings import tally as tally_store
from tests.conftest import PASSWORD
from tests.leagues.league_helpers import sat_with

DAY = datetime.date(2026, 1, 10)
worlds = itertools.count()


def reference(player_ids: set[int]) -> set[tuple]:
    """The tallies of these players counted in Python from the results, as tally_store._stored spells them."""
    record: dict[tuple, list] = {}
    rivals: dict[tuple, list] = {}
    counted = Result.objects.filter(
        Q(session__isnull=True) | Q(session__is_public=True), status=Result.Status.COUNTED
    ).prefetch_related("entries")
    for result in counted:
        entries = list(result.entries.all())
        for entry in entries:
            if entry.player_id not in player_ids:
                continue
            row = record.setdefault((entry.player_id, result.club_id, result.game, len(entries)), [0, 0, 0, 0.0, None])
            row[0] += 1
            row[1] += entry.rank == 1
            if entry.score is not None:
                row[2] += 1
                row[3] += entry.score
                row[4] = entry.score if row[4] is None else max(row[4], entry.score)
            for other in entries:
                if other.player_id != entry.player_id:
                    pair = rivals.setdefault((entry.player_id, other.player_id, result.club_id), [0, 0])
                    pair[0] += entry.rank < other.rank
                    pair[1] += entry.rank > other.rank
    return {("record", *key, *values) for key, values in record.items()} | {
        ("rival", *key, *values) for key, values in rivals.items()
    }


def run_tally_jobs() -> None:
    """What the worker would do with the outbox's tally rows (the rating and standings rows are not this test's)."""
    for row_id in LeagueJob.objects.filter(job=LeagueJob.Job.TALLY_PLAYER).order_by("?").values_list("pk", flat=True):
        outbox.run(row_id)


def ranks_from(draws: list[int]) -> list[int]:
    ordered = sorted(draws)
    return [ordered.index(d) + 1 for d in draws]


@st.composite
def a_game(draw, people: int):
    seated = draw(st.lists(st.integers(0, people - 1), min_size=2, max_size=min(4, people), unique=True))
    ranks = ranks_from(draw(st.lists(st.integers(0, 3), min_size=len(seated), max_size=len(seated))))
    scores = [draw(st.one_of(st.none(), st.integers(0, 60))) for _ in seated]
    return list(zip(seated, ranks, scores, strict=True))


PEOPLE = 5  # guests 0..3, and 4: the claimer's own player

operation = st.one_of(
    st.tuples(st.just("enter"), a_game(PEOPLE), st.sampled_from(["none", "public", "private"])),
    st.tuples(st.just("correct"), st.integers(0, 30), a_game(PEOPLE)),
    st.tuples(st.just("delete"), st.integers(0, 30)),
    st.tuples(st.just("claim"), st.integers(0, 3)),
    st.tuples(st.just("jobs")),
)


@pytest.mark.django_db
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, min_size=1, max_size=12))
def test_tallies_equal_a_count_from_scratch_after_any_changes(operations):
    number = next(worlds)
    # root records every game, owns both clubs and added the guests, so he answers for them (a superuser may not
    # edit a game of no club: only its recorder may)
    root = players.user_sign_up(username=f"root{number}", email=f"root{number}@example.org", password=PASSWORD)
    claimer = players.user_sign_up(username=f"claimer{number}", email=f"c{number}@example.org", password=PASSWORD)
    sat_with(root, claimer)  # outside a club root may name only people he plays with (issue 47 finding 6)
    clubs = {
        "none": None,
        "public": Club.objects.create(name="Public", slug=f"public-{number}", members_public=True),
        "private": Club.objects.create(name="Private", slug=f"private-{number}"),
    }
    for club in (clubs["public"], clubs["private"]):
        Membership.objects.create(club=club, player=root.player, role=Membership.Role.OWNER)
    people = [Player.objects.create(name=f"guest {number}-{i}", created_by=root) for i in range(PEOPLE - 1)]
    people.append(claimer.player)
    made: list[Result] = []
    for op in operations:
        if op[0] == "enter":
            entries = [{"player": people[p], "rank": r, "score": s} for p, r, s in op[1]]
            if len({e["player"].pk for e in entries}) < len(entries):
                continue  # a claimed guest is the claimer now: one player twice
            result = results.result_enter(game="Go", played_on=DAY, entries=entries, user=root, club=clubs[op[2]])
            if any(e["player"].user_id == claimer.pk for e in entries):
                results.result_sign_off(result=result, user=claimer)  # the claimer answers for himself
            made.append(result)
        elif op[0] in ("correct", "delete") and made:
            result = made[op[1] % len(made)]
            if not Result.objects.filter(pk=result.pk).exists():
                continue
            result.refresh_from_db()
            if op[0] == "delete":
                results.result_delete(result=result, version=result.version, user=root)
            else:
                entries = [{"player": people[p], "rank": r, "score": s} for p, r, s in op[2]]
                if len({e["player"].pk for e in entries}) < len(entries):
                    continue
                results.result_update(result=result, version=result.version, user=root, entries=entries)
        elif op[0] == "claim":
            guest = people[op[1]]
            if guest.merged_into_id or guest.user_id:
                continue
            token = players.player_claim_link_create(player=guest, user=root)
            try:
                people[op[1]] = players.player_claim(token=token, user=claimer)
            except Exception as exc:  # both sat at one table: refused, nothing moved
                assert "same table" in str(exc)
        elif op[0] == "jobs":
            run_tally_jobs()
    run_tally_jobs()
    ours = {p.pk for p in Player.objects.filter(Q(created_by=root) | Q(user=claimer))}
    assert tally_store._stored(sorted(ours)) == reference(ours)
    assert not RivalTally.objects.filter(opponent__merged_into__isnull=False).exists()  # no claimed guest named
    assert tally_store.tallies_repair()["players_changed"] == []


@pytest.mark.django_db
def test_the_repair_puts_wrong_tallies_right_and_says_so():
    a, b = Player.objects.bulk_create([Player(name="a"), Player(name="b")])
    result = Result.objects.create(game="Go", played_on=DAY, status=Result.Status.COUNTED)
    ResultEntry.objects.bulk_create(
        [ResultEntry(result=result, player=a, rank=1, score=9), ResultEntry(result=result, player=b, rank=2, score=4)]
    )
    assert repair.repair_all()["tallies_changed"] == [a.pk, b.pk]  # nothing was stored: both were missing
    assert reference({a.pk, b.pk}) == tally_store._stored([a.pk, b.pk])
    PlayerTally.objects.filter(player=a).update(wins=7)
    summary = repair.repair_all()
    assert summary["tallies_changed"] == [a.pk] and summary["tally_rows_changed"] == 2  # the wrong row out, right in
    assert PlayerTally.objects.get(player=a).wins == 1
    assert repair.repair_all()["tallies_changed"] == []


def _private_table(creator) -> TableSession:
    return TableSession.objects.create(
        game="shitenno",
        rules_version="1",
        setup={},
        state={},
        created_by=creator,
        is_public=False,
        status=TableSession.Status.FINISHED,
    )


@pytest.mark.django_db
def test_the_record_is_the_record_of_the_games_the_viewer_may_see(client, alice, bob, carol, dave):
    """Stored tallies for public tables and clubs; a private club's games only for its members; a private table's
    games (not tallied) only for who may see the table, added from the results."""
    me = bob.player
    ann = Player.objects.create(name="ann")
    public = Club.objects.create(name="Open", slug="open", members_public=True)
    private = Club.objects.create(name="Closed", slug="closed")
    Membership.objects.create(club=private, player=carol.player)
    games = [  # (club, private table created by, entries as (player, rank, score))
        (None, None, [(me, 1, 30), (ann, 2, 20)]),
        (public, None, [(me, 2, 20), (ann, 1, 25)]),
        (private, None, [(me, 1, 50), (ann, 2, 10)]),
        (public, alice, [(me, 2, 5), (ann, 1, 40)]),  # a private table of alice's in the public club
    ]
    for club, creator, entries in games:
        result = Result.objects.create(
            game="Go",
            played_on=DAY,
            club=club,
            status=Result.Status.COUNTED,
            session=_private_table(creator) if creator else None,
        )
        ResultEntry.objects.bulk_create(ResultEntry(result=result, player=p, rank=r, score=s) for p, r, s in entries)
    tally_store.tallies_recount(players=[me.pk, ann.pk])
    assert PlayerTally.objects.filter(player=me).count() == 3  # the private table's game is not tallied

    def seen(viewer):
        stats = player_record.player_stats(player=me, viewer=viewer)
        h2h = [(row["player"].name, row["won"], row["lost"]) for row in stats["head_to_head"]]
        nemesis = stats["nemesis"]["player"].name if stats["nemesis"] else None
        return stats["games"], stats["wins"], stats["best_score"], h2h, nemesis

    from django.contrib.auth.models import AnonymousUser

    assert seen(AnonymousUser()) == (2, 1, 30, [("ann", 1, 1)], "ann")
    assert seen(dave) == (2, 1, 30, [("ann", 1, 1)], "ann")
    assert seen(carol) == (3, 2, 50, [("ann", 2, 1)], "ann")  # a member of the private club
    assert seen(alice) == (3, 1, 30, [("ann", 1, 2)], "ann")  # she made the private table
    root = get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD)
    assert seen(root) == (4, 2, 50, [("ann", 2, 2)], "ann")
    page = client.get(me.get_absolute_url()).content.decode()
    assert "Won 1 of 2 counted games." in page


@pytest.mark.django_db
def test_a_claimed_guests_games_are_the_claimers_in_every_tally(alice, bob, carol):
    """alice's guest played carol; bob played carol too. Once bob claims the guest, carol's head-to-head names bob
    for both games and the guest for none, and bob's record holds both."""
    guest = players.player_guest_create(name="Ken", created_by=alice)
    for me in (guest, bob.player):
        result = Result.objects.create(game="Go", played_on=DAY, status=Result.Status.COUNTED)
        ResultEntry.objects.bulk_create(
            [
                ResultEntry(result=result, player=me, rank=1, score=10),
                ResultEntry(result=result, player=carol.player, rank=2, score=5),
            ]
        )
    tally_store.tallies_recount(players=[guest.pk, bob.player.pk, carol.player.pk])
    token = players.player_claim_link_create(player=guest, user=alice)
    claimer = players.player_claim(token=token, user=bob)
    assert claimer == bob.player and not RivalTally.objects.filter(opponent=guest).exists()
    asked = set(LeagueJob.objects.filter(job=LeagueJob.Job.TALLY_PLAYER).values_list("target", flat=True))
    assert asked == {str(bob.player.pk), str(carol.player.pk)}
    run_tally_jobs()
    assert list(RivalTally.objects.filter(player=carol.player).values_list("opponent", "won", "lost")) == [
        (bob.player.pk, 0, 2)
    ]
    assert list(PlayerTally.objects.filter(player=bob.player).values_list("games", "wins")) == [(2, 2)]
    assert tally_store._stored([bob.player.pk, carol.player.pk]) == reference({bob.player.pk, carol.player.pk})


@pytest.mark.django_db
def test_the_opponents_come_twenty_at_a_time_with_a_show_more_link(client):
    me = Player.objects.create(name="me")
    rivals = Player.objects.bulk_create(Player(name=f"rival {i:02d}") for i in range(25))
    for i, rival in enumerate(rivals):  # one game each; the first five twice: most games decided first
        for _ in range(2 if i < 5 else 1):
            result = Result.objects.create(game="Go", played_on=DAY, status=Result.Status.COUNTED)
            ResultEntry.objects.bulk_create(
                [ResultEntry(result=result, player=me, rank=1), ResultEntry(result=result, player=rival, rank=2)]
            )
    tally_store.tallies_recount(players=[me.pk])
    page = client.get(me.get_absolute_url()).content.decode()
    listed = [r.name for r in rivals if f">{r.name}<" in page]
    assert listed == [r.name for r in rivals[:20]] and "won 2, lost 0" in page and 'href="?opponents=2"' in page
    more = client.get(f"{me.get_absolute_url()}?opponents=2", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in more and [r.name for r in rivals if f">{r.name}<" in more] == [r.name for r in rivals[20:]]
    assert "opponents=3" not in more
    for number in ("x", "-4", "0", "9" * 40):  # not a page, or past any page: the first page or none, never a 500
        assert client.get(f"{me.get_absolute_url()}?opponents={number}", HTTP_HX_REQUEST="true").status_code == 200
