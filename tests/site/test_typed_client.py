"""The API's contract, as an integrator meets it (issue 48, "Done means"): the schema fetched from the running site
(GET /api/schema/?format=json on pytest-django's live server), a typed Python client generated from it by
openapi-python-client (the generator an integrator would pick, pinned in the test extra), and the loop an app lives
on driven through that client's functions and models alone: the accounts' tokens, a club with bob asked in and
accepting, a league and its season, a table opened for the club, every move of a legal Shitennō game, the result
waiting for each player (GET /api/results/?waiting=me, with his own token), each one's sign-off, the worker's jobs,
and the season's (paged) standings. Then refusals through the same client, a stale `seq` (409), a `seq` below its
bound and a move with an unknown field (400), each parsed into the client's typed `Problem` (the API's one error
shape, RFC 9457), with the table's head_seq unchanged.

What is not the client's: the schema's own GET (there is no client before it), made with httpx as an integrator's
`curl` would be; the tokens, which a person makes on the site signed in with a session (a token cannot make tokens,
docs/api.md), so the set-up makes them with the service the account page uses, as test_api_loop's accounts are made
outside the API; the fixed clock (the season must cover the day played); and the Celery worker's jobs, run here
in-process as the worker runs them. Every answer the client gets is also checked against the schema
(tests/schema_contract.py, as the autouse fixture checks the Django test client's), and must parse into the
operation's typed model: an answer it cannot parse, or a status the schema does not document (the client raises
`UnexpectedStatus`), fails the test.

Generation fails this test on any generator warning about an operation the loop uses; the others are printed (and
written next to the schema in tmp_path). The generated code is never committed: it is made in tmp_path each run.
An integrator makes the same client with `openapi-python-client generate --path schema.json --meta none` from the
schema he fetched (docs/api.md, after the quick start)."""

import datetime
import importlib
import json
import re
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("openapi_python_client")

import httpx  # noqa: E402  (comes with openapi-python-client; the generated client runs on it)
from openapi_python_client import generate  # noqa: E402
from openapi_python_client.config import Config, ConfigFile, MetaType  # noqa: E402
from openapi_python_client.parser.errors import ErrorLevel  # noqa: E402

from games.engines.shitenno.simulation import random_legal_game  # noqa: E402
from shitenno_site.tokens.services import token_create  # noqa: E402
from tests import schema_contract  # noqa: E402
from tests.clock import TONIGHT, travel_to  # noqa: E402
from tests.leagues.test_api_loop import the_worker_runs_its_jobs  # noqa: E402

pytestmark = pytest.mark.django_db(transaction=True)

# Every operation the loop and the refusals call: a generator warning about any of them fails the test.
THE_LOOPS_OPERATIONS = {
    ("GET", "/api/me/"),
    ("POST", "/api/clubs/"),
    ("POST", "/api/clubs/{slug}/members/"),
    ("GET", "/api/invites/"),
    ("POST", "/api/invites/{id}/"),
    ("POST", "/api/clubs/{slug}/leagues/"),
    ("POST", "/api/leagues/{id}/seasons/"),
    ("POST", "/api/tables/"),
    ("GET", "/api/tables/{code}/"),
    ("POST", "/api/tables/{code}/moves/"),
    ("GET", "/api/tables/{code}/result/"),
    ("GET", "/api/results/"),
    ("POST", "/api/results/{id}/sign-off/"),
    ("GET", "/api/seasons/{id}/standings/"),
}
WARNED_OPERATION = re.compile(r"parsing (GET|POST|PUT|PATCH|DELETE) (\S+) within")


class _Answer:
    """An httpx answer as tests/schema_contract.py reads a Django one (its content already decoded by httpx, so no
    Content-Encoding)."""

    streaming = False

    def __init__(self, response: httpx.Response) -> None:
        self.status_code, self.content, self._headers = response.status_code, response.content, response.headers

    def get(self, name: str, default: str = "") -> str:
        return default if name.lower() == "content-encoding" else self._headers.get(name, default)


def _within_the_schema(response: httpx.Response) -> None:
    response.read()
    schema_contract.contract().check(response.request.method, response.request.url.path, _Answer(response))


@dataclass
class Generated:
    package: str
    root: Path  # the directory to put on sys.path
    seconds: float
    warnings: list[str]  # each as the generator says it, with its level
    fatal: list[str]  # the generator could not make the client
    touching: list[str]  # warnings about an operation the loop uses


def generate_client(schema: Path, where: Path) -> Generated:
    """openapi-python-client's `generate --path <schema> --meta none`, with no post hooks (they would run ruff and
    its formatter over the output, slow and beside the point), into `where`, as a package of a unique name (nothing
    cached in sys.modules can stand in for it)."""
    package = f"shitenno_typed_{uuid.uuid4().hex[:8]}"
    config = Config.from_sources(
        ConfigFile(post_hooks=[], package_name_override=package, project_name_override=package),
        MetaType.NONE,
        document_source=schema,
        file_encoding="utf-8",
        overwrite=True,
        output_path=where / "client" / package,
    )
    started = time.perf_counter()
    errors = generate(config=config)
    seconds = time.perf_counter() - started
    said = [f"{error.level.value} {error.header} {error.detail or ''}".strip() for error in errors]
    return Generated(
        package=package,
        root=where / "client",
        seconds=seconds,
        warnings=said,
        fatal=[line for error, line in zip(errors, said, strict=True) if error.level is ErrorLevel.ERROR],
        touching=[
            line
            for error, line in zip(errors, said, strict=True)
            if (found := WARNED_OPERATION.search(error.header or "")) and found.groups() in THE_LOOPS_OPERATIONS
        ],
    )


@pytest.fixture(scope="module")
def served_schema(live_server, tmp_path_factory) -> Path:
    """The schema as the running site serves it, saved as an integrator's `curl -o schema.json` would."""
    served = httpx.get(f"{live_server.url}/api/schema/", params={"format": "json"}, timeout=60)
    assert served.status_code == 200, (served.status_code, served.text[:500])
    assert json.loads(served.content)["openapi"].startswith("3.")
    schema = tmp_path_factory.mktemp("served") / "schema.json"
    schema.write_bytes(served.content)
    return schema


@pytest.fixture(scope="module")
def typed(served_schema, tmp_path_factory):
    """The client generated from the live schema, imported: its package (models, `api` operations, Client)."""
    where = tmp_path_factory.mktemp("typed_client")
    made = generate_client(served_schema, where)
    (where / "generator-warnings.txt").write_text("\n".join(made.warnings) + "\n", encoding="utf-8")
    print(
        f"\nopenapi-python-client generated the client in {made.seconds:.1f} s, with {len(made.warnings)} "
        "warning(s)" + "".join(f"\n  {line}" for line in made.warnings)
    )
    assert not made.fatal, f"the generator could not make the client: {made.fatal}"
    assert not made.touching, f"the generator cannot model part of an operation the loop uses: {made.touching}"

    sys.path.insert(0, str(made.root))
    try:
        yield importlib.import_module(made.package)
    finally:
        sys.path.remove(str(made.root))
        for name in [name for name in sys.modules if name == made.package or name.startswith(made.package + ".")]:
            del sys.modules[name]


def op(typed, name: str):
    """The generated operation module `api.<tag>.<operationId>` (e.g. tables.tables_moves_create)."""
    return importlib.import_module(f"{typed.__name__}.api.{name}")


def model(typed, name: str):
    return getattr(importlib.import_module(f"{typed.__name__}.models"), name)


def parsed(response, status: int, kind):
    """The typed answer: the status expected and the operation's model for it, parsed from the body."""
    assert response.status_code == status, (response.status_code, response.content[:500])
    assert isinstance(response.parsed, kind), (type(response.parsed), response.content[:500])
    return response.parsed


@pytest.fixture
def app_for(typed, live_server):
    """An app on a person's phone: the generated AuthenticatedClient with the read-and-write token he made for it
    on the site (`Authorization: Bearer`). An undocumented status raises UnexpectedStatus."""
    clients = []

    def app(user):
        _token, key = token_create(user=user, name="Score app", scope="write", expires_in_days=None)
        client = typed.AuthenticatedClient(
            base_url=live_server.url,
            token=key,
            raise_on_unexpected_status=True,
            timeout=httpx.Timeout(60),
            httpx_args={"event_hooks": {"response": [_within_the_schema]}},
        )
        clients.append(client)
        return client

    yield app
    for client in clients:
        client.get_httpx_client().close()


def test_the_loop_through_a_client_generated_from_the_live_schema(typed, app_for, alice, bob):
    M = lambda name: model(typed, name)  # noqa: E731
    setup, moves = random_legal_game(3, 2)
    with travel_to(TONIGHT):
        alices, bobs = app_for(alice), app_for(bob)
        me = {
            name: parsed(op(typed, "me.me_retrieve").sync_detailed(client=app), 200, M("MeOutput")).player.id
            for name, app in (("alice", alices), ("bob", bobs))
        }

        # alice's club, bob asked in and accepting, a league and a season around tonight
        club = parsed(
            op(typed, "clubs.clubs_create").sync_detailed(client=alices, body=M("ClubInputRequest")(name="Edo Gamers")),
            201,
            M("ClubOutput"),
        )
        parsed(
            op(typed, "clubs.clubs_members_create").sync_detailed(
                club.slug, client=alices, body=M("AddInputRequest")(player=me["bob"])
            ),
            202,
            M("InviteAsked"),
        )
        invites = parsed(
            op(typed, "invites.invites_list").sync_detailed(client=bobs), 200, M("PaginatedInviteAskedList")
        ).results
        assert [(invite.club, invite.player.id) for invite in invites] == [(club.slug, me["bob"])]
        parsed(
            op(typed, "invites.invites_answer").sync_detailed(
                invites[0].id, client=bobs, body=M("AnswerInputRequest")(accept=True)
            ),
            200,
            M("MembershipOutput"),
        )
        league = parsed(
            op(typed, "clubs.clubs_leagues_create").sync_detailed(
                club.slug, client=alices, body=M("LeagueInputRequest")(name="Thursday", games=["shitenno"])
            ),
            201,
            M("LeagueOutput"),
        )
        season = parsed(
            op(typed, "leagues.leagues_seasons_create").sync_detailed(
                league.id,
                client=alices,
                body=M("SeasonInputRequest")(
                    name="Autumn",
                    starts_on=TONIGHT - datetime.timedelta(days=30),
                    ends_on=TONIGHT + datetime.timedelta(days=30),
                ),
            ),
            201,
            M("SeasonOutput"),
        )

        table = parsed(
            op(typed, "tables.tables_create").sync_detailed(
                client=alices,
                body=M("TableCreateInputRequest")(
                    game="shitenno",
                    players=[me["alice"], me["bob"]],
                    club=club.slug,
                    setup=M("TableCreateInputRequestSetup").from_dict(setup),
                ),
            ),
            201,
            M("TableOutput"),
        )
        assert table.head_seq == 0 and table.club == club.slug
        answer = None
        for move in moves:  # each move as the app sends it: the head_seq it saw, and the move
            head = parsed(
                op(typed, "tables.tables_retrieve").sync_detailed(table.code, client=alices), 200, M("TableOutput")
            ).head_seq
            answer = parsed(
                op(typed, "tables.tables_moves_create").sync_detailed(
                    table.code,
                    client=alices,
                    body=M("MoveCreateInputRequest")(seq=head, move=M("MoveCreateInputRequestMove").from_dict(move)),
                ),
                201,
                M("RecordedOutput"),
            )
            assert answer.event.seq == head + 1
        assert (
            parsed(
                op(typed, "tables.tables_retrieve").sync_detailed(table.code, client=alices), 200, M("TableOutput")
            ).status
            == "finished"
        )

        result = answer.result  # the finishing move's answer names the result, who still signs, and its links
        assert isinstance(result, M("TableResultOutput"))
        assert result.status == "pending" and result.season == season.id
        assert {row.player for row in result.waiting_for} == set(me.values())
        assert result.links.sign_off.endswith(f"/api/results/{result.id}/sign-off/")
        assert result.links.table_result.endswith(f"/api/tables/{table.code}/result/")
        by_table = parsed(
            op(typed, "tables.tables_result_retrieve").sync_detailed(table.code, client=bobs), 200, M("ResultOutput")
        )
        assert by_table.id == result.id and by_table.links.sign_off == result.links.sign_off

        signed = None
        for app in (alices, bobs):
            waiting = parsed(
                op(typed, "results.results_list").sync_detailed(client=app, waiting=M("ResultsListWaiting").ME),
                200,
                M("PaginatedResultOutputList"),
            )
            assert [(row.id, row.table) for row in waiting.results] == [(result.id, table.code)]
            signed = parsed(
                op(typed, "results.results_sign_off").sync_detailed(
                    waiting.results[0].id, client=app, body=M("SignOffInputRequest")(agreed=True)
                ),
                200,
                M("ResultOutput"),
            )
            assert (
                parsed(
                    op(typed, "results.results_list").sync_detailed(client=app, waiting=M("ResultsListWaiting").ME),
                    200,
                    M("PaginatedResultOutputList"),
                ).results
                == []
            )
        assert signed.status == M("ResultStatusEnum").COUNTED and signed.waiting_for == []
        assert (
            parsed(
                op(typed, "tables.tables_result_retrieve").sync_detailed(table.code, client=alices),
                200,
                M("ResultOutput"),
            ).status
            == M("ResultStatusEnum").COUNTED
        )

        the_worker_runs_its_jobs()
        standings = parsed(
            op(typed, "seasons.seasons_standings_list").sync_detailed(season.id, client=bobs),
            200,
            M("PaginatedStandingOutputList"),
        )
        assert standings.count == 2 and not standings.next_
        assert {row.player.id: row.games for row in standings.results} == {me["alice"]: 1, me["bob"]: 1}
        winners = {entry.player.id for entry in signed.entries if entry.rank == 1}
        assert winners and {row.player.id for row in standings.results if row.position == 1} == winners


def test_refusals_parse_into_the_typed_problem_and_change_nothing(typed, app_for, alice, bob):
    M = lambda name: model(typed, name)  # noqa: E731
    setup, moves = random_legal_game(3, 2)
    with travel_to(TONIGHT):
        alices, bobs = app_for(alice), app_for(bob)
        players = [
            parsed(op(typed, "me.me_retrieve").sync_detailed(client=app), 200, M("MeOutput")).player.id
            for app in (alices, bobs)
        ]
        table = parsed(
            op(typed, "tables.tables_create").sync_detailed(
                client=alices,
                body=M("TableCreateInputRequest")(
                    game="shitenno", players=players, setup=M("TableCreateInputRequestSetup").from_dict(setup)
                ),
            ),
            201,
            M("TableOutput"),
        )
        create_move = op(typed, "tables.tables_moves_create")
        Move, Body = M("MoveCreateInputRequest"), M("MoveCreateInputRequestMove")
        parsed(
            create_move.sync_detailed(table.code, client=alices, body=Move(seq=0, move=Body.from_dict(moves[0]))),
            201,
            M("RecordedOutput"),
        )

        def head_seq() -> int:
            return parsed(
                op(typed, "tables.tables_retrieve").sync_detailed(table.code, client=alices), 200, M("TableOutput")
            ).head_seq

        assert head_seq() == 1
        # the next move sent with the head_seq before the last one: 409, and the table's head_seq now
        stale = parsed(
            create_move.sync_detailed(table.code, client=alices, body=Move(seq=0, move=Body.from_dict(moves[1]))),
            409,
            M("Problem"),
        )
        assert stale.status == 409 and stale.head_seq == 1 and stale.type_ and stale.title and stale.detail
        assert head_seq() == 1

        # a seq below the schema's bound (a whole number, so the typed model takes it): 400, the field named
        malformed = parsed(
            create_move.sync_detailed(table.code, client=alices, body=Move(seq=-1, move=Body.from_dict(moves[1]))),
            400,
            M("Problem"),
        )
        assert malformed.status == 400 and malformed.type_ and malformed.detail
        assert isinstance(malformed.errors, M("ProblemErrors")) and list(malformed.errors.additional_properties) == [
            "seq"
        ]
        assert head_seq() == 1

        # the next move with a field no move has: 400, the engine's refusal with its code and rule
        unknown = parsed(
            create_move.sync_detailed(
                table.code, client=alices, body=Move(seq=1, move=Body.from_dict(moves[1] | {"colour": "red"}))
            ),
            400,
            M("Problem"),
        )
        assert unknown.status == 400 and unknown.code == "InvalidMove" and unknown.rule and "colour" in unknown.detail
        assert head_seq() == 1

        # and the same move, well-formed and at the head, is taken: the refusals left the table as it was
        parsed(
            create_move.sync_detailed(table.code, client=alices, body=Move(seq=1, move=Body.from_dict(moves[1]))),
            201,
            M("RecordedOutput"),
        )
        assert head_seq() == 2


def test_the_client_is_generated_into_the_tests_own_directory(typed):
    """The generated package lives in the run's tmp_path and is imported from there, never from the repository."""
    assert Path(typed.__file__).resolve().parent.name == typed.__name__
    assert Path(__file__).resolve().parents[2] not in Path(typed.__file__).resolve().parents


def test_a_warning_about_an_operation_of_the_loop_fails_it(served_schema, tmp_path):
    """The check can fail: the served schema with POST /api/tables/'s 201 pointing at a component that does not
    exist, and the generator's warning about it is one the loop's fixture refuses (the rest of the client is made)."""
    broken = json.loads(served_schema.read_text(encoding="utf-8"))
    answer = broken["paths"]["/api/tables/"]["post"]["responses"]["201"]["content"]["application/json"]
    answer["schema"] = {"$ref": "#/components/schemas/NoSuchModel"}
    (tmp_path / "broken.json").write_text(json.dumps(broken), encoding="utf-8")
    made = generate_client(tmp_path / "broken.json", tmp_path)
    assert not made.fatal
    assert len(made.touching) == 1 and "POST /api/tables/" in made.touching[0], made.warnings
