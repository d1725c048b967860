"""The ``tiebreak`` and ``python -m site_builder`` commands run in this process, as the tests call them.

``tiebreak(*args)`` runs ``tiebreak.cli.main(args)`` (``site_builder(*args)``:
``site_builder.cli.main(args)``) with standard input, output and error captured, in the folder
``cwd`` and with the environment variables ``env`` added, and returns what a subprocess would: a
``subprocess.CompletedProcess`` with the exit status, the output and the errors as text; the
environment comes back whole afterwards (the site command drops the variables its publishers
must not see, as its process would). A usage error or ``--help`` (argparse's ``SystemExit``) gives its status;
an exception escaping ``main`` is printed as a traceback with status 1, as Python would, so
``"Traceback" not in result.stderr`` still catches it.

Tests use these wherever the process adds nothing. The installed script, ``python -m``, exit
codes of the real program, kills, resource limits, faults injected into a whole process,
forked build workers and concurrent writers stay real processes (the ``process`` marker).
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from tiebreak.cli import main as tiebreak_main


def tiebreak(*args: str | Path, cwd: str | Path | None = None, input: str | None = None,
             env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``tiebreak ARGS...`` in-process: (returncode, stdout, stderr) as a subprocess gives them."""
    return _run(tiebreak_main, ["tiebreak"], args, cwd, input, env)


def site_builder(*args: str | Path, cwd: str | Path | None = None,
                 env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m site_builder ARGS...`` in-process, as ``tiebreak``."""
    from site_builder.cli import main  # the site's modules only for the tests that build one

    return _run(main, ["python", "-m", "site_builder"], args, cwd, None, env)


def _run(main: Callable[[list[str]], int | None], program: list[str], args: tuple[str | Path, ...],
         cwd: str | Path | None, input: str | None, env: Mapping[str, str] | None) -> subprocess.CompletedProcess[str]:
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
    return subprocess.CompletedProcess([*program, *argv], status or 0, out.getvalue(), err.getvalue())


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
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        yield
    finally:
        if dict(os.environ) != saved:  # the variables added, and those the command dropped
            os.environ.clear()
            os.environ.update(saved)


@contextlib.contextmanager
def _stdin(text: str | None) -> Iterator[None]:
    before = sys.stdin
    sys.stdin = io.StringIO(text or "")
    try:
        yield
    finally:
        sys.stdin = before
