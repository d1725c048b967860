"""The process of a command that does its work and ends: ``tiebreak`` and ``python -m site_builder``
(docs/architecture.md#command-line).

At exit, CPython's finalisation collects cyclic garbage over every object still alive, once or
more: about 40 ms after a site build, for a process that is about to end anyway.
:func:`no_collection_at_exit` spares that pass; the exit stays a normal one.
"""

from __future__ import annotations

import atexit
import gc

_registered = False


def no_collection_at_exit() -> None:
    """Freeze the objects alive at exit (``gc.freeze``), so the finalisation's collections pass
    them over; the objects are still released, every ``atexit`` handler runs (those registered
    later before this one, those registered earlier after it) and the output is flushed.  Registered once per process,
    however often a command's ``main`` runs in it (the tests call it in-process).

    Reference cycles still alive at exit are then not collected, so no finalizer of theirs runs:
    nothing of Tiebreak's relies on one (files, the store and the site's lock are closed by
    ``with`` blocks, before the command returns)."""
    global _registered
    if not _registered:
        _registered = True
        atexit.register(gc.freeze)
