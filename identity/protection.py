"""Where a protected name is already public, and what protecting someone takes off
the site.

Protecting a person, or adding a legal spelling, must leave nothing public that
carries it. The rows every page shows (models marked `always_public`: the section
menu, source pages) are read here; stories are another app's, so the app that owns
them registers a finder (`register_finder`, from its `AppConfig.ready()`) that
returns each public story carrying the name, with the way to withdraw it.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.apps import apps
from django.db import models

from .gate import IdentityGate, Leak


@dataclass
class Exposure:
    """Leaks found in one public story (`withdraw(by=, reason=)` takes it off the
    site), or, with `article` None, in a row every page shows (renamed by hand)."""

    article: models.Model | None
    leaks: list[Leak]
    withdraw: Callable[..., None] | None = None


Finder = Callable[[IdentityGate], Iterable[Exposure]]
_finders: dict[str, Finder] = {}


def register_finder(name: str, finder: Finder) -> None:
    """Declare where public stories of an app are read for a protected name."""
    _finders[name] = finder


def public_exposures(gate: IdentityGate) -> list[Exposure]:
    """Where `gate`'s legal spellings appear in what the public can see or will
    see: every registered finder's stories, then the rows every page shows."""
    if not gate:
        return []
    exposures = [each for finder in _finders.values() for each in finder(gate)]
    for model in apps.get_models():
        if getattr(model, "always_public", False):
            leaks = gate.leaks(model._default_manager.all())
            if leaks:
                exposures.append(Exposure(None, leaks))
    return exposures
