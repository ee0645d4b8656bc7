"""The one direction between the apps (issue 28, docs/architecture.md): leagues builds on games, games never
import leagues, at import time or inside a function; and no modules of the project need each other to be
imported first. The checker is tried on a planted package first, so a checker that finds nothing cannot pass."""

import ast
import re
from pathlib import Path

from tests.site import import_graph

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["games", "leagues", "shitenno_site"]


def _plant(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def test_the_checker_finds_a_planted_import_and_a_planted_cycle(tmp_path):
    root = _plant(
        tmp_path,
        {
            "low/__init__.py": "",
            "low/models.py": "from high.models import Thing\n",  # low -> high at import time
            "low/services.py": "def f():\n    from high import results\n",  # inside a function
            "low/views.py": "from . import models\n",
            "high/__init__.py": "",
            "high/models.py": "from low import models\n",  # and back: a cycle
            "high/results.py": "",
        },
    )
    found = {(i.module, i.target, i.when) for i in import_graph.violations(root, "low", "high")}
    assert found == {("low.models", "high.models", "import"), ("low.services", "high.results", "call")}
    assert import_graph.cycles(root, ["low", "high"]) == [["high.models", "low.models"]]


def test_an_import_back_in_a_function_or_for_the_type_checker_is_not_a_cycle(tmp_path):
    root = _plant(
        tmp_path,
        {
            "a/__init__.py": "",
            "a/x.py": "from a import y\n",
            "a/y.py": "def f():\n    from a import x\n",
            "a/z.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from a import w\n",
            "a/w.py": "from a import z\n",
        },
    )
    assert import_graph.cycles(root, ["a"]) == []
    assert import_graph.cycles(root, ["a"], counting_calls=True) == [["a.x", "a.y"]]  # w, z: type checker only


def test_games_never_import_leagues():
    found = [f"{i.module}:{i.line} imports {i.target}" for i in import_graph.violations(ROOT, "games", "leagues")]
    assert found == [], "games must not import leagues (docs/architecture.md): " + "; ".join(found)


def test_no_import_cycle_at_import_time():
    assert import_graph.cycles(ROOT, PACKAGES) == []


def test_leagues_modules_never_need_each_other_even_inside_functions():
    """The outbox hints its task by name, so leagues.jobs.tasks imports the outbox and nothing imports the tasks
    back (issue 28: outbox <-> tasks); the import job has its own module, which leagues.imports.tasks wraps."""
    assert import_graph.cycles(ROOT, ["leagues"], counting_calls=True) == []


# leagues' parts, top to bottom (docs/architecture.md, "Inside leagues"): a package imports only the packages on the
# floors below it, at import time or inside a function; the packages on one floor import none of each other. Every
# part may import leagues.models; the frame (apps, admin, urls, account_urls, management, templatetags) may import
# any part and no part imports it; leagues.notifications is an app of its own (docs/notifications.md).
LEAGUES_FLOORS = [
    ("api",),
    ("imports",),
    ("result",),
    ("club",),
    ("tournaments",),
    ("nights", "people"),
    ("jobs",),
    ("rating",),
    ("common",),
    ("standings",),
]
LEAGUES_FRAME = {"apps", "admin", "urls", "account_urls", "management", "templatetags", "migrations"}


def test_the_direction_checker_finds_a_planted_upward_import(tmp_path):
    root = _plant(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/models.py": "",
            "app/urls.py": "from app.top import views\n",
            "app/top/__init__.py": "",
            "app/top/views.py": "from app.low import store\nfrom app import models\n",
            "app/low/__init__.py": "",
            "app/low/store.py": "def f():\n    from app.top import views\n",  # up, in a call
            "app/side/__init__.py": "from app.low import store\n",  # two packages on one floor
            "app/low/frame.py": "from app import urls\n",  # a part importing the frame
        },
    )
    floors = [("top",), ("low", "side")]
    found = {
        (i.module, i.target) for i in import_graph.upward_imports(root, "app", floors, floor="models", outside=set())
    }
    assert found == {("app.low.store", "app.top.views"), ("app.side", "app.low.store"), ("app.low.frame", "app.urls")}


def test_leagues_parts_import_in_one_direction():
    """The drawing of docs/architecture.md: api -> imports -> result -> club -> tournaments -> nights, people ->
    jobs -> rating -> common -> standings (-> models). A part that needs one above it asks by a name or a signal,
    as games does."""
    parts = {p.name for p in (ROOT / "leagues").iterdir() if (p / "__init__.py").is_file() or p.suffix == ".py"}
    parts = {p.removesuffix(".py") for p in parts} - {"__init__"}
    named = {p for floor in LEAGUES_FLOORS for p in floor} | LEAGUES_FRAME | {"models", "notifications"}
    assert parts <= named, f"leagues/ parts on no floor (add them to LEAGUES_FLOORS and the doc): {parts - named}"
    found = [
        f"{i.module}:{i.line} imports {i.target}"
        for i in import_graph.upward_imports(ROOT, "leagues", LEAGUES_FLOORS, floor="models", outside={"notifications"})
    ]
    assert found == [], "imports against leagues' one direction (docs/architecture.md): " + "; ".join(found)


ONE_MODULE_IN_FILES = {"leagues.standings": ("keys", "points", "rows")}  # the standings maths, split in files


def test_the_checker_finds_a_planted_private_name_taken_from_another_module(tmp_path):
    root = _plant(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/a.py": "def _helper():\n    pass\n_LIMIT = 3\n",
            "app/b.py": "from app.a import _helper\nfrom . import a\n\ndef f():\n    return a._LIMIT\n",
            "app/c.py": "from app import a\n\ndef f():\n    return a.public, a.__name__\n",  # public and dunder: fine
            "app/part/__init__.py": "from .inner import _shared\n",  # one module split in files may share
            "app/part/other.py": "from .inner import _shared\n",  # another module of that package may not
            "app/part/inner.py": "_shared = 1\n",
        },
    )
    found = {(u.module, u.owner, u.name) for u in import_graph.private_uses(root, ["app"], {"app.part": ("inner",)})}
    assert found == {
        ("app.b", "app.a", "_helper"),
        ("app.b", "app.a", "_LIMIT"),
        ("app.part.other", "app.part.inner", "_shared"),
    }


def test_no_module_takes_another_modules_private_name():
    """A name with a leading underscore is its module's own: another module that needs it asks for a public one,
    in its own package too (only the standings maths, one module split in files, shares its files' names)."""
    found = [
        f"{u.module}:{u.line} takes {u.owner}.{u.name}"
        for u in import_graph.private_uses(ROOT, PACKAGES, ONE_MODULE_IN_FILES)
    ]
    assert found == [], "private names taken from another module: " + "; ".join(found)


# games reaches leagues' models only through its own foreign keys; the conditions on their fields (a user's seat,
# a club's member) are built in games/people.py alone, so a query in games never spells a field of leagues.
LEAGUES_FIELDS = re.compile(r"(^|__)(player|club)__(?!id$|pk$|in$|isnull$)[a-z]|^memberships__|\bmerged_into\b")


def _lookups(tree: ast.AST, function: str | None = None):
    """(the enclosing function, lookup) for each keyword of a call and each string argument that looks like a
    query lookup."""
    for node in ast.iter_child_nodes(tree):
        inner = node.name if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) else function
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if keyword.arg and "__" in keyword.arg:
                    yield inner, keyword.arg
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and "__" in arg.value:
                    yield inner, arg.value
        yield from _lookups(node, inner)


def test_games_queries_never_spell_a_field_of_leagues():
    found = set()
    for path in sorted((ROOT / "games").rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if "migrations" in path.parts or relative == "games/people.py" or relative.startswith("games/engines/"):
            continue
        for function, lookup in _lookups(ast.parse(path.read_text())):
            if LEAGUES_FIELDS.search(lookup):
                found.add(f"{relative} ({function}): {lookup}")
    assert not found, "leagues' fields in games' queries (build them in games/people.py): " + "; ".join(sorted(found))


def test_the_field_check_finds_a_planted_lookup():
    tree = ast.parse("def f(user):\n    return Table.objects.filter(seats__player__user=user).values('player__name')\n")
    assert {lookup for _fn, lookup in _lookups(tree) if LEAGUES_FIELDS.search(lookup)} == {
        "seats__player__user",
        "player__name",
    }
