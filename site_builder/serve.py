"""``python -m site_builder serve``: a warm site process, started once by the bot.

It imports the builder, the publishers and the site's words once, then reads one request per
line on standard input (a JSON list: the arguments of ``python -m site_builder``, ``["publish",
"--config", "config.toml"]``) and answers each with one JSON line on standard output::

    {"returncode": 0, "stdout": "built ...", "stderr": "", "cpu": 1.9}

Each request runs in a child forked for it, exactly as ``python -m site_builder`` would run it
(``site_builder.cli.main``, which hands itself to :func:`serve`): every build starts from this
clean, warm state, and its memory goes with its child.  A killed or failed child leaves the
previous site online (the build's atomic swap and ``flock``) and is one answer with its exit
status (a signal as its negative number); the server goes on.  It ends at the end of its input
(the bot stopped or closed it).  It keeps no ``TELEGRAM_*`` variable, nor do its children.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from typing import IO

from site_builder.environment import SITE_CATALOGUE, THEMES, compile_templates, template_digest
from site_builder.settings import SiteSettings
from tiebreak.i18n import LANGUAGES, load_cldr_data

COMMANDS = ("build", "publish")


Main = Callable[[list[str]], int]  # site_builder.cli.main: a command line -> its exit status


def serve(main: Main, requests: IO[str] | None = None, answers: IO[str] | None = None) -> int:
    """Answer each request line of ``requests`` (default standard input) on ``answers``
    (default standard output), running it with ``main`` in a child of its own."""
    requests = sys.stdin if requests is None else requests
    answers = sys.stdout if answers is None else answers
    for key in [key for key in os.environ if key.upper().startswith("TELEGRAM_")]:
        del os.environ[key]  # the bot starts it without them; never pass one on
    _warm()
    for line in requests:
        if not line.strip():
            continue
        try:
            argv = json.loads(line)
        except ValueError:
            argv = None
        if not (isinstance(argv, list) and argv and argv[0] in COMMANDS and all(isinstance(a, str) for a in argv)):
            answer = {"returncode": 2, "stdout": "", "cpu": 0.0,
                      "stderr": f"python -m site_builder serve: error: not a request: {line.strip()[:200]}"}
        else:
            answer = run_in_child(main, argv)
        answers.write(json.dumps(answer) + "\n")
        answers.flush()
    return 0


def _warm() -> None:
    """What every build would load again: the site's words and Babel's data of each language,
    and the default theme's templates compiled in each (kept by their version: a build of
    changed templates compiles its own), and every publisher (a publish from a new process
    loads only its own); the builder is imported by ``site_builder.cli``, which calls this."""
    from site_builder.publishers.config import TARGETS  # noqa: F401  (loads every publisher)

    for code in LANGUAGES:
        SITE_CATALOGUE.translations(code)
        load_cldr_data(code)
    theme = THEMES / SiteSettings.theme
    compile_templates(theme, template_digest(theme), LANGUAGES)
    import multiprocessing  # noqa: F401  (a big build's pool of workers: loaded here once, not per child)
    gc.collect()
    gc.freeze()  # what the children inherit stays shared, untouched by their collections


def run_in_child(main: Main, argv: list[str]) -> dict:
    """``python -m site_builder ARGV`` in a forked child; its exit status, output and CPU seconds."""
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:  # the child: never returns
            _child(main, argv, out.fileno(), err.fileno())
        _, status, usage = os.wait4(pid, 0)
        out.seek(0)
        err.seek(0)
        return {"returncode": os.waitstatus_to_exitcode(status),
                "stdout": out.read().decode("utf-8", "replace"), "stderr": err.read().decode("utf-8", "replace"),
                # the child's, with those of its workers and publishers (which it waited for)
                "cpu": round(usage.ru_utime + usage.ru_stime, 3)}


def _child(main: Main, argv: list[str], out: int, err: int) -> None:
    code = 1
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # the requests are the server's, not the build's
        os.dup2(out, 1)
        os.dup2(err, 2)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115  (lives as long as the child)
        code = main(argv)
    except SystemExit as stop:  # argparse: a bad argument
        code = stop.code if isinstance(stop.code, int) else 2
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
