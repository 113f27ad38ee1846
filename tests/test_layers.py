"""The apps point one way: each imports only apps on the floors below it, so no two
apps import each other, directly or round a circle, and the library at the bottom
imports none of ours. Imports inside functions count too: a lazy import is an
arrow all the same; so does a migration's dependency on another app's migration,
which ties the two apps' histories as an import ties their code."""

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
    ("sources", "edge"),
    ("publishing", "ingest"),
    ("distribution", "live", "wire"),
    ("demo",),
    ("newsroom",),
]
FLOOR = {app: number for number, apps in enumerate(FLOORS) for app in apps}


# The migrations that must follow a migration of an app above theirs, each with why.
# The people's move: articles' migrations made the people's tables, and the identity
# app took them over (articles 0023 gives up their state in between).
MIGRATIONS_BELOW_BUT_AFTER = {
    # identity takes over the state of Person and PersonName from the tables
    # articles' migrations made, so they must exist first.
    ("identity", "0001_initial", "articles", "0021_person_name_may_be_unknown"),
    # identity renames those tables once articles' state no longer holds the models
    # on them (a rename before would leave articles' state naming a missing table).
    (
        "identity",
        "0002_tables_of_their_own",
        "articles",
        "0023_people_move_to_identity",
    ),
}


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


def ordering(path: Path) -> dict[str, set[tuple[str, str]]]:
    """The (app_label, migration) pairs of the migration at `path`'s `dependencies`
    and `run_before`; swappable_dependency() (Django's user) is left out."""
    found = {"dependencies": set(), "run_before": set()}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            attribute = getattr(node.targets[0], "id", None)
            if attribute in found:
                found[attribute] |= {
                    ast.literal_eval(element)
                    for element in getattr(node.value, "elts", [])
                    if isinstance(element, ast.Tuple)
                }
    return found


def migration_arrows(path: Path) -> set[tuple[str, str]]:
    """(app, app of ours it must follow) for the migration at `path`: one for each
    of its `dependencies`, and from each app in its `run_before` back to its own,
    but the pairs allowed above."""
    app, name = path.relative_to(ROOT).parts[0], path.stem
    declared = ordering(path)
    pairs = {(app, name, *other) for other in declared["dependencies"]}
    pairs |= {(*other, app, name) for other in declared["run_before"]}
    return {
        (pair[0], pair[2])
        for pair in pairs - MIGRATIONS_BELOW_BUT_AFTER
        if pair[0] in FLOOR and pair[2] in FLOOR and pair[0] != pair[2]
    }


def arrows() -> set[tuple[str, str, str]]:
    """(app, the app it imports or whose migrations it follows, the file) for every
    app's modules, migrations included."""
    found = set()
    for app in FLOOR:
        for path in (ROOT / app).rglob("*.py"):
            source = str(path.relative_to(ROOT))
            found |= {(app, target, source) for target in imported_apps(path)}
            if "migrations" in path.parts:
                found |= {(a, b, source) for a, b in migration_arrows(path)}
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
    """Every import and every migration's dependency points down a floor: no circle,
    no arrow back up."""
    upward = sorted(
        f"{source} imports or follows {app} ({app} is not below {origin})"
        for origin, app, source in arrows()
        if FLOOR[app] >= FLOOR[origin]
    )
    assert upward == []


def test_each_migration_allowed_to_follow_one_above_still_does():
    """The allowed pairs name dependencies that exist: a renamed or squashed
    migration does not leave an exception behind for whatever takes its name."""
    for app, name, other, migration in MIGRATIONS_BELOW_BUT_AFTER:
        path = ROOT / app / "migrations" / f"{name}.py"
        assert (other, migration) in ordering(path)["dependencies"]


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
