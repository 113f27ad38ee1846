"""Bringing derived columns up to date from a migration, when the rule deriving them
changes.

A migration sees historical models, which have the columns but none of the methods
that derive from them. The rule stays where it is defined, on the current model
(`search_columns()`): each historical row's values are set on a bare instance of the
current class and the rule is read off it, so the rule is never written twice.
"""

from collections.abc import Callable, Iterable

from django.apps import apps as current_apps
from django.db import migrations
from django.db.models.base import ModelState

BATCH = 2000


def refresh_search_columns(
    app_label: str,
    model_name: str,
    after_batch: Callable[[list, str], None] | None = None,
    *,
    now_in: str = "",
) -> migrations.RunPython:
    """A RunPython operation that recomputes `search_columns()` of every row.

    `after_batch(rows, alias)` runs after each batch is written (e.g. to rebuild an
    index read from the same rows). `now_in` names the app the model has moved to
    since (people moved from articles to identity).
    """

    def forward(apps, schema_editor) -> None:
        historical = apps.get_model(app_label, model_name)
        current = current_apps.get_model(now_in or app_label, model_name)
        alias = schema_editor.connection.alias
        rows = historical._base_manager.using(alias).order_by("pk")
        last = None
        while True:
            batch = list(rows.filter(pk__gt=last)[:BATCH] if last else rows[:BATCH])
            if not batch:
                return
            columns = _derive(batch, current)
            historical._base_manager.using(alias).bulk_update(batch, columns)
            if after_batch is not None:
                after_batch(batch, alias)
            last = batch[-1].pk

    return migrations.RunPython(forward, migrations.RunPython.noop, elidable=True)


def _derive(rows: Iterable, current) -> list[str]:
    columns: list[str] = []
    for row in rows:
        values = as_current(row, current).search_columns()
        for name, value in values.items():
            setattr(row, name, value)
        columns = list(values)
    return columns


def as_current(row, current):
    """A bare instance of the current model holding the historical row's values;
    a column the historical model does not have yet takes its default."""
    instance = current.__new__(current)
    instance._state = ModelState()
    for field in current._meta.concrete_fields:
        value = getattr(row, field.attname, None)
        if not hasattr(row, field.attname):
            value = field.get_default()
        instance.__dict__[field.attname] = value
    return instance
