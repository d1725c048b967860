"""What a build makes: every page of every tournament in every language, and the tasks that
make them.

The tasks are the big pages one by one, then the other pages, the downloads and the players'
pages in chunks, biggest first so that parallel workers finish together.  A page names its
template, language and data; its digest says what its content depends on, so that a page
whose digest is that of the previous build is linked from it instead of rendered again.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import pickle
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from ranking import InputError
from ranking.event.slugs import is_slug
from site_builder.pages import TournamentPages
from site_builder.qr import qr_code
from site_builder.settings import SiteSettings
from site_builder.sources import Kept, as_json
from tiebreak.checks import check_slug
from tiebreak.i18n import LANGUAGES


@dataclass(frozen=True)
class Page:
    """A page to render: ``template`` in ``language`` with ``data`` and the context every page
    gets (:func:`common`: the language, links to the roots and to the other languages)."""

    path: str  # relative to the site root, with "/" separators
    name: str  # the path of the same page in the first language (at the root)
    template: str
    language: str
    data: dict
    # A page whose data is costly to build may give what it depends on (``fingerprint``) and
    # a function that builds its data (``late``: name -> value added to the context) instead.
    fingerprint: object = None
    late: tuple[str, Callable[[], object]] | None = None


@dataclass
class Work:
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
    kept: dict[str, Kept] = field(default_factory=dict)  # tournaments whose files are linked from the previous build
    order: list[str] = field(default_factory=list)  # every tournament's slug, in the store's order
    held: dict[str, str] = field(default_factory=dict)  # what the build folder holds already (recycled): path -> digest
    pages: list[Page] = field(default_factory=list)  # the pages of the tasks "pages"
    infos: dict[str, dict] = field(default_factory=dict)  # slug -> what the templates call ``t``
    summaries: dict[str, dict] = field(default_factory=dict)  # slug -> its line on the root index
    codes: dict[str, set[str]] = field(default_factory=dict)  # slug -> the texts of its QR codes
    data_digests: dict[int, tuple[object, str]] = field(default_factory=dict)  # id -> (object kept, digest)
    page_digests: dict[str, str] = field(default_factory=dict)  # path -> its page's digest, once computed
    player_digest_text: dict[tuple[str, str], tuple[str, str, str]] = field(default_factory=dict)  # (slug, language)

    @cached_property
    def settings_key(self) -> str:
        """The settings ``common`` depends on."""
        return repr((self.settings.base_url, self.settings.languages, self.settings.bot_username))


#: ("pages", [index in work.pages]), ("players", (slug, language, [player ids])), ("downloads", slug)
#: or ("kept", [(path, digest)]): files linked from the previous build as they are.
Task = tuple[str, object]
_PER_TASK = 50  # players' pages, or other small pages, per task
_PER_KEPT_TASK = 1000  # files linked from the previous build per task
_BIG_TEMPLATES = ("standings.html", "crosstable.html", "teams.html")  # one row per player or team


def slug_problem(slug: str) -> str | None:
    """Why the tournament ``slug`` cannot have the folder ``<slug>/`` of the site (it would be, or
    hide, one of the site's own paths: the import refuses such slugs, ``tiebreak.checks``), or None."""
    if not is_slug(slug):
        return f"its slug {slug!r} is not letters, digits, '.', '-' and '_' starting with a letter or digit"
    try:
        check_slug(slug)
    except InputError as error:
        return error.message
    return None


def plan(work: Work, downloads: bool = True) -> list[Task]:
    """The build's tasks, biggest first so that parallel workers finish together (the downloads
    left out when not ``downloads``: made apart, ``site_builder.workers.downloads_ahead``).  The
    data every page shares (standings, places by round, performances) is computed here, once,
    and the build's folders are made."""
    for slug, pages in work.pages_by_slug.items():
        work.infos[slug] = {"slug": slug, "name": pages.tournament.name, "xiangqi": pages.xiangqi,
                            "round_robin": pages.is_round_robin, "rounds_paired": pages.rounds_paired,
                            "rounds_coming": sorted(set(pages.coming) - set(pages.rounds_paired)),
                            "current": pages.progress.round, "teams": pages.has_teams,
                            "matches": pages.scoring.match is not None}
        for player in pages.tournament.players:
            pages.player_fingerprint(player.id)
    work.summaries = {slug: pages.summary() for slug, pages in work.pages_by_slug.items()}
    work.pages = list(_pages(work))
    kept = kept_files(work)
    folders = {os.path.dirname(page.path) for page in work.pages} | {"static"}
    folders |= {prefix(language, work.settings) + f"{slug}/players"
                for slug in work.pages_by_slug for language in work.settings.languages}
    folders |= {os.path.dirname(path) for path, _ in kept}
    for folder in sorted(folders):
        os.makedirs(os.path.join(work.build, folder), exist_ok=True)
    big = [index for index, page in enumerate(work.pages) if page.template in _BIG_TEMPLATES]
    small = [index for index, page in enumerate(work.pages) if page.template not in _BIG_TEMPLATES]
    tasks: list[Task] = [("pages", [index]) for index in big]
    tasks += [("pages", small[i:i + _PER_TASK]) for i in range(0, len(small), _PER_TASK)]
    tasks += [("kept", kept[i:i + _PER_KEPT_TASK]) for i in range(0, len(kept), _PER_KEPT_TASK)]
    tasks += [("downloads", slug) for slug in work.pages_by_slug if downloads]
    for slug, pages in work.pages_by_slug.items():
        ids = [player.id for player in pages.tournament.players]
        # The languages take turns: parallel workers then mostly write into different folders
        # (a file system creates the entries of one folder one at a time).
        tasks += [("players", (slug, language, ids[i:i + _PER_TASK]))
                  for i in range(0, len(ids), _PER_TASK) for language in work.settings.languages]
    return tasks


def kept_files(work: Work) -> list[tuple[str, str]]:
    """The files of the tournaments ``work.kept`` in the previous build: (path, digest), in
    every language's folder, downloads included."""
    folders = tuple(f"{prefix(language, work.settings)}{slug}/" for slug in work.kept
                    for language in work.settings.languages)
    if not folders:
        return []
    return [(path, digest) for path, digest in work.old_manifest.items() if path.startswith(folders)]


def _pages(work: Work) -> Iterator[Page]:
    """Every page but the players' own (index, standings, team standings, rounds, crosstable, the
    players list)."""
    settings = work.settings
    summaries = [work.summaries[slug] if slug in work.summaries else work.kept[slug].summary
                 for slug in work.order if slug in work.summaries or slug in work.kept]
    # Newest first: by start date, then the latest stored (the store lists them oldest first).
    order = sorted(range(len(summaries)), reverse=True,
                   key=lambda index: (summaries[index]["header"]["start"] or datetime.date.min, index))
    summaries = [_listed(summaries[index]) for index in order]
    # The root index depends on the summaries' content, whether built now or kept in the record
    # of the previous build (read back from JSON: equal values, other objects, other pickles).
    fingerprint = as_json(summaries)
    for language in settings.languages:
        yield Page(prefix(language, settings) + "index.html", "index.html", "index.html", language, {},
                   fingerprint=fingerprint, late=("tournaments", lambda: summaries))
        for slug, pages in work.pages_by_slug.items():
            yield _tournament_page(work, language, slug, "index.html", "standings.html", "standings",
                                   pages.standings_page, downloads=list(pages.downloads()))
            if pages.has_teams:
                yield _tournament_page(work, language, slug, "teams.html", "teams.html", "teams", pages.teams_page)
            codes = _qr_codes(settings, language, slug)
            work.codes.setdefault(slug, set()).update(code["text"] for code in codes)
            for number in pages.round_numbers:
                key = pages.round_fingerprint(number)
                if key is None:
                    yield _tournament_page(work, language, slug, f"round-{number}.html", "round.html", "round",
                                           pages.round_data(number), codes=codes)
                else:  # its data is built only when the page is rendered again
                    yield replace(_tournament_page(work, language, slug, f"round-{number}.html", "round.html",
                                                   "codes", codes), fingerprint=key,
                                  late=("round", lambda pages=pages, number=number: pages.round_data(number)))
            yield _tournament_page(work, language, slug, "crosstable.html", "crosstable.html", "table",
                                   pages.crosstable_page)
            yield replace(_tournament_page(work, language, slug, "players.html", "players.html", "t",
                                           work.infos[slug]),
                          fingerprint=pages.players_fingerprint,
                          late=("listing", lambda pages=pages: pages.players_page))


def _listed(summary: dict) -> dict:
    """What the root index shows of a tournament's summary: its stage, not how many games of
    the round are still being played (nor the standings' round), so that a result that leaves
    the stage as it was leaves the index as it was."""
    listed = {key: value for key, value in summary.items() if key != "after_round"}
    listed["progress"] = {key: value for key, value in summary["progress"].items() if key != "unfinished"}
    return listed


def _qr_codes(settings: SiteSettings, language: str, slug: str) -> list[dict]:
    """The QR codes of a round's printed sheets: the tournament's page on the site (when
    ``base_url`` is absolute) and the bot's deep link ``https://t.me/<bot>?start=<slug>``."""
    codes = []
    if settings.base_url.startswith(("https://", "http://")):
        url = f"{settings.base_url.rstrip('/')}/{prefix(language, settings)}{slug}/index.html"
        codes.append({"kind": "page", **qr_code(url)})
    if settings.bot_username:
        codes.append({"kind": "bot", **qr_code(f"https://t.me/{settings.bot_username}?start={slug}")})
    return codes


def _tournament_page(work: Work, language: str, slug: str, name: str, template: str, key: str,
                     data: object, **more: object) -> Page:
    return Page(f"{prefix(language, work.settings)}{slug}/{name}", f"{slug}/{name}", template, language,
                {"t": work.infos[slug], key: data, **more})


def without_downloads(work: Work, missing: Iterable[str]) -> list[int]:
    """Leave the downloads ``missing`` (site paths such as ``open/open.trf``) out of the pages
    that link to them (the standings pages); the indices of those pages in ``work.pages``, to
    render again."""
    gone: dict[str, set[str]] = {}
    for path in missing:
        slug, _, name = path.partition("/")
        gone.setdefault(slug, set()).add(name)
    again = []
    for index, page in enumerate(work.pages):
        names = gone.get(page.data["t"]["slug"]) if "downloads" in page.data else None
        if names:
            kept = [name for name in page.data["downloads"] if name not in names]
            work.pages[index] = replace(page, data={**page.data, "downloads": kept})
            work.page_digests.pop(page.path, None)
            again.append(index)
    return again


PLAYER_TEMPLATE = "player.html"


def player_page(work: Work, slug: str, language: str, player_id: int) -> Page:
    """A player's page: its data is built when it is rendered, its fingerprint now."""
    pages = work.pages_by_slug[slug]
    name = _player_name(slug, player_id)
    return Page(prefix(language, work.settings) + name, name, PLAYER_TEMPLATE, language, {"t": work.infos[slug]},
                fingerprint=pages.player_fingerprint(player_id), late=("p", lambda: pages.player_data(player_id)))


def player_path(work: Work, slug: str, language: str, player_id: int) -> str:
    """The path of a player's page (``player_page(...).path``)."""
    return prefix(language, work.settings) + _player_name(slug, player_id)


def player_page_digest(work: Work, slug: str, language: str, player_id: int) -> str:
    """``page_digest(player_page(...))`` without making the page: a build looks at every player's
    page in every language, and renders few of them after one result, so what the pages of a
    tournament in a language share is joined once (:func:`_player_digest_text`)."""
    head, middle, tail = _player_digest_text(work, slug, language)
    fingerprint = _data_digest(work.pages_by_slug[slug].player_fingerprint(player_id), work)
    return hashlib.sha256(f"{head}{player_id}{middle}{fingerprint}{tail}".encode()).hexdigest()


def _player_digest_text(work: Work, slug: str, language: str) -> tuple[str, str, str]:
    """The text :func:`_digest` digests for a player's page of ``slug`` in ``language`` before the
    player's number, between it and the fingerprint's digest, and after that (``t=`` and the
    digest of the tournament's ``t``)."""
    known = work.player_digest_text.get((slug, language))
    if known is None:
        known = work.player_digest_text[slug, language] = (
            f"player.html|{language}|{slug}/players/", f".html|{work.template_digest}|{work.settings_key}|late=",
            f"|t={_data_digest(work.infos[slug], work)}")
    return known


def _player_name(slug: str, player_id: int) -> str:
    return f"{slug}/players/{player_id}.html"


def prefix(language: str, settings: SiteSettings) -> str:
    """The folder of a language's pages: the first language's are at the root."""
    return "" if language == settings.languages[0] else f"{language}/"


def common(path: str, language: str, settings: SiteSettings) -> dict:
    """What every template gets: the language, and the relative links to the roots and to
    this page in the other languages (``path`` is the page's path in the first language)."""
    default = settings.languages[0]
    root = "../" * path.count("/")
    site_root = root + ("../" if language != default else "")
    return {"lang": language, "html_lang": LANGUAGES[language].html_lang, "root": root, "site_root": site_root,
            "static": site_root + "static/", "base_url": settings.base_url,
            "languages": _switcher(path, language, settings.languages, default)}


def _switcher(path: str, language: str, languages: tuple[str, ...], default: str) -> list[dict]:
    """Links to the same page in every language (relative to this page)."""
    here_up = "../" * path.count("/") + ("../" if language != default else "")
    links = []
    for code in languages:
        target = path if code == default else f"{code}/{path}"
        links.append({"code": code, "name": LANGUAGES[code].name, "href": here_up + target,
                      "current": code == language, "html_lang": LANGUAGES[code].html_lang})
    return links


def page_digest(page: Page, work: Work) -> str:
    """What a page's content depends on: its template, language, place in the site (which
    makes :func:`common`'s part of the context, with the settings) and data.  Large data shared
    by pages (dicts, lists, fingerprints) are digested once per build and process."""
    return _digest(work, page.template, page.language, page.name, page.fingerprint, page.data)


def _digest(work: Work, template: str, language: str, name: str, fingerprint: object, data: dict) -> str:
    parts = [template, language, name, work.template_digest, work.settings_key]
    if fingerprint is not None:
        parts.append(f"late={_data_digest(fingerprint, work)}")
    for key, value in sorted(data.items()):
        parts.append(f"{key}={_data_digest(value, work) if isinstance(value, dict | list | tuple) else repr(value)}")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()


def _data_digest(value: object, work: Work) -> str:
    known = work.data_digests.get(id(value))
    if known is None:  # pickle: fast, and equal for data built the same way
        known = work.data_digests[id(value)] = (value, hashlib.sha256(pickle.dumps(value, 5)).hexdigest())
    return known[1]
