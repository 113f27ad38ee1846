"""The apps point one way: each imports only apps on the floors below it, so no two
apps import each other, directly or round a circle, and the library at the bottom
imports none of ours. Imports inside functions count too: a lazy import is an
arrow all the same."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Bottom to top; an app may import the apps of any floor below its own.
FLOORS = [
    ("arabic",),
    ("core",),
    ("audit",),
    ("images", "accounts", "identity"),
    ("articles",),
    ("sources",),
    ("publishing", "ingest"),
    ("distribution", "live", "wire"),
    ("demo",),
    ("newsroom",),
]
FLOOR = {app: number for number, apps in enumerate(FLOORS) for app in apps}


def imported_apps(path: Path) -> set[str]:
    """The apps of ours that the module at `path` imports, wherever it does."""
    app = path.relative_to(ROOT).parts[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return {name for name in found if name in FLOOR and name != app}


def arrows() -> set[tuple[str, str, str]]:
    """(app, the app it imports, the importing file) for every app's modules."""
    found = set()
    for app in FLOOR:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for target in imported_apps(path):
                found.add((app, target, str(path.relative_to(ROOT))))
    return found


def test_every_app_of_ours_is_on_a_floor():
    """A new app is placed on a floor before it can import or be imported."""
    apps = {
        path.parent.name
        for path in ROOT.glob("*/__init__.py")
        if path.parent.name not in {"tests", "scripts"}
    }
    assert apps - set(FLOOR) == set()


def test_no_app_imports_an_app_above_or_beside_it():
    """Every import points down a floor: no circle, no arrow back up."""
    upward = sorted(
        f"{source} imports {app} ({app} is not below {origin})"
        for origin, app, source in arrows()
        if FLOOR[app] >= FLOOR[origin]
    )
    assert upward == []


def test_the_identity_matcher_reads_text_only():
    """identity.text finds names in text: it imports no database, no model and no
    app of ours but the Arabic text library, so it can be read, tested and reused
    without Django's ORM."""
    found = set()
    for path in (ROOT / "identity" / "text").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module)
    ours_or_orm = {
        name
        for name in found
        if name.split(".")[0] in FLOOR or name.startswith("django")
    }
    assert ours_or_orm <= {"arabic"}
