"""Build the static site: every page of every tournament in every language.

A build is atomic and incremental.  It writes a new build folder next to the output and
then swaps the output (a symbolic link) to it in one step, so a failed build leaves the
previous site untouched.  A page whose inputs (its data, the templates, the language) are
those of the previous build is not rendered again: it is hard-linked from the previous
build, so it keeps its modification time.

The work is a list of tasks (the big pages one by one, then the other pages, the downloads
and the players' pages in chunks), carried out by forked worker processes, one per core,
when the site is big, else in this process.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import pickle
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from ranking.errors import InputError
from ranking.standings import collection_paused
from site_builder.pages import TournamentPages
from tiebreak.config import Config
from tiebreak.i18n import LANGUAGES, SUPPORTED, Catalogue, format_number

SITE_DOMAIN = "site"
SITE_CATALOGUE = Catalogue(Path(__file__).resolve().parent / "locales", SITE_DOMAIN)  # the site's own words
THEMES = Path(__file__).resolve().parent.parent / "themes"
MANIFEST = ".manifest.json"
RANKS_CACHE = ".ranks.json"  # places after each round, by a digest of the results up to it


@dataclass(frozen=True)
class SiteSettings:
    """``[site]`` of config.toml."""

    out_dir: Path
    base_url: str = "/"
    theme: str = "default"
    languages: tuple[str, ...] = ("en",)

    @classmethod
    def from_config(cls, config: Config, out_dir: Path | None = None) -> SiteSettings:
        section = config.raw.get("site", {})
        base = config.path.parent if config.path else Path(".")
        languages = tuple(section.get("languages", ["en", "zh", "vi", "es"]))
        unknown = [code for code in languages if code not in SUPPORTED]
        if unknown or not languages:
            raise InputError(f"[site].languages {list(languages)}: expected some of {', '.join(SUPPORTED)}",
                             source=str(config.path))
        theme = str(section.get("theme", "default"))
        if not (THEMES / theme / "templates").is_dir():
            raise InputError(f"[site].theme {theme!r}: no folder themes/{theme}/templates", source=str(config.path))
        out = out_dir if out_dir is not None else base / str(section.get("out_dir", "public"))
        return cls(Path(out), str(section.get("base_url", "/")), theme, languages)


@dataclass
class BuildReport:
    output: Path
    pages: int = 0
    rendered: int = 0
    reused: int = 0
    seconds: float = 0.0
    files: list[str] = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=dict)  # seconds: pages, render, finish, clean-up


@dataclass(frozen=True)
class _Page:
    """A page to render: ``template`` in ``language`` with ``data`` and the context every page
    gets (``_common``: the language, links to the roots and to the other languages)."""

    path: str  # relative to the site root, with "/" separators
    name: str  # the path of the same page in the first language (at the root)
    template: str
    language: str
    data: dict
    # A page whose data is costly to build may give what it depends on (``fingerprint``) and
    # a function that builds its data (``late``: name -> value added to the context) instead.
    fingerprint: object = None
    late: tuple[str, Callable[[], object]] | None = None


def build_site(tournaments: dict[str, object], settings: SiteSettings) -> BuildReport:
    """Build the site for ``tournaments`` (slug -> Tournament) into ``settings.out_dir``.

    The garbage collector waits meanwhile (and in the forked renderers): a build makes almost
    no reference cycles, and the collections its many small objects would trigger walk the
    whole tournament again and again (a third of the time of an incremental build)."""
    with collection_paused():
        return _build_site(tournaments, settings)


def _build_site(tournaments: dict[str, object], settings: SiteSettings) -> BuildReport:
    started = time.perf_counter()
    theme = THEMES / settings.theme
    out = settings.out_dir
    out.parent.mkdir(parents=True, exist_ok=True)
    previous = out.resolve() if out.exists() else None
    ranks_cache = _read_json(previous / RANKS_CACHE) if previous else {}
    pages_by_slug = {slug: TournamentPages(slug, tournament, ranks_cache)
                     for slug, tournament in tournaments.items()}
    build = out.parent / f".{out.name}.build-{time.strftime('%Y%m%d%H%M%S')}-{os.getpid()}-{time.time_ns() % 10**6}"
    build.mkdir()
    work = _Work(build, previous, _read_manifest(previous), theme, _digest_folder(theme / "templates"),
                 out.parent / f".{out.name}.templates", settings, pages_by_slug)
    report = BuildReport(out)
    manifest: dict[str, str] = {}
    try:
        tasks = _plan(work)
        report.phases["pages"] = time.perf_counter() - started
        for done in _run(tasks, work):
            manifest.update(done.manifest)
            report.reused += done.reused
            report.files.extend(done.written)
        report.pages = len(manifest)
        report.rendered = report.pages - report.reused
        report.phases["render"] = time.perf_counter() - started - report.phases["pages"]
        static = _Done()
        for source in sorted((theme / "static").rglob("*")):
            if source.is_file():
                relative = "static/" + source.relative_to(theme / "static").as_posix()
                (build / relative).parent.mkdir(parents=True, exist_ok=True)
                _put(work, relative, hashlib.sha256(source.read_bytes()).hexdigest(), static,
                     lambda target, source=source: shutil.copyfile(source, target))
        manifest.update(static.manifest)
        report.files.extend(static.written)
        (build / MANIFEST).write_text(json.dumps(manifest, indent=0, sort_keys=True), encoding="utf-8")
        used = {key for pages in pages_by_slug.values() for key in pages.rank_keys}
        (build / RANKS_CACHE).write_text(json.dumps({key: ranks_cache[key] for key in used}), encoding="utf-8")
        _swap(out, build)
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)
        raise
    swapped = time.perf_counter()
    report.phases["finish"] = swapped - started - report.phases["pages"] - report.phases["render"]
    _remove_old_builds(out, keep={build.name, previous.name if previous else ""})
    report.seconds = time.perf_counter() - started
    report.phases["clean-up"] = report.seconds - (swapped - started)
    return report


@dataclass
class _Work:
    """One build: what every task needs.  Forked workers inherit it (nothing is pickled but
    the tasks, which name pages by number, and their results)."""

    build: Path
    previous: Path | None
    old_manifest: dict[str, str]
    theme: Path
    template_digest: str
    cache: Path  # compiled templates
    settings: SiteSettings
    pages_by_slug: dict[str, TournamentPages]
    pages: list[_Page] = field(default_factory=list)  # the pages of the tasks "pages"
    infos: dict[str, dict] = field(default_factory=dict)  # slug -> what the templates call ``t``
    data_digests: dict[int, tuple[object, str]] = field(default_factory=dict)  # id -> (object kept, digest)

    @cached_property
    def settings_key(self) -> str:
        """The settings ``_common`` depends on."""
        return repr((self.settings.base_url, self.settings.languages))


@dataclass
class _Done:
    """What a task did: each file's digest, how many were hard-linked from the previous
    build, and which were written."""

    manifest: dict[str, str] = field(default_factory=dict)
    reused: int = 0
    written: list[str] = field(default_factory=list)


# Tasks: ("pages", [index in work.pages]), ("players", (slug, language, [player ids])), ("downloads", slug).
_PER_TASK = 50  # players' pages, or other small pages, per task


def _plan(work: _Work) -> list[tuple[str, object]]:
    """The build's tasks, biggest first so that parallel workers finish together.  The data
    every page shares (standings, places by round, performances) is computed here, once."""
    for slug, pages in work.pages_by_slug.items():
        work.infos[slug] = {"slug": slug, "name": pages.tournament.name, "xiangqi": pages.xiangqi,
                            "round_robin": pages.is_round_robin, "rounds_paired": pages.rounds_paired,
                            "teams": pages.has_teams}
        for player in pages.tournament.players:
            pages.player_fingerprint(player.id)
    work.pages = list(_pages(work))
    folders = {os.path.dirname(page.path) for page in work.pages} | {"static"}
    folders |= {_prefix(language, work.settings) + f"{slug}/players"
                for slug in work.pages_by_slug for language in work.settings.languages}
    for folder in sorted(folders):
        os.makedirs(os.path.join(work.build, folder), exist_ok=True)
    big = [index for index, page in enumerate(work.pages) if page.template in _BIG_TEMPLATES]
    small = [index for index, page in enumerate(work.pages) if page.template not in _BIG_TEMPLATES]
    tasks: list[tuple[str, object]] = [("pages", [index]) for index in big]
    tasks += [("pages", small[i:i + _PER_TASK]) for i in range(0, len(small), _PER_TASK)]
    tasks += [("downloads", slug) for slug in work.pages_by_slug]
    for slug, pages in work.pages_by_slug.items():
        ids = [player.id for player in pages.tournament.players]
        # The languages take turns: parallel workers then mostly write into different folders
        # (a file system creates the entries of one folder one at a time).
        tasks += [("players", (slug, language, ids[i:i + _PER_TASK]))
                  for i in range(0, len(ids), _PER_TASK) for language in work.settings.languages]
    return tasks


def _pages(work: _Work) -> Iterator[_Page]:
    """Every page but the players' (index, standings, team standings, rounds, crosstable)."""
    settings = work.settings
    summaries = [pages.summary() for pages in work.pages_by_slug.values()]
    for language in settings.languages:
        yield _Page(_prefix(language, settings) + "index.html", "index.html", "index.html", language,
                    {"tournaments": summaries})
        for slug, pages in work.pages_by_slug.items():
            yield _tournament_page(work, language, slug, "index.html", "standings.html", "standings",
                                   pages.standings_page)
            if pages.has_teams:
                yield _tournament_page(work, language, slug, "teams.html", "teams.html", "teams", pages.teams_page)
            for number in pages.rounds_paired:
                yield _tournament_page(work, language, slug, f"round-{number}.html", "round.html", "round",
                                       pages.round_data(number))
            yield _tournament_page(work, language, slug, "crosstable.html", "crosstable.html", "table",
                                   pages.crosstable_page)


def _tournament_page(work: _Work, language: str, slug: str, name: str, template: str, key: str,
                     data: object) -> _Page:
    return _Page(f"{_prefix(language, work.settings)}{slug}/{name}", f"{slug}/{name}", template, language,
                 {"t": work.infos[slug], key: data})


def _player_page(work: _Work, slug: str, language: str, player_id: int) -> _Page:
    pages = work.pages_by_slug[slug]
    name = f"{slug}/players/{player_id}.html"
    return _Page(_prefix(language, work.settings) + name, name, "player.html", language, {"t": work.infos[slug]},
                 fingerprint=pages.player_fingerprint(player_id), late=("p", lambda: pages.player_data(player_id)))


def _prefix(language: str, settings: SiteSettings) -> str:
    """The folder of a language's pages: the first language's are at the root."""
    return "" if language == settings.languages[0] else f"{language}/"


def _common(path: str, language: str, settings: SiteSettings) -> dict:
    """What every template gets: the language, and the relative links to the roots and to
    this page in the other languages (``path`` is the page's path in the first language)."""
    default = settings.languages[0]
    root = "../" * path.count("/")
    site_root = root + ("../" if language != default else "")
    return {"lang": language, "html_lang": LANGUAGES[language].html_lang, "root": root, "site_root": site_root,
            "static": site_root + "static/", "base_url": settings.base_url,
            "languages": _switcher(path, language, settings.languages, default)}


def _do(task: tuple[str, object], work: _Work) -> _Done:
    """Carry out one task: a page whose inputs are those of the previous build is hard-linked
    from it (and keeps its modification time), the others are rendered or written."""
    kind, what = task
    done = _Done()
    if kind == "pages":
        for index in what:
            page = work.pages[index]
            _put(work, page.path, _page_digest(page, work), done, lambda target, page=page: _render(work, page, target))
    elif kind == "players":
        slug, language, ids = what
        for player_id in ids:
            page = _player_page(work, slug, language, player_id)
            _put(work, page.path, _page_digest(page, work), done, lambda target, page=page: _render(work, page, target))
    else:
        pages = work.pages_by_slug[what]
        for name, text in ((f"{what}/standings.json", pages.json_text()), (f"{what}/standings.csv", pages.csv_text()),
                           (f"{what}/{what}.trf", pages.trf_text())):
            content = text.encode("utf-8")
            _put(work, name, hashlib.sha256(content).hexdigest(), done,
                 lambda target, content=content: _write(target, content))
    return done


def _put(work: _Work, path: str, digest: str, done: _Done, write) -> None:
    """Give the build the file ``path`` (with ``digest``): linked from the previous build when
    its digest there is the same, else made by ``write(target)``."""
    done.manifest[path] = digest
    target = os.path.join(work.build, path)
    if work.previous is not None and work.old_manifest.get(path) == digest:
        try:
            os.link(os.path.join(work.previous, path), target)
            done.reused += 1
            return
        except FileNotFoundError:  # the manifest named a file that is gone: write it again
            pass
    write(Path(target))
    done.written.append(path)


def _render(work: _Work, page: _Page, target: Path) -> None:
    context = {**_common(page.name, page.language, work.settings), **page.data}
    if page.late is not None:
        name, build = page.late
        context[name] = build()
    environment = _environment(work.theme, work.template_digest, page.language, work.cache)
    _write(target, environment.get_template(page.template).render(**context).encode("utf-8"))


def _write(target: Path, content: bytes) -> None:
    """A new file, with as few system calls as can be: thousands of pages are written per build."""
    descriptor = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(content)
        while view:
            view = view[os.write(descriptor, view):]
    finally:
        os.close(descriptor)


_WORK: _Work | None = None  # the build forked workers carry out (inherited, never pickled)
PARALLEL_FROM = 400  # pages; below this, forking costs more than it saves
_BIG_TEMPLATES = ("standings.html", "crosstable.html", "teams.html")  # one row per player or team


def _run(tasks: list[tuple[str, object]], work: _Work) -> Iterator[_Done]:
    """Carry out ``tasks``: in forked worker processes, one per core, taking tasks from one
    queue, when the site is big and this process runs no other thread (forking copies one
    thread only, and the locks other threads hold); else here, one after the other."""
    workers = min(os.cpu_count() or 1, 8)
    pages = len(work.pages) + sum(len(what[2]) for kind, what in tasks if kind == "players")
    if pages < PARALLEL_FROM or workers < 2 or threading.active_count() > 1 or sys.platform == "win32":
        for task in tasks:
            yield _do(task, work)
        return
    for language in work.settings.languages:  # compiled once, then forked
        environment = _environment(work.theme, work.template_digest, language, work.cache)
        for template in environment.list_templates():
            environment.get_template(template)
    global _WORK
    _WORK = work
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            yield from pool.imap_unordered(_do_in_worker, tasks)
    finally:
        _WORK = None


def _do_in_worker(task: tuple[str, object]) -> _Done:
    assert _WORK is not None
    return _do(task, _WORK)


def _page_digest(page: _Page, work: _Work) -> str:
    """What a page's content depends on: its template, language, place in the site (which
    makes ``_common``'s part of the context, with the settings) and data.  Large data shared
    by pages (dicts, lists, fingerprints) are digested once per build and process."""
    parts = [page.template, page.language, page.name, work.template_digest, work.settings_key]
    if page.fingerprint is not None:
        parts.append(f"late={_data_digest(page.fingerprint, work)}")
    for key, value in sorted(page.data.items()):
        parts.append(f"{key}={_data_digest(value, work) if isinstance(value, dict | list | tuple) else repr(value)}")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def _data_digest(value: object, work: _Work) -> str:
    known = work.data_digests.get(id(value))
    if known is None:  # pickle: fast, and equal for data built the same way
        known = work.data_digests[id(value)] = (value, hashlib.sha256(pickle.dumps(value, 5)).hexdigest())
    return known[1]


def _switcher(path: str, language: str, languages: tuple[str, ...], default: str) -> list[dict]:
    """Links to the same page in every language (relative to this page)."""
    here_up = "../" * path.count("/") + ("../" if language != default else "")
    links = []
    for code in languages:
        target = path if code == default else f"{code}/{path}"
        links.append({"code": code, "name": LANGUAGES[code].name, "href": here_up + target,
                      "current": code == language, "html_lang": LANGUAGES[code].html_lang})
    return links


_ENVIRONMENTS: dict[tuple[Path, str, str], Environment] = {}


def _environment(theme: Path, template_digest: str, language: str, cache: Path | None = None) -> Environment:
    """One Jinja2 environment per theme, template version and language (imported macros keep
    the translations of the environment that compiled them), kept for the process; compiled
    templates are also kept on disk in ``cache`` for the next process."""
    key = (theme, template_digest, language)
    if key not in _ENVIRONMENTS:
        for old in [k for k in _ENVIRONMENTS if k[:2] != key[:2]]:
            del _ENVIRONMENTS[old]
        environment = _new_environment(theme, cache)
        _install_translations(environment, SITE_CATALOGUE.translations(language))
        environment.globals["current_language"] = language
        environment.filters["number"](0.5)  # loads Babel's data for the language (before workers fork)
        _ENVIRONMENTS[key] = environment
    return _ENVIRONMENTS[key]


class _SiteEnvironment(Environment):
    """Jinja2 with ``row.name`` on a dict looking up the key first.  Jinja2 tries the
    attribute first, and a dict has none: the exception that costs made attribute lookups
    half the time of rendering a player page.  A key named like a dict method (``values``)
    is found too, where Jinja2 would give the method."""

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def _new_environment(theme: Path, cache: Path | None = None) -> Environment:
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    environment = _SiteEnvironment(loader=FileSystemLoader(theme / "templates"),
                              bytecode_cache=FileSystemBytecodeCache(str(cache)) if cache is not None else None,
                              autoescape=select_autoescape(default=True, default_for_string=True),
                              undefined=StrictUndefined, extensions=["jinja2.ext.i18n"],
                              trim_blocks=True, lstrip_blocks=True)
    environment.filters["number"] = _number_filter(environment)
    return environment


def _install_translations(environment: Environment, translations) -> None:
    """Jinja2's new-style gettext (``_("Round %(n)s", n=n)``: the message is always a format
    string, its variables are escaped), without its two context indirections per call, and
    each message without variables translated and formatted once per language: a player page
    asks for some twenty of them, and the site has thousands of player pages."""
    environment.install_gettext_translations(translations, newstyle=True)  # also ngettext, pgettext...
    done: dict[str, Markup] = {}

    def gettext(message: str, **variables) -> Markup:
        if variables:
            return Markup(translations.gettext(message)) % variables
        text = done.get(message)
        if text is None:
            text = done[message] = Markup(translations.gettext(message)) % {}
        return text

    def ngettext(singular: str, plural: str, num: int, **variables) -> Markup:
        variables.setdefault("num", num)
        return Markup(translations.ngettext(singular, plural, num)) % variables

    environment.globals.update(_=gettext, gettext=gettext, ngettext=ngettext)


def _number_filter(environment: Environment):
    """``value|number``: a score or tie-break as the page's language writes it (7.5, 7,5)."""
    cache: dict[tuple[object, str], str] = {}

    def number(value) -> str:
        if value is None:
            return "–"
        language = environment.globals.get("current_language", "en")
        key = (value, language)
        text = cache.get(key)
        if text is None:
            text = cache[key] = format_number(value, language, grouping=False)
        return text
    return number


def _digest_folder(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _read_manifest(folder: Path | None) -> dict[str, str]:
    return _read_json(folder / MANIFEST) if folder is not None else {}


def _read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _swap(out: Path, build: Path) -> None:
    """Point ``out`` at ``build`` in one step (a symbolic link replaced by rename)."""
    if out.exists() and not out.is_symlink():  # a real folder from elsewhere: move it aside once
        out.rename(out.parent / f".{out.name}.build-original-{time.time_ns()}")
    link = out.parent / f".{out.name}.link-{os.getpid()}"
    if link.is_symlink() or link.exists():
        link.unlink()
    link.symlink_to(build.name, target_is_directory=True)
    os.replace(link, out)


def _remove_old_builds(out: Path, keep: set[str]) -> None:
    for folder in out.parent.glob(f".{out.name}.build-*"):
        if folder.name not in keep:
            shutil.rmtree(folder, ignore_errors=True)
