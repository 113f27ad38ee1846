"""App code uses only the public API of Django and of the libraries: no import of a
private module or name of theirs, no underscored attribute that is theirs. Private
APIs change without notice and break silently on an upgrade.

Read from the code itself (ast). An underscored attribute is ours when our code
defines the name (a function, a class, an assignment, an attribute of self), or
stores it on an object without Django's or a library's source spelling it (a value
we stash on a request or a row). Calling an underscored method through super()
overrides a hook of the class below, which is someone else's unless allowed here.
"""

import ast
import importlib.util
import re
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_APP_CODE = {"tests", "scripts", "docs", "deploy", "static", "templates", "locale"}

# Underscored, and documented as public.
DOCUMENTED = {
    "_meta",  # Model._meta: the Options API (docs: "Model _meta API")
    "_default_manager",  # Model._default_manager (docs: "Managers")
    "_base_manager",  # Model._base_manager (docs: "Managers")
    "_state",  # Model._state: adding and db (docs: "Model instance reference")
    "_Element",  # lxml.etree._Element: the element class lxml documents by name
}

# Not underscored, yet Django's internals (undocumented, changed between releases):
# the compiler and the lookups written for composite primary keys.
INTERNAL_MODULES = ("django.db.models.sql", "django.db.models.fields.tuple_lookups")
INTERNAL_ATTRIBUTES = {"get_compiler", "get_converters"}

# (file, name): each one why it stays. A stale entry fails the last test.
ALLOWED = {
    ("articles/services/images.py", "_committed"): "Django has no public flag for "
    "a FieldFile that holds a new upload; FileField.pre_save reads this one",
}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def app_modules() -> Iterator[tuple[str, ast.Module]]:
    """Each module of app code: its path from the root, and its syntax tree."""
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).parts
        if (
            parts[0] in NOT_APP_CODE
            or parts[0].startswith(".")
            or ("migrations" in parts)
        ):
            continue
        yield "/".join(parts), ast.parse(path.read_text(), str(path))


MODULES = dict(app_modules())
FIRST_PARTY = {path.split("/")[0].removesuffix(".py") for path in MODULES}


def _on_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")


def defined_by_us() -> tuple[set[str], set[str]]:
    """The names our code defines (functions, classes, assignments, attributes of
    self and cls), and those it stores on other objects."""
    defined, stashed = set(), set()
    for tree in MODULES.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                defined.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                (defined if _on_self(node) else stashed).add(node.attr)
            elif isinstance(node, ast.arg):
                defined.add(node.arg)
            elif isinstance(node, ast.alias):
                defined.add(node.asname or node.name.split(".")[-1])
    return defined, stashed


@cache
def library_source() -> str:
    """The source of Django and of every library app code imports."""
    tops = {"django"}
    for tree in MODULES.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                tops.add(node.module.split(".")[0])
            elif isinstance(node, ast.Import):
                tops |= {alias.name.split(".")[0] for alias in node.names}
    texts = []
    for top in sorted(tops - FIRST_PARTY - set(sys.stdlib_module_names)):
        spec = importlib.util.find_spec(top)
        if spec is None or spec.origin is None:
            continue
        if spec.submodule_search_locations:  # a package: all of it
            paths = [
                p
                for f in spec.submodule_search_locations
                for p in Path(f).rglob("*.py")
            ]
        else:
            paths = [Path(spec.origin)]
        texts += [
            path.read_text(errors="replace") for path in paths if path.suffix == ".py"
        ]
    return "\n".join(texts)


def _theirs(name: str) -> bool:
    # An underscored name that Django's or a library's own code spells.
    return re.search(rf"\b{re.escape(name)}\b", library_source()) is not None


def _through_super(node: ast.Attribute) -> bool:
    call = node.value
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id == "super"
    )


def private_uses() -> set[tuple[str, str, int]]:
    """(file, private name, line) of every private API of others that app code
    imports or reads."""
    defined, stashed = defined_by_us()
    found = set()
    for path, tree in MODULES.items():
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                if node.module.split(".")[0] not in FIRST_PARTY:
                    names = [*node.module.split("."), *(a.name for a in node.names)]
                    if node.module.startswith(INTERNAL_MODULES):
                        found.add((path, node.module, node.lineno))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] not in FIRST_PARTY:
                        names += alias.name.split(".")
                    if alias.name.startswith(INTERNAL_MODULES):
                        found.add((path, alias.name, node.lineno))
            elif isinstance(node, ast.Attribute):
                if node.attr in INTERNAL_ATTRIBUTES:
                    found.add((path, node.attr, node.lineno))
                elif _private(node.attr) and (
                    _through_super(node)
                    or node.attr not in defined
                    and (node.attr not in stashed or _theirs(node.attr))
                ):
                    names = [node.attr]
            for name in names:
                if _private(name) and name not in DOCUMENTED:
                    found.add((path, name, node.lineno))
    return found


def test_app_code_uses_no_private_api_of_django_or_the_libraries():
    """No private module, name or attribute of Django or a library outside the
    allowed ones."""
    unexpected = sorted(
        f"{path}:{line} {name}"
        for path, name, line in private_uses()
        if (path, name) not in ALLOWED
    )
    assert unexpected == []


def test_every_allowed_private_use_is_still_there():
    """An entry whose use went away is removed rather than kept as a free pass."""
    used = {(path, name) for path, name, _line in private_uses()}
    assert set(ALLOWED) - used == set()


def test_the_check_sees_a_private_import_and_a_private_attribute():
    """The reader itself: what the old article page and cache did is caught."""
    MODULES["core/_example.py"] = ast.parse(
        "from django.db.models.fields.tuple_lookups import TupleLessThan\n"
        "from django.db.models import _private_name\n"
        "def get(query, client):\n"
        "    return query.get_compiler('default'), client._get_connection_pool()\n"
        "class Form:\n"
        "    def _post_clean(self):\n"
        "        super()._post_clean()\n"
    )
    try:
        found = {(name, line) for path, name, line in private_uses() if "_ex" in path}
    finally:
        del MODULES["core/_example.py"]
    assert found == {
        ("django.db.models.fields.tuple_lookups", 1),
        ("_private_name", 2),
        ("get_compiler", 4),
        ("_get_connection_pool", 4),
        ("_post_clean", 7),
    }
