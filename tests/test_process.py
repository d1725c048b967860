"""tiebreak.process: a command's process spares the collection at exit and still exits normally."""

from __future__ import annotations

import atexit
import subprocess
import sys

import tiebreak.process as process

SCRIPT = """
import atexit, gc
atexit.register(lambda: print("registered before: frozen", gc.get_freeze_count() > 0, flush=True))
from tiebreak.process import no_collection_at_exit
no_collection_at_exit()
atexit.register(lambda: print("registered after: frozen", gc.get_freeze_count() > 0, flush=True))
print("done", gc.get_freeze_count())
"""


def test_the_objects_alive_at_exit_are_frozen_and_every_exit_handler_runs():
    output = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True).stdout
    assert output.splitlines() == ["done 0", "registered after: frozen False", "registered before: frozen True"]


def test_registered_once_however_often_main_runs(monkeypatch):
    registered = []
    monkeypatch.setattr(process, "_registered", False)
    monkeypatch.setattr(atexit, "register", registered.append)
    process.no_collection_at_exit()
    process.no_collection_at_exit()
    assert len(registered) == 1
