"""The ``tiebreak`` command run in this process, as the tests call it.

``tiebreak(*args)`` runs ``tiebreak.cli.main(args)`` with standard input, output and error
captured, in the folder ``cwd`` and with the environment variables ``env`` added, and returns
what a subprocess would: a ``subprocess.CompletedProcess`` with the exit status, the output and
the errors as text. A usage error or ``--help`` (argparse's ``SystemExit``) gives its status;
an exception escaping ``main`` is printed as a traceback with status 1, as Python would, so
``"Traceback" not in result.stderr`` still catches it.

Tests use this wherever the process adds nothing. The installed script, ``python -m``, exit
codes of the real program, kills, resource limits and concurrent writers stay real processes
(the ``process`` marker).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import traceback
from collections.abc import Iterator, Mapping
from pathlib import Path

from tiebreak.cli import main


def tiebreak(*args: str | Path, cwd: str | Path | None = None, input: str | None = None,
             env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``tiebreak ARGS...`` in-process: (returncode, stdout, stderr) as a subprocess gives them."""
    argv = [str(arg) for arg in args]
    out, err = io.StringIO(), io.StringIO()
    with _folder(cwd), _environment(env), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            _stdin(input):
        try:
            status = main(argv)
        except SystemExit as leaving:  # argparse: usage errors, --help
            status = _exit_status(leaving.code, err)
        except Exception:  # a traceback, as the program would print it
            traceback.print_exc(file=err)
            status = 1
    return subprocess.CompletedProcess(["tiebreak", *argv], status or 0, out.getvalue(), err.getvalue())


def _exit_status(code: object, err: io.StringIO) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=err)
    return 1


@contextlib.contextmanager
def _folder(cwd: str | Path | None) -> Iterator[None]:
    if cwd is None:
        yield
        return
    before = os.getcwd()
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(before)


@contextlib.contextmanager
def _environment(env: Mapping[str, str] | None) -> Iterator[None]:
    saved = {name: os.environ.get(name) for name in env or {}}
    os.environ.update(env or {})
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@contextlib.contextmanager
def _stdin(text: str | None) -> Iterator[None]:
    before = sys.stdin
    sys.stdin = io.StringIO(text or "")
    try:
        yield
    finally:
        sys.stdin = before
