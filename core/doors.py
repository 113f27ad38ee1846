"""Write doors a form's check passes, as the service it checks for would.

A service that brings new public text is a door (`identity.refusals.door`); a form
that checks a submission before the service runs passes the same door by name
(`passing`), so the check is refused while the user's saves are paused and its
refusals are recorded. The app that keeps doors registers its guard at startup.
"""

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, ExitStack, contextmanager

Guard = Callable[..., AbstractContextManager]

_guards: list[Guard] = []


def register_guard(guard: Guard) -> Guard:
    """Have every door passed go through `guard(name, by=user)` (a context manager)."""
    if guard not in _guards:
        _guards.append(guard)
    return guard


@contextmanager
def passing(name: str, *, by) -> Iterator[None]:
    """Pass the door `name` as `by`, through every registered guard."""
    with ExitStack() as stack:
        for guard in _guards:
            stack.enter_context(guard(name, by=by))
        yield
