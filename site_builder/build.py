"""Build the static site: every page of every tournament in every language.

A build is atomic and incremental.  It writes a new build folder next to the output and
then swaps the output (a symbolic link) to it in one step, so a failed build leaves the
previous site untouched.  A page whose inputs (its data, the templates, the language) are
those of the previous build is not rendered again: it is hard-linked from the previous
build, so it keeps its modification time.
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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from babel.numbers import format_decimal
from jinja2 import Environment, FileSystemBytecodeCache, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from bot.i18n import LANGUAGE_NAMES, SUPPORTED, load_translations
from ranking.config import Config
from ranking.errors import InputError
from ranking.standings import collection_paused
from site_builder.pages import TournamentPages

SITE_DOMAIN = "site"
THEMES = Path(__file__).resolve().parent.parent / "themes"
MANIFEST = ".manifest.json"
RANKS_CACHE = ".ranks.json"  # places after each round, by a digest of the results up to it
_BABEL_LOCALES = {"en": "en", "zh": "zh_Hans_CN", "vi": "vi", "es": "es"}
_HTML_LANG = {"en": "en", "zh": "zh-Hans", "vi": "vi", "es": "es"}


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
    path: str  # relative to the site root, with "/" separators
    template: str | None  # None for a download (``content`` is the file)
    context: dict | None = None
    content: bytes | None = None
    language: str | None = None
    # A page whose data is costly to build may give what it depends on (``fingerprint``) and
    # a function that builds its data (``late``: name -> value added to the context) instead.
    fingerprint: object = None
    late: tuple[str, object] | None = None

    def full_context(self) -> dict:
        if self.late is None:
            return self.context or {}
        name, build = self.late
        return {**(self.context or {}), name: build()}


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
    template_digest = _digest_folder(theme / "templates")
    out = settings.out_dir
    out.parent.mkdir(parents=True, exist_ok=True)
    previous = out.resolve() if out.exists() else None
    old_manifest = _read_manifest(previous)
    ranks_cache = _read_json(previous / RANKS_CACHE) if previous else {}
    pages_by_slug = {slug: TournamentPages(slug, tournament, ranks_cache)
                     for slug, tournament in tournaments.items()}
    build = out.parent / f".{out.name}.build-{time.strftime('%Y%m%d%H%M%S')}-{os.getpid()}-{time.time_ns() % 10**6}"
    build.mkdir()
    report = BuildReport(out)
    manifest: dict[str, str] = {}
    data_digests: dict[int, tuple[object, str]] = {}  # id -> (the object, kept alive; its digest)
    to_render: list[_Page] = []
    folders: set[str] = set()
    try:
        for page in _pages(pages_by_slug, settings):
            if page.template is None:
                assert page.content is not None
                digest = hashlib.sha256(page.content).hexdigest()
            else:
                digest = _page_digest(page, template_digest, data_digests)
            manifest[page.path] = digest
            folder = os.path.dirname(page.path)
            if folder not in folders:
                os.makedirs(os.path.join(build, folder), exist_ok=True)
                folders.add(folder)
            report.pages += 1
            if previous is not None and old_manifest.get(page.path) == digest:
                try:
                    os.link(os.path.join(previous, page.path), os.path.join(build, page.path))
                    report.reused += 1
                    continue
                except FileNotFoundError:  # the manifest named a file that is gone: write it again
                    pass
            target = build / page.path
            if page.template is None:
                target.write_bytes(page.content or b"")
            else:
                to_render.append(_Page(page.path, page.template, page.full_context(), language=page.language))
            report.rendered += 1
            report.files.append(page.path)
        report.phases["pages"] = time.perf_counter() - started
        _render_all(to_render, build, theme, template_digest, out.parent / f".{out.name}.templates")
        report.phases["render"] = time.perf_counter() - started - report.phases["pages"]
        for source in sorted((theme / "static").rglob("*")):
            if source.is_file():
                relative = "static/" + source.relative_to(theme / "static").as_posix()
                digest = hashlib.sha256(source.read_bytes()).hexdigest()
                manifest[relative] = digest
                target = build / relative
                target.parent.mkdir(parents=True, exist_ok=True)
                if previous is not None and old_manifest.get(relative) == digest and (previous / relative).is_file():
                    os.link(previous / relative, target)
                else:
                    shutil.copyfile(source, target)
                    report.files.append(relative)
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


def _pages(pages_by_slug: dict[str, TournamentPages], settings: SiteSettings) -> Iterator[_Page]:
    default = settings.languages[0]
    summaries = [pages.summary() for pages in pages_by_slug.values()]
    for language in settings.languages:
        prefix = "" if language == default else f"{language}/"

        def common(path: str, language: str = language) -> dict:
            depth = path.count("/")
            root = "../" * depth
            site_root = root + ("../" if language != default else "")
            return {"lang": language, "html_lang": _HTML_LANG[language], "root": root, "site_root": site_root,
                    "static": site_root + "static/", "base_url": settings.base_url,
                    "languages": _switcher(path, language, settings.languages, default)}

        path = prefix + "index.html"
        yield _Page(path, "index.html", {**common("index.html"), "tournaments": summaries}, language=language)
        for slug, pages in pages_by_slug.items():
            info = {"slug": slug, "name": pages.tournament.name, "xiangqi": pages.xiangqi,
                    "round_robin": pages.is_round_robin, "rounds_paired": pages.rounds_paired,
                    "teams": pages.has_teams}
            base = f"{slug}/"
            yield _Page(prefix + base + "index.html", "standings.html",
                        {**common(base + "index.html"), "t": info, "standings": pages.standings_page},
                        language=language)
            if pages.has_teams:
                yield _Page(prefix + base + "teams.html", "teams.html",
                            {**common(base + "teams.html"), "t": info, "teams": pages.teams_page},
                            language=language)
            for number in pages.rounds_paired:
                name = f"round-{number}.html"
                yield _Page(prefix + base + name, "round.html",
                            {**common(base + name), "t": info, "round": pages.round_data(number)}, language=language)
            yield _Page(prefix + base + "crosstable.html", "crosstable.html",
                        {**common(base + "crosstable.html"), "t": info, "table": pages.crosstable_page},
                        language=language)
            for player in pages.tournament.players:
                name = f"players/{player.id}.html"
                yield _Page(prefix + base + name, "player.html", {**common(base + name), "t": info},
                            language=language, fingerprint=pages.player_fingerprint(player.id),
                            late=("p", lambda pages=pages, player=player.id: pages.player_data(player)))
    for slug, pages in pages_by_slug.items():
        yield _Page(f"{slug}/standings.json", None, content=pages.json_text().encode())
        yield _Page(f"{slug}/standings.csv", None, content=pages.csv_text().encode("utf-8"))
        yield _Page(f"{slug}/{slug}.trf", None, content=pages.trf_text().encode("utf-8"))


_JOBS: list[_Page] = []  # the pages forked workers render (inherited, never pickled)
PARALLEL_FROM = 64  # pages; below this, forking costs more than it saves


def _render_all(pages: list[_Page], build: Path, theme: Path, template_digest: str, cache: Path) -> None:
    """Render ``pages`` into ``build``: in forked worker processes, one per core, when there
    are many and this process runs no other thread (the bot's builds render in-process).
    Workers take tasks from one queue, the big pages (standings, wall chart) first, so the
    cores finish together."""
    workers = min(os.cpu_count() or 1, 8)
    if len(pages) < PARALLEL_FROM or workers < 2 or threading.active_count() > 1 or sys.platform == "win32":
        _render_pages(pages, build, theme, template_digest, cache)
        return
    for language, template in {(page.language or "en", page.template) for page in pages}:
        _environment(theme, template_digest, language, cache).get_template(template)  # compiled once, then forked
    global _JOBS
    _JOBS = pages
    try:
        big = [index for index, page in enumerate(pages) if page.template in _BIG_TEMPLATES]
        small = [index for index, page in enumerate(pages) if page.template not in _BIG_TEMPLATES]
        tasks = [[index] for index in big] + [small[i:i + _CHUNK] for i in range(0, len(small), _CHUNK)]
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for _ in pool.imap_unordered(_render_job, [(task, build, theme, template_digest, cache) for task in tasks]):
                pass
    finally:
        _JOBS = []


_BIG_TEMPLATES = ("standings.html", "crosstable.html", "teams.html")  # one row per player or team
_CHUNK = 24  # small pages per task


def _render_job(arguments: tuple) -> None:
    indices, build, theme, template_digest, cache = arguments
    _render_pages([_JOBS[index] for index in indices], build, theme, template_digest, cache)


def _render_pages(pages: list[_Page], build: Path, theme: Path, template_digest: str, cache: Path) -> None:
    for page in pages:
        environment = _environment(theme, template_digest, page.language or "en", cache)
        html = environment.get_template(page.template).render(**(page.context or {}))
        (build / page.path).write_text(html, encoding="utf-8")


def _page_digest(page: _Page, template_digest: str, data_digests: dict[int, tuple[object, str]]) -> str:
    """What a page's content depends on: its template, language and data.  Large data shared
    by the languages (dicts and lists in the context) are digested once per build."""
    parts = [page.template, page.language, template_digest]
    if page.fingerprint is not None:
        known = data_digests.get(id(page.fingerprint))
        if known is None:
            known = data_digests[id(page.fingerprint)] = (
                page.fingerprint, hashlib.sha256(pickle.dumps(page.fingerprint, 5)).hexdigest())
        parts.append(f"late={known[1]}")
    for key, value in sorted((page.context or {}).items()):
        if isinstance(value, dict | list) and key not in ("languages",):
            known = data_digests.get(id(value))
            if known is None:  # pickle: fast, and equal for data built the same way
                known = data_digests[id(value)] = (value, hashlib.sha256(pickle.dumps(value, 5)).hexdigest())
            parts.append(f"{key}={known[1]}")
        else:
            parts.append(f"{key}={value!r}")
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()


def _switcher(path: str, language: str, languages: tuple[str, ...], default: str) -> list[dict]:
    """Links to the same page in every language (relative to this page)."""
    here_up = "../" * path.count("/") + ("../" if language != default else "")
    links = []
    for code in languages:
        target = path if code == default else f"{code}/{path}"
        links.append({"code": code, "name": LANGUAGE_NAMES[code], "href": here_up + target,
                      "current": code == language, "html_lang": _HTML_LANG[code]})
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
        _install_translations(environment, load_translations(language, SITE_DOMAIN))
        environment.globals["current_language"] = language
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
            text = cache[key] = format_decimal(value, locale=_BABEL_LOCALES.get(language, "en"),
                                               group_separator=False)
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
