"""The one direction between the apps (issue 28, docs/architecture.md): leagues builds on games, games never
import leagues, at import time or inside a function; and no modules of the project need each other to be
imported first. The checker is tried on a planted package first, so a checker that finds nothing cannot pass."""

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
    root = _plant(tmp_path, {
        "low/__init__.py": "",
        "low/models.py": "from high.models import Thing\n",  # low -> high at import time
        "low/services.py": "def f():\n    from high import results\n",  # inside a function
        "low/views.py": "from . import models\n",
        "high/__init__.py": "",
        "high/models.py": "from low import models\n",  # and back: a cycle
        "high/results.py": "",
    })
    found = {(i.module, i.target, i.when) for i in import_graph.violations(root, "low", "high")}
    assert found == {("low.models", "high.models", "import"), ("low.services", "high.results", "call")}
    assert import_graph.cycles(root, ["low", "high"]) == [["high.models", "low.models"]]


def test_an_import_back_in_a_function_or_for_the_type_checker_is_not_a_cycle(tmp_path):
    root = _plant(tmp_path, {
        "a/__init__.py": "", "a/x.py": "from a import y\n", "a/y.py": "def f():\n    from a import x\n",
        "a/z.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from a import w\n",
        "a/w.py": "from a import z\n",
    })
    assert import_graph.cycles(root, ["a"]) == []
    assert import_graph.cycles(root, ["a"], counting_calls=True) == [["a.x", "a.y"]]  # w, z: type checker only


def test_games_never_import_leagues():
    found = [f"{i.module}:{i.line} imports {i.target}" for i in import_graph.violations(ROOT, "games", "leagues")]
    assert found == [], "games must not import leagues (docs/architecture.md): " + "; ".join(found)


def test_no_import_cycle_at_import_time():
    assert import_graph.cycles(ROOT, PACKAGES) == []


def test_leagues_modules_never_need_each_other_even_inside_functions():
    """The outbox hints its task by name and the import job has its own module, so leagues.tasks imports the
    outbox and the job and nothing imports the tasks back (issue 28: outbox <-> tasks)."""
    assert import_graph.cycles(ROOT, ["leagues"], counting_calls=True) == []
