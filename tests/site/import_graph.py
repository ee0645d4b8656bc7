"""The project's import graph read from its source (ast), without importing anything: grimp is not installed, and
an import-time check would miss what a function imports only when it runs.

`imports(root, package)` lists every import of every module under a package, with whether it runs at import time
(module level, including under a module-level `if`/`try`) or only when a function or method runs (or, under
`if TYPE_CHECKING:`, never). `cycles()` finds
the strongly connected groups of the module-level graph: modules that need each other to be imported first.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Import:
    module: str  # the importing module, dotted
    target: str  # the imported module, dotted (a name imported from a package resolves to its submodule if any)
    line: int
    when: str  # "import": at import time; "call": inside a function, when it runs; "never": under TYPE_CHECKING

    @property
    def at_import_time(self) -> bool:
        return self.when == "import"


def module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_module(root: Path, dotted: str) -> bool:
    base = root.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _type_checking_only(node: ast.AST) -> bool:
    """`if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`): imports for the type checker, never run."""
    if not isinstance(node, ast.If):
        return False
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports_of(root: Path, path: Path) -> list[Import]:
    module = module_name(root, path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, when: str) -> None:
        for child in ast.iter_child_nodes(node):
            inner = when
            if _type_checking_only(child):
                inner = "never"
            elif when == "import" and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                inner = "call"
            if isinstance(child, ast.Import):
                found.extend(Import(module, alias.name, child.lineno, when) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")[: len(package.split(".")) - (child.level - 1)]
                    source = ".".join(base + ([child.module] if child.module else []))
                else:
                    source = child.module or ""
                for alias in child.names:
                    submodule = f"{source}.{alias.name}"
                    target = submodule if _is_module(root, submodule) else source
                    found.append(Import(module, target, child.lineno, when))
            visit(child, inner)

    visit(ast.parse(path.read_text(), filename=str(path)), "import")
    return found


def imports(root: Path, package: str) -> list[Import]:
    """Every import in every module under `package` (a folder under `root`), migrations included."""
    result: list[Import] = []
    for path in sorted((root / package).rglob("*.py")):
        result.extend(_imports_of(root, path))
    return result


def _within(target: str, package: str) -> bool:
    return target == package or target.startswith(package + ".")


def violations(root: Path, package: str, forbidden: str) -> list[Import]:
    """The imports of `forbidden` (or anything under it) from modules under `package`, at any time."""
    return [i for i in imports(root, package) if _within(i.target, forbidden)]


def cycles(root: Path, packages: list[str], *, counting_calls: bool = False) -> list[list[str]]:
    """The groups of modules (of these packages) that import each other at import time, each sorted (Tarjan).
    With `counting_calls`, an import inside a function counts too: modules that need each other at all."""
    counted = {"import", "call"} if counting_calls else {"import"}
    graph: dict[str, set[str]] = {}
    for package in packages:
        for i in imports(root, package):
            graph.setdefault(i.module, set())
            if i.when in counted and any(_within(i.target, p) for p in packages) and i.target != i.module:
                graph[i.module].add(i.target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return sorted(groups)


# --- private names ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrivateUse:
    module: str  # the module that reaches in
    owner: str  # the module whose private name it takes
    name: str
    line: int


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _one_module(a: str, b: str, split: dict[str, tuple[str, ...]]) -> bool:
    """Two files of one module split in files (`split`: a package -> its parts; leagues.standings and its keys,
    points and rows, the standings maths): they share their private names as one module's functions do. Two
    modules of one feature package (leagues.people.player_page and leagues.people.player_record) do not."""
    for package, parts in split.items():
        members = {package} | {f"{package}.{part}" for part in parts}
        if a in members and b in members:
            return True
    return False


def private_uses(root: Path, packages: list[str], split: dict[str, tuple[str, ...]] | None = None) -> list[PrivateUse]:
    """Each `from module import _name` and each `module._name` (a module bound by an import) in these packages
    that takes a private name of another module, outside one split module's own files (migrations aside)."""
    found: list[PrivateUse] = []
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" not in path.parts:
                found.extend(_private_uses_of(root, path))
    return [use for use in found if not _one_module(use.module, use.owner, split or {})]


def _private_uses_of(root: Path, path: Path) -> list[PrivateUse]:
    module = module_name(root, path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[PrivateUse] = []
    modules: dict[str, str] = {}  # local name -> the project module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _is_module(root, alias.name):  # `import a.b as c` binds c to a.b, `import a.b` binds a to a
                    modules[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else alias.name.split(".")[0]
                    )
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            if not _is_module(root, source):
                continue  # not the project's
            for alias in node.names:
                if _private(alias.name) and not _is_module(root, f"{source}.{alias.name}"):
                    found.append(PrivateUse(module, source, alias.name, node.lineno))
                elif _is_module(root, f"{source}.{alias.name}"):
                    modules[alias.asname or alias.name] = f"{source}.{alias.name}"
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules
            and _private(node.attr)
            and modules[node.value.id] != module
        ):
            found.append(PrivateUse(module, modules[node.value.id], node.attr, node.lineno))
    return found


# --- the direction between one app's packages -------------------------------------------------------------------


def room(module: str, app: str) -> str | None:
    """The part of `app` a module belongs to: the package or module directly under the app (leagues.rating.store
    -> "rating", leagues.urls -> "urls"); None for the app itself or another app."""
    parts = module.split(".")
    return parts[1] if parts[0] == app and len(parts) > 1 else None


def upward_imports(
    root: Path, app: str, floors: list[tuple[str, ...]], *, floor: str, outside: set[str]
) -> list[Import]:
    """The imports, at import time or inside a function, that break `app`'s one direction between its packages:
    `floors` lists them top to bottom (one tuple a floor; packages on one floor import none of each other), and
    each may import only packages on lower floors and `floor` (the models, which every part stands on). What is in
    no floor is the frame (apps, admin, URLconfs, management commands, template tags): it may import any package,
    and no package imports it. `outside` (an app of its own inside this one) is left out both ways."""
    rank = {package: level for level, packages in enumerate(floors) for package in packages}
    found = []
    for i in imports(root, app):
        source, target = room(i.module, app), room(i.target, app)
        if i.when == "never" or source is None or target is None or source == target or target == floor:
            continue
        if source in outside or target in outside or source not in rank:
            continue
        if target not in rank or rank[target] <= rank[source]:
            found.append(i)
    return found
