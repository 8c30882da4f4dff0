"""The layers point down only: an import graph of problems/ and trainer/, imports inside
functions included (they hide cycles rather than remove them).

Imports under `if TYPE_CHECKING:` name a type for the checker and never run: they must point
down like the others, but a module may name the type of a module that imports it (the engine's
linter takes the check's report) without that counting as a cycle."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("problems", "trainer")

# Lowest first. A module may import its own layer and the layers below it, never above.
LAYERS = (
    ("problems.estimator",),
    ("problems.engine",),
    ("problems",),
    ("trainer.srs", "trainer.curriculum", "trainer.charts"),
    ("trainer.accounts",),
    ("trainer.practice",),
    ("trainer.mock",),
    ("trainer.plan",),
    ("trainer.dashboard",),
    ("trainer",),
)
# Plain libraries: usable from a shell, with no Django.
PURE = ("problems.estimator", "problems.engine", "trainer.srs", "trainer.curriculum")


def _module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules():
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            found[_module_name(path)] = path
    return found


def _type_only(tree):
    """The import statements under `if TYPE_CHECKING:`."""
    return {
        id(statement)
        for node in ast.walk(tree)
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
        for statement in node.body
    }


def _imports(name, path, known, *, type_only=True):
    """Every project module `name` imports, anywhere in its code (function bodies included;
    the imports for the type checker alone unless `type_only` is False)."""
    is_package = path.name == "__init__.py"
    found = set()
    tree = ast.parse(path.read_text(), str(path))
    skipped = set() if type_only else _type_only(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                base = base[: len(base) - node.level + (1 if is_package else 0)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            # `from package import module` imports the module; `from module import name`, the
            # module alone.
            targets = [
                f"{module}.{alias.name}" if f"{module}.{alias.name}" in known else module
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def _graph(*, type_only=True):
    known = _modules()
    return {name: _imports(name, path, known, type_only=type_only) for name, path in known.items()}


def _layer(module):
    best = None
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                if best is None or len(prefix) > best[1]:
                    best = (index, len(prefix))
    return best[0]


def _cycles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_graph_sees_imports_inside_functions():
    graph = _graph()
    # trainer.mock.apps connects its signal receiver in ready(), importing inside the method.
    assert "problems.signals" in graph["trainer.mock.apps"]
    assert "problems.engine.grading" in graph["problems.engine.variant"]


def test_it_has_no_import_cycle():
    assert _cycles(_graph(type_only=False)) == []


def test_the_graph_sees_imports_for_the_type_checker():
    # The linter names the check's report type; the check runs the linter.
    assert "problems.engine.check" in _graph()["problems.engine.lint"]
    assert "problems.engine.check" not in _graph(type_only=False)["problems.engine.lint"]


def test_every_import_points_down_or_sideways():
    upward = [
        f"{module} imports {target}"
        for module, targets in _graph().items()
        for target in sorted(targets)
        if _layer(target) > _layer(module)
    ]
    assert upward == []


def test_the_problem_bank_never_imports_the_learner_side():
    graph = _graph()
    assert [
        m
        for m, targets in graph.items()
        if m.startswith("problems") and any(t.startswith("trainer") for t in targets)
    ] == []


def test_the_pure_libraries_do_not_import_django():
    impure = []
    for name, path in _modules().items():
        if not name.startswith(PURE):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = (
                    [alias.name for alias in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                impure += [f"{name}: {n}" for n in names if n.split(".")[0] in ("django", "celery")]
    assert impure == []


def test_no_model_is_looked_up_by_name_at_run_time():
    """`apps.get_model` hides a dependency from the import graph (migrations excepted: they
    must use it)."""
    found = [
        str(path.relative_to(ROOT))
        for path in _modules().values()
        if "get_model(" in path.read_text() or "is_installed(" in path.read_text()
    ]
    assert found == []
