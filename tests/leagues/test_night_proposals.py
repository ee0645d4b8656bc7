# ruff: noqa: F811  (the fixtures imported from test_night_games are parameters here, by name)
"""Proposing a night's round without holding the site (issues 36 and 37).

The rule: a night of at most 12 free players (the exact search, about 0.1 s) is proposed in the request; a larger
one by the Celery job `leagues.nights.propose_round`, which the API (202, then poll) and the organiser's page
("Proposing…", polled) follow until its outcome: the round, a refusal and its reason, or a failure. One proposal
of a night at a time: a second "propose" while one runs is answered at once with that one. The optimiser runs
outside the night's row lock and writes only if the night is still as it read it."""

import datetime
import os

import pytest
from django.urls import reverse

from leagues.models import Membership, NightProposal, NightRound, NightTable, Player
from leagues.nights import jobs, proposals, services, table_games

from .test_night_games import SHITENNO, members, open_night, season  # noqa: F401 (fixtures)
from .test_night_races import _nowait, _second_connection, on_postgresql


@pytest.fixture
def queued(monkeypatch):
    """The job's messages, kept instead of sent: each test runs them when it wants (a worker that is slow)."""
    messages = []
    monkeypatch.setattr(proposals, "send_job", lambda *args: messages.append(args))
    return messages


def night_of(season, alice, members, guests: int, **kwargs):
    """The twelve members and `guests` more players of the club, all checked in."""
    club = season.league.club
    extra = Player.objects.bulk_create([Player(name=f"Guest {n:02d}") for n in range(guests)])
    Membership.objects.bulk_create([Membership(club=club, player=p) for p in extra])
    night = open_night(season, alice, members, games=[SHITENNO], **kwargs)
    for player in extra:
        services.night_check_in(night=night, user=alice, player=player)
    return night


def rounds_url(night) -> str:
    return f"/api/nights/{night.pk}/rounds/"


def seated(night) -> list[int]:
    return sorted(p for t in NightTable.objects.filter(round__night=night) for p in t.players)


# --- the rule: small in the request, large as a job ------------------------------------------------------------


def test_twelve_free_players_are_proposed_in_the_request(api, season, alice, members, queued):
    night = night_of(season, alice, members, 0)
    answer = api.login(alice).post(rounds_url(night))
    assert answer.status_code == 201 and answer.json()["number"] == 1
    assert queued == [] and len(seated(night)) == 12


def test_thirteen_are_proposed_by_the_job_which_the_api_follows(api, season, alice, members, queued):
    night = night_of(season, alice, members, 1)
    asked = api.login(alice).post(rounds_url(night))
    assert asked.status_code == 202
    body = asked.json()
    assert body["state"] == "queued" and body["attempt"] == 1 and body["round"] is None
    assert asked["Location"] == body["poll"] and body["poll"].endswith(f"/api/nights/{night.pk}/proposal/")
    assert not NightRound.objects.filter(night=night).exists()
    assert api.get(body["poll"]).json()["state"] == "queued"
    [job] = queued
    jobs.propose_round(*job)  # the worker
    done = api.get(body["poll"]).json()
    assert done["state"] == "done" and done["round"]["number"] == 1 and done["error"] == ""
    assert sorted(p for t in done["round"]["tables"] for p in t["players"]) == seated(night)
    assert len(seated(night)) == 13


def test_a_second_propose_while_one_runs_is_answered_with_that_one(api, season, alice, members, queued):
    night = night_of(season, alice, members, 4)
    first = api.login(alice).post(rounds_url(night)).json()
    again = api.post(rounds_url(night))
    assert again.status_code == 202 and again.json()["attempt"] == first["attempt"] == 1
    assert len(queued) == 1  # nothing more was started
    jobs.propose_round(*queued[0])
    jobs.propose_round(*queued[0])  # the broker delivers it twice: the second finds it done
    assert NightRound.objects.filter(night=night).count() == 1
    assert NightProposal.objects.get(night=night).attempt == 1
    next_ask = api.post(rounds_url(night))  # once it is done, "propose" proposes again
    assert next_ask.status_code == 202 and next_ask.json()["attempt"] == 2 and len(queued) == 2


def test_eager_celery_proposes_a_large_night_in_one_request(api, season, alice, members):
    from shitenno_site.celery import app

    night = night_of(season, alice, members, 4)
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True  # as in `make run`: the job runs here
    try:
        answer = api.login(alice).post(rounds_url(night))
    finally:
        app.conf.task_always_eager = eager
    assert answer.status_code == 201 and answer.json()["number"] == 1 and len(seated(night)) == 16


def test_only_the_club_s_managers_propose(api, season, alice, carol, members, queued):
    night = night_of(season, alice, members, 4)
    assert api.login(carol).post(rounds_url(night)).status_code == 403
    assert queued == [] and not NightProposal.objects.exists()


# --- every outcome reported ----------------------------------------------------------------------------------


def test_a_refusal_is_reported_with_its_reason_in_the_organiser_s_language(api, season, alice, members, queued):
    night = night_of(season, alice, members, 1, table_sizes=[4])  # 13 players at tables of 4
    asked = api.login(alice).post(rounds_url(night), headers={"Accept-Language": "nl"})
    assert asked.status_code == 202
    jobs.propose_round(*queued[0])
    outcome = api.get(asked.json()["poll"]).json()
    assert outcome["state"] == "refused" and outcome["round"] is None
    assert outcome["error"] == "13 spelers kunnen niet over tafels van 4 verdeeld worden.", outcome["error"]
    assert not NightRound.objects.filter(night=night).exists()


def test_the_same_refusal_in_the_request_is_a_400(api, season, alice, members):
    night = open_night(season, alice, members[:11], games=[SHITENNO], table_sizes=[4])
    answer = api.login(alice).post(rounds_url(night))
    assert answer.status_code == 400 and "cannot be split into tables of 4" in answer.json()["errors"]["tables"][0]
    assert api.get(f"/api/nights/{night.pk}/proposal/").json()["state"] == "refused"


def test_a_failing_optimiser_is_reported_as_failed_and_writes_nothing(api, season, alice, members, queued, monkeypatch):
    night = night_of(season, alice, members, 4)
    api.login(alice).post(rounds_url(night))

    def broken(*args, **kwargs):
        raise RuntimeError("out of memory")

    monkeypatch.setattr(table_games, "propose", broken)
    jobs.propose_round(*queued[0])
    outcome = api.get(f"/api/nights/{night.pk}/proposal/").json()
    assert outcome["state"] == "failed" and "out of memory" in outcome["error"]
    assert not NightRound.objects.filter(night=night).exists()


def test_a_job_that_never_reports_reads_failed_and_a_new_propose_starts(api, season, alice, members, queued):
    night = night_of(season, alice, members, 4)
    api.login(alice).post(rounds_url(night))
    NightProposal.objects.filter(night=night).update(  # its message was lost three minutes ago
        started_at=NightProposal.objects.get(night=night).started_at - datetime.timedelta(minutes=3)
    )
    lost = api.get(f"/api/nights/{night.pk}/proposal/").json()
    assert lost["state"] == "failed" and "did not finish" in lost["error"]
    again = api.post(rounds_url(night))
    assert again.status_code == 202 and again.json()["attempt"] == 2
    jobs.propose_round(*queued[0])  # the lost message, found at last: its attempt was replaced
    assert not NightRound.objects.filter(night=night).exists()
    jobs.propose_round(*queued[1])
    assert NightRound.objects.filter(night=night).count() == 1


def test_a_queue_that_does_not_answer_is_said_at_once(api, season, alice, members, monkeypatch):
    night = night_of(season, alice, members, 4)

    def down(*args):
        raise ConnectionError("broker down")

    monkeypatch.setattr(proposals, "send_job", down)
    answer = api.login(alice).post(rounds_url(night))
    assert answer.status_code == 503 and "job queue does not answer" in answer.json()["detail"]
    assert api.post(rounds_url(night)).status_code == 503  # not "running": each tap tries again


def test_a_broker_nobody_listens_on_is_a_503_not_a_wait(api, season, alice, members, monkeypatch):
    from shitenno_site.celery import app

    if app.conf.task_always_eager:
        pytest.skip("eager Celery (no broker) runs the job in the request")
    night = night_of(season, alice, members, 4)
    monkeypatch.setattr(app.conf, "broker_write_url", "redis://127.0.0.1:1/0")  # nothing listens there
    answer = api.login(alice).post(rounds_url(night))
    assert answer.status_code == 503 and "job queue does not answer" in answer.json()["detail"]
    assert not NightRound.objects.filter(night=night).exists()


# --- outside the night's row lock -------------------------------------------------------------------------


def test_a_night_changed_while_proposing_is_read_and_proposed_again(season, alice, members, monkeypatch):
    night = open_night(season, alice, members[:7], games=[SHITENNO], table_sizes=[3, 4])
    real, calls = table_games.propose, []

    def latecomer_meanwhile(request, **kwargs):
        calls.append(sorted(request.players))
        if len(calls) == 1:  # a latecomer checks in while the first split is computed
            services.night_check_in(night=night, user=members[7])
        return real(request, **kwargs)

    monkeypatch.setattr(table_games, "propose", latecomer_meanwhile)
    night_round = services.round_propose(night=night, user=alice)
    assert len(calls) == 2 and len(calls[1]) == 8
    assert seated(night) == sorted(u.player.pk for u in members[:8]) and night_round.number == 1


def test_a_night_that_keeps_changing_is_refused_with_409_and_nothing_written(api, season, alice, members, monkeypatch):
    night = open_night(season, alice, members[:6], games=[SHITENNO], table_sizes=[3, 4])
    real, arrivals = table_games.propose, iter(members[6:])

    def always_someone_new(request, **kwargs):
        services.night_check_in(night=night, user=next(arrivals))
        return real(request, **kwargs)

    monkeypatch.setattr(table_games, "propose", always_someone_new)
    answer = api.login(alice).post(rounds_url(night))
    assert answer.status_code == 409 and "changed while" in answer.json()["detail"]
    assert not NightRound.objects.filter(night=night).exists()
    assert api.get(f"/api/nights/{night.pk}/proposal/").json()["code"] == "changed"


@on_postgresql
def test_the_optimiser_runs_while_the_night_s_row_is_free(season, alice, members, monkeypatch):
    night = open_night(season, alice, members[:8], games=[SHITENNO], table_sizes=[4])
    real, free = table_games.propose, []
    holder = _second_connection()

    def look(request, **kwargs):
        free.append(_nowait(holder, "leagues_night", night.pk))  # another tap could change the night now
        return real(request, **kwargs)

    monkeypatch.setattr(table_games, "propose", look)
    try:
        services.round_propose(night=night, user=alice)
    finally:
        holder.close()
    assert free == [True] and len(seated(night)) == 8


# --- the organiser's page ------------------------------------------------------------------------------------


def test_the_page_says_proposing_and_polls_until_the_round_is_there(client, season, alice, members, queued):
    night = night_of(season, alice, members, 4)
    client.force_login(alice)
    hx = {"HX-Request": "true"}
    tapped = client.post(reverse("night_propose", args=[night.pk]), headers=hx)
    text = tapped.content.decode()
    assert tapped.status_code == 202 and "Proposing…" in text
    poll = f"{reverse('night_detail', args=[night.pk])}?part=round&amp;attempt=1"
    assert f'data-hx-get="{poll}" data-hx-trigger="every 1s"' in text
    tapped_again = client.post(reverse("night_propose", args=[night.pk]), headers=hx)
    assert tapped_again.status_code == 202 and len(queued) == 1
    page = client.get(reverse("night_detail", args=[night.pk]))
    assert "Proposing…" in page.content.decode()  # the whole page too, polling the same way
    still = client.get(reverse("night_detail", args=[night.pk]), {"part": "round", "attempt": 1}, headers=hx)
    assert "Proposing…" in still.content.decode()
    jobs.propose_round(*queued[0])
    there = client.get(reverse("night_detail", args=[night.pk]), {"part": "round", "attempt": 1}, headers=hx)
    assert "Proposing…" not in there.content.decode() and "Table 4: Shitennō" in there.content.decode()
    assert "hx-trigger" not in there.content.decode().split(">", 1)[0]  # the polling stops


def test_the_page_shows_the_job_s_refusal_in_dutch(client, season, alice, members, queued):
    night = night_of(season, alice, members, 1, table_sizes=[4])
    client.force_login(alice)
    nl = {"HX-Request": "true", "Accept-Language": "nl"}
    tapped = client.post(reverse("night_propose", args=[night.pk]), headers=nl)
    assert "Tafels worden voorgesteld…" in tapped.content.decode()
    jobs.propose_round(*queued[0])
    polled = client.get(reverse("night_detail", args=[night.pk]), {"part": "round", "attempt": 1}, headers=nl)
    assert "13 spelers kunnen niet over tafels van 4 verdeeld worden." in polled.content.decode()


def test_a_plain_post_comes_back_to_the_page_which_says_proposing(client, season, alice, members, queued):
    night = night_of(season, alice, members, 4)
    client.force_login(alice)
    tapped = client.post(reverse("night_propose", args=[night.pk]))
    assert tapped.status_code == 302
    assert "Proposing…" in client.get(tapped["Location"]).content.decode()


def test_the_proposal_state_names_no_state_before_the_first_ask(season, alice, members):
    night = night_of(season, alice, members, 0)
    assert proposals.proposal_state(night)["state"] is None


def test_the_worker_finds_the_job_by_the_name_it_is_sent_with():
    """In a fresh process, as a worker starts: the app's autodiscovery registers leagues/nights/jobs.py."""
    import subprocess
    import sys

    code = (
        "import django; django.setup(); from shitenno_site.celery import app; "
        f"app.loader.import_default_modules(); task = app.tasks[{proposals.PROPOSE_TASK!r}]; "
        "print(task.run.__module__)"
    )
    found = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "shitenno_site.settings"},
    )
    assert found.returncode == 0, found.stderr[-2000:]
    assert found.stdout.strip() == "leagues.nights.jobs"


def test_the_page_shows_a_queue_that_does_not_answer_in_the_round_s_part(client, season, alice, members, monkeypatch):
    night = night_of(season, alice, members, 4)

    def down(*args):
        raise ConnectionError("broker down")

    monkeypatch.setattr(proposals, "send_job", down)
    client.force_login(alice)
    tapped = client.post(reverse("night_propose", args=[night.pk]), headers={"HX-Request": "true"})
    assert tapped.status_code == 400  # htmx swaps a 4xx's part (base.html), never a 5xx's
    assert "job queue does not answer" in tapped.content.decode()
