"""Carrying out a build's tasks: each file linked from the previous build when its digest is the
same, else rendered or written; in forked worker processes, one per core, when the site is big;
shared with one forked helper when a few dozen pages are to be rendered (a build after one
result in a big tournament, whose downloads another helper makes meanwhile); else in this
process."""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import signal
import struct
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from site_builder.environment import compile_templates, site_environment
from site_builder.plan import (
    PLAYER_TEMPLATE,
    Page,
    Task,
    Work,
    common,
    page_digest,
    player_page,
    player_page_digest,
    player_path,
)
from site_builder.sources import PreviousBuildIncomplete

PARALLEL_FROM = 400  # pages; below this, forking a pool of workers costs more than it saves
SPLIT_FROM = 8  # pages; from this up to PARALLEL_FROM, one forked helper shares the tasks...
SPLIT_PLAYERS = 500  # ...of a site with a tournament this big (300 players: no quicker, and more CPU)
_SPLIT_TASKS = 4096  # at most this many tasks in the helper's queue (4 bytes each: a pipe's buffer holds them)
_WORK: Work | None = None  # the build forked workers carry out (inherited, never pickled)


@dataclass
class Done:
    """What a task did: each file's digest, how many were hard-linked from the previous
    build, and which were written."""

    manifest: dict[str, str] = field(default_factory=dict)
    reused: int = 0
    written: list[str] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # a download that could not be made -> why


def run(tasks: list[Task], work: Work) -> Iterator[Done]:
    """Carry out ``tasks``: in forked worker processes, one per core, taking tasks from one
    queue, when many pages are to be rendered (``PARALLEL_FROM``) and this process runs no
    other thread (forking copies one thread only, and the locks other threads hold); here and
    in one forked helper (:func:`_shared`) when fewer are, but some (``SPLIT_FROM``: after one
    result, the standings, wall chart, round and players' pages in every language, and the
    downloads, are made side by side); else here, one after the other."""
    workers = min(os.cpu_count() or 1, 8)
    rendered, templates = _to_render(tasks, work) if _may_fork() else (0, set())
    if rendered < SPLIT_FROM or (rendered < PARALLEL_FROM and not _worth_a_helper(tasks, work)):
        for task in tasks:
            yield _do(task, work)
        return
    if rendered < PARALLEL_FROM:  # the templates of these few pages, once, then forked
        compile_templates(work.theme, work.template_digest, work.settings.languages, work.cache, templates)
        yield from _shared(tasks, work)
        return
    compile_templates(work.theme, work.template_digest, work.settings.languages, work.cache)  # once, then forked
    import multiprocessing  # only for a big build (a new process after one result never needs it)

    global _WORK
    _WORK = work
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            yield from pool.imap_unordered(_do_in_worker, tasks)
    finally:
        _WORK = None


def _to_render(tasks: list[Task], work: Work) -> tuple[int, set[str]]:
    """How many pages of ``tasks`` are to be rendered (their digest is not that of a file the
    build can keep or link), up to ``PARALLEL_FROM``, and the templates they are rendered with;
    the digests are kept for the tasks."""
    count = 0
    templates: set[str] = set()
    for kind, what in tasks:
        if kind == "pages":
            digests = [(page.path, page_digest(page, work), page.template)
                       for page in (work.pages[index] for index in what)]
        elif kind == "players":
            slug, language, ids = what
            digests = [(player_path(work, slug, language, player_id),
                        player_page_digest(work, slug, language, player_id), PLAYER_TEMPLATE) for player_id in ids]
        else:
            continue
        for path, digest, template in digests:  # a task's digests are kept for it even past PARALLEL_FROM
            work.page_digests[path] = digest
            if digest not in (work.old_manifest.get(path), work.held.get(path)):
                count += 1
                templates.add(template)
                if count >= PARALLEL_FROM:
                    return count, templates
    return count, templates


def _may_fork() -> bool:
    """Whether this process may fork to share a build: two cores or more, and no other thread
    (forking copies one thread only, and the locks other threads hold)."""
    return (os.cpu_count() or 1) >= 2 and threading.active_count() == 1 and sys.platform != "win32"


def _worth_a_helper(tasks: list[Task], work: Work) -> bool:
    """Whether sharing ``tasks`` with a forked helper can be quicker than carrying them out here:
    a tournament of the site has ``SPLIT_PLAYERS`` (its pages are long, its downloads costly),
    and the queue's numbers fit in a pipe's buffer."""
    return len(tasks) <= _SPLIT_TASKS and any(len(pages.tournament.players) >= SPLIT_PLAYERS
                                              for pages in work.pages_by_slug.values())


def _shared(tasks: list[Task], work: Work) -> Iterator[Done]:
    """Carry out ``tasks`` here and in one :class:`Helper` forked now, each taking the next task
    from one queue, the downloads first (the longest task)."""
    helper = Helper(tasks, work, sorted(range(len(tasks)), key=lambda index: tasks[index][0] != "downloads"))
    try:
        for index in helper.taken():
            yield _do(tasks[index], work)
        done = helper.results()
    finally:
        helper.close()
    yield from done


def downloads_ahead(work: Work) -> Helper | None:
    """A :class:`Helper` making the downloads of the tournaments of ``work`` (their final
    standings computed here first: the pages need them too) while this process plans and
    renders the pages; None where one would not pay (see :func:`_worth_a_helper`): then the
    downloads are tasks of the build (``site_builder.plan.plan``)."""
    tasks: list[Task] = [("downloads", slug) for slug in work.pages_by_slug]
    if not tasks or work.previous is None or not _may_fork() or not _worth_a_helper(tasks, work):
        return None
    for slug, pages in work.pages_by_slug.items():
        pages.downloads()  # what it reads (the final standings, whether TRF can hold the event) computed
        _ = pages.final  # before the fork, for both processes
        os.makedirs(os.path.join(work.build, slug), exist_ok=True)
    return Helper(tasks, work, range(len(tasks)))


class Helper:
    """A process forked to carry out ``tasks`` of ``work`` beside this one: both take the next
    task's number from one queue (a pipe holding the numbers in ``order``, four bytes each: a
    read of four bytes takes one whole number, and no two reads take the same).  The helper
    inherits what the build computed (the standings, the cards, the digests) and sends back
    what it did, pickled, or the exception it met, which :meth:`results` raises here.
    :meth:`close` kills it if it is still at work (this process failed): it then writes no
    more into the build's folder, which the failed build removes."""

    def __init__(self, tasks: list[Task], work: Work, order: Iterable[int]) -> None:
        self._queue, feed = os.pipe()
        self._answers, answer = os.pipe()
        try:
            os.write(feed, b"".join(struct.pack("=I", index) for index in order))
        finally:
            os.close(feed)
        try:
            self._pid = os.fork()
        except OSError:
            os.close(self._queue)
            os.close(self._answers)
            os.close(answer)
            raise
        if self._pid == 0:  # the helper: never returns
            os.close(self._answers)
            _help(tasks, work, self._queue, answer)
        os.close(answer)

    def taken(self) -> Iterator[int]:
        """The numbers of the tasks this process takes from the queue, until it is empty."""
        return _taken(self._queue)

    def results(self) -> list[Done]:
        """What the helper did, once it is done; the exception it met is raised."""
        with os.fdopen(self._answers, "rb") as stream:
            self._answers = -1
            message = stream.read()
        _, status = os.waitpid(self._pid, 0)
        self._pid = 0
        kind, value = pickle.loads(message) if message else ("error", RuntimeError(
            f"the build's helper process ended with status {os.waitstatus_to_exitcode(status)}"))
        if kind == "error":
            raise value
        return value

    def close(self) -> None:
        """Close the pipes; kill and wait for the helper if it is still at work."""
        if self._queue >= 0:
            os.close(self._queue)
            self._queue = -1
        if self._answers >= 0:
            os.close(self._answers)
            self._answers = -1
        if self._pid:  # still at work: this process failed
            with contextlib.suppress(ProcessLookupError):
                os.kill(self._pid, signal.SIGKILL)
            os.waitpid(self._pid, 0)
            self._pid = 0


def _taken(queue: int) -> Iterator[int]:
    """The task numbers read from ``queue``, four bytes at a time, until it is empty."""
    while record := os.read(queue, 4):
        yield struct.unpack("=I", record)[0]


def _help(tasks: list[Task], work: Work, queue: int, answer: int) -> None:
    """A :class:`Helper`'s work: the tasks it takes, then ("done", [Done]) or ("error", the
    exception) pickled on ``answer``; it leaves by ``os._exit``."""
    code = 1
    try:
        try:
            message = pickle.dumps(("done", [_do(tasks[index], work) for index in _taken(queue)]))
            code = 0
        except BaseException as error:  # handed to the build, which raises it
            try:
                message = pickle.dumps(("error", error))
            except Exception:  # an exception that cannot be pickled: its text
                message = pickle.dumps(("error", RuntimeError(f"{type(error).__name__}: {error}")))
        view = memoryview(message)
        while view:
            view = view[os.write(answer, view):]
    finally:
        os._exit(code)


def _digest(page: Page, work: Work) -> str:
    """The page's digest: as ``_to_render`` found it, or now."""
    known = work.page_digests.get(page.path)
    return known if known is not None else page_digest(page, work)


def _do_in_worker(task: Task) -> Done:
    assert _WORK is not None
    return _do(task, _WORK)


def _do(task: Task, work: Work) -> Done:
    """Carry out one task: a page whose inputs are those of the previous build is hard-linked
    from it (and keeps its modification time), the others are rendered or written."""
    kind, what = task
    done = Done()
    if kind == "pages":
        for index in what:
            page = work.pages[index]
            put(work, page.path, _digest(page, work), done, lambda target, page=page: _render(work, page, target))
    elif kind == "players":
        slug, language, ids = what
        for player_id in ids:  # the page is made only to be rendered
            path = player_path(work, slug, language, player_id)
            digest = work.page_digests.get(path) or player_page_digest(work, slug, language, player_id)
            put(work, path, digest, done, lambda target, player_id=player_id:
                _render(work, player_page(work, slug, language, player_id), target))
    elif kind == "kept":
        for path, digest in what:
            put(work, path, digest, done, lambda target, path=path: _gone(path))
    else:
        pages = work.pages_by_slug[what]
        for name, make in pages.downloads().items():
            try:
                content = make()
            except Exception as error:  # one tournament's file: the rest of the site is built without it
                done.skipped[f"{what}/{name}"] = " ".join(str(error).split()) or type(error).__name__
                continue
            put(work, f"{what}/{name}", hashlib.sha256(content).hexdigest(), done,
                lambda target, content=content: write_file(target, content))
    return done


def _gone(path: str) -> None:
    """A file of a tournament taken as it was is not in the previous build (removed by hand)."""
    raise PreviousBuildIncomplete(f"the previous build has no {path}")


def put(work: Work, path: str, digest: str, done: Done, write: Callable[[Path], object]) -> None:
    """Give the build the file ``path`` (with ``digest``): kept when the build folder (a
    recycled one) holds it already (``work.held``: what its listing found), linked from the
    previous build when its digest there is the same, else made by ``write(target)``.  A file
    the folder holds with another digest is removed first, never changed in place (other
    folders may hold links to it)."""
    done.manifest[path] = digest
    target = os.path.join(work.build, path)
    held = work.held.get(path)
    if held is not None:
        if held == digest:
            done.reused += 1
            return
        with contextlib.suppress(FileNotFoundError):
            os.unlink(target)
    if work.previous is not None and work.old_manifest.get(path) == digest:
        try:
            os.link(os.path.join(work.previous, path), target)
            done.reused += 1
            return
        except FileNotFoundError:  # the manifest named a file that is gone: write it again
            pass
    write(Path(target))
    done.written.append(path)


def _render(work: Work, page: Page, target: Path) -> None:
    context = {**common(page.name, page.language, work.settings), **page.data}
    if page.late is not None:
        name, build = page.late
        context[name] = build()
    environment = site_environment(work.theme, work.template_digest, page.language, work.cache)
    write_file(target, environment.get_template(page.template).render(**context).encode("utf-8"))


def write_file(target: Path, content: bytes) -> None:
    """A new file, with as few system calls as can be: thousands of pages are written per build."""
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(content)
        while view:
            view = view[os.write(descriptor, view):]
    finally:
        os.close(descriptor)
