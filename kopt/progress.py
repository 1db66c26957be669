"""Progress of long work, for whoever shows it (the CLI's bars on stderr). Library code reports steps; nothing is
shown unless a caller listens, so the library stays silent and callers deep in the stack need no extra argument."""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Iterator

Listener = Callable[[str, int, int], None]  # (what, done, total)
_listener: ContextVar[Listener | None] = ContextVar("kopt_progress", default=None)


def report(what: str, done: int, total: int) -> None:
    fn = _listener.get()
    if fn is not None:
        fn(what, done, total)


@contextmanager
def listening(fn: Listener) -> Iterator[None]:
    token = _listener.set(fn)
    try:
        yield
    finally:
        _listener.reset(token)
