"""Every code an engine can say, read from its source: the refusals it raises and the Phrases it builds.

The engines name their codes as string literals, directly (`Phrase(text, "shitenno.describe.place")`,
`IllegalMove(text, code="samurai_empires.wrong_era")`) or through a helper that takes a `code` parameter and
prefixes it (`illegal(text, "province_full")` -> "shitenno.province_full"). A code the source computes any other
way is reported as a problem, so a new refusal or sentence cannot slip past the catalogue test unseen.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINES = Path(__file__).resolve().parents[2] / "games" / "engines"
MAKERS = {"IllegalMove", "InvalidMove", "MoveError", "Phrase"}
PASSED_ON = "# the code of a Phrase built above"  # marks a refusal that repeats an already harvested Phrase's code


def _name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _code_arg(call: ast.Call, position: int) -> ast.expr | None:
    for keyword in call.keywords:
        if keyword.arg == "code":
            return keyword.value
    return call.args[position] if len(call.args) > position else None


def _literals(node: ast.expr) -> list[str] | None:
    """The strings a code expression can be: a literal, or either branch of `a if c else b`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _literals(node.body), _literals(node.orelse)
        return None if body is None or orelse is None else body + orelse
    return None


def _helpers(trees: list[ast.Module]) -> dict[str, tuple[int, str]]:
    """Functions with a `code` parameter that they hand to a maker: name -> (its position, the prefix added)."""
    helpers = {}
    for tree in trees:
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            params = [a.arg for a in fn.args.args]
            if "code" not in params:
                continue
            for call in ast.walk(fn):
                if isinstance(call, ast.Call) and _name(call) in MAKERS:
                    arg = _code_arg(call, 1)
                    if isinstance(arg, ast.Name) and arg.id == "code":
                        helpers[fn.name] = (params.index("code"), "")
                    elif isinstance(arg, ast.JoinedStr) and isinstance(arg.values[0], ast.Constant):
                        helpers[fn.name] = (params.index("code"), arg.values[0].value)
    return helpers


def engine_folder(slug: str) -> Path:
    """The folder of the engine's package (games/engines/<slug>/; the test-only Pile's is under tests/)."""
    from tests.games import every_game

    return Path(sys.modules[type(every_game.engine(slug)).__module__].__file__).resolve().parent


def engine_codes(slug: str) -> tuple[set[str], list[str]]:
    """(the codes the engine `slug` can produce, the places whose code could not be read)."""
    paths = sorted(engine_folder(slug).glob("*.py")) + [ENGINES / "base.py"]
    sources = {path: path.read_text() for path in paths}
    trees = {path: ast.parse(text) for path, text in sources.items()}
    helpers = _helpers(list(trees.values()))
    codes: set[str] = set()
    problems: list[str] = []
    for path, tree in trees.items():
        lines = sources[path].splitlines()
        helper_bodies = {
            id(node)
            for fn in ast.walk(tree)
            if isinstance(fn, ast.FunctionDef) and fn.name in helpers
            for node in ast.walk(fn)
        }
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call) or id(call) in helper_bodies:
                continue
            name = _name(call)
            if name in MAKERS and name != "MoveError" or name == "MoveError" and path.name != "base.py":
                arg, prefix = _code_arg(call, 1), ""
            elif name in helpers:
                position, prefix = helpers[name]
                arg = _code_arg(call, position)
            else:
                continue
            where = f"{path.relative_to(ENGINES.parent.parent)}:{call.lineno}"
            if arg is None:
                problems.append(f"{where}: {name}(...) without a code")
                continue
            found = _literals(arg)
            if found is None:
                if PASSED_ON in "\n".join(lines[max(call.lineno - 2, 0) : call.end_lineno + 1]):
                    continue
                problems.append(f"{where}: {name}(...) with a code that is not a literal")
                continue
            codes.update(prefix + code for code in found)
    return codes, problems
