"""The Jinja2 environment the site's templates render in: a theme's templates, autoescaped, with
the site's words in the page's language (gettext, new style), the ``number``, ``date`` and
``heading`` filters and a bytecode cache on disk.

One environment per theme, template version and language is kept for the process (imported
macros keep the translations of the environment that compiled them); the build compiles them
before it forks its workers, which inherit them.
"""

from __future__ import annotations

import contextlib
import datetime
import gettext
import hashlib
import os
import struct
from collections.abc import Callable, Iterable
from io import BytesIO
from pathlib import Path
from typing import Any

from jinja2 import (
    Environment,
    FileSystemBytecodeCache,
    FileSystemLoader,
    StrictUndefined,
    pass_context,
    select_autoescape,
)
from jinja2.compiler import CodeGenerator
from jinja2.runtime import Context
from markupsafe import Markup

try:  # MarkupSafe's C escaping, without the Markup object made around each value
    from markupsafe._speedups import _escape_inner
except ImportError:  # pragma: no cover (a MarkupSafe without its C extension, or another version)
    _escape_inner = None

from tiebreak.headings import column_heading
from tiebreak.i18n import LANGUAGES, Catalogue, compiled_catalog, format_number

SITE_DOMAIN = "site"
SITE_CATALOGUE = Catalogue(Path(__file__).resolve().parent / "locales", SITE_DOMAIN)  # the site's own words
THEMES = Path(__file__).resolve().parent.parent / "themes"

_ENVIRONMENTS: dict[tuple[Path, str, str], Environment] = {}


def site_environment(theme: Path, template_digest: str, language: str, cache: Path | None = None) -> Environment:
    """The environment of ``theme`` (a folder of ``themes/``) in ``language``, kept for the process
    while ``template_digest`` (the templates' version) stays the same; compiled templates are also
    kept on disk in ``cache`` for the next process."""
    key = (theme, template_digest, language)
    if key not in _ENVIRONMENTS:
        for old in [k for k in _ENVIRONMENTS if k[:2] != key[:2]]:
            del _ENVIRONMENTS[old]
        environment = _new_environment(theme, cache)
        _install_translations(environment, _translations(language, cache))
        environment.globals["current_language"] = language
        _ENVIRONMENTS[key] = environment
    return _ENVIRONMENTS[key]


def _translations(language: str, cache: Path | None) -> Any:
    """The site's words in ``language``: compiled from the catalogue once per process
    (``SITE_CATALOGUE``), or, with a ``cache`` folder, read from the compiled file a process
    before kept there (named by the catalogue's size and modification time): parsing the four
    catalogues was a tenth of a ``python -m site_builder publish`` after one result."""
    source = SITE_CATALOGUE.path(language)
    try:
        status = source.stat()
    except OSError:
        status = None
    if cache is None or status is None:
        return SITE_CATALOGUE.translations(language)
    compiled = cache / f"{SITE_DOMAIN}-{language}-{status.st_size}-{status.st_mtime_ns}.mo"
    try:
        with compiled.open("rb") as kept:
            return gettext.GNUTranslations(kept)
    except (OSError, ValueError, struct.error):  # none yet, or damaged: compiled again below
        pass
    data = compiled_catalog(source, language, SITE_DOMAIN)
    partial = compiled.with_name(f"{compiled.name}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):  # a cache that cannot be written is only slower
        partial.write_bytes(data)
        os.replace(partial, compiled)
    return gettext.GNUTranslations(BytesIO(data))


def template_digest(theme: Path) -> str:
    """The version of ``theme``'s templates: a digest of their names and contents."""
    folder = theme / "templates"
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(folder).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


#: the templates every page of the site extends or imports
SHARED_TEMPLATES = ("base.html", "macros.html")
#: the entry page's templates (the bot's), beside the site's in a theme
ENTRY_TEMPLATES = "entry/"


def compile_templates(theme: Path, template_digest: str, languages: Iterable[str],
                      cache: Path | None = None, names: Iterable[str] | None = None) -> None:
    """Make the environments of ``theme`` in ``languages`` and compile the site's templates in
    each: ``names`` and the ones they share (``SHARED_TEMPLATES``), or all (a build does it
    before it forks its helper or its workers, naming the templates of the few pages to render
    after one result; the site server before it forks its builds)."""
    for language in languages:
        environment = site_environment(theme, template_digest, language, cache)
        templates = [name for name in environment.list_templates() if not name.startswith(ENTRY_TEMPLATES)]
        if names is not None:
            templates = [name for name in templates if name in SHARED_TEMPLATES or name in names]
        for template in templates:
            environment.get_template(template)


def output_escape(value: object) -> str:
    """``{{ value }}`` in an autoescaped template: exactly the text ``markupsafe.escape`` gives
    (a value with ``__html__`` as it says, anything else as ``str()`` with ``& < > " '``
    escaped), as a plain string.  A page's output pieces are only joined, so the ``Markup``
    object ``escape`` wraps around each of them (two Python calls per value, a third of the
    time of rendering a page) is not needed there."""
    kind = type(value)
    if kind is str:
        return _escape_inner(value)
    if kind is int:  # digits and a sign: nothing to escape (a place, a starting number, a rating)
        return int.__repr__(value)
    if kind is Markup:  # escaped already (a translated word): its own text, as its __html__ gives
        return value
    html = getattr(value, "__html__", None)
    if html is not None:
        return html()
    return _escape_inner(str(value))


class _SiteCodeGenerator(CodeGenerator):
    """Jinja2's code generator, with each ``{{ value }}`` of an autoescaped template escaped by
    :func:`output_escape` (Jinja2's documented ``Environment.code_generator_class`` hook).
    Everything else (a ``{% set %}`` block, a macro's or a filter's result) is made as Jinja2
    makes it, a ``Markup`` of the escaped pieces; ``tests/test_site_api.py`` checks that every
    page type renders byte for byte as stock Jinja2 renders it."""

    def _output_child_pre(self, node, frame, finalize) -> None:
        if _escape_inner is None or frame.eval_ctx.volatile or not frame.eval_ctx.autoescape:
            super()._output_child_pre(node, frame, finalize)
            return
        self.write("environment.output_escape(")
        if finalize.src is not None:
            self.write(finalize.src)


class _SiteEnvironment(Environment):
    """Jinja2 with ``row.name`` on a dict looking up the key first.  Jinja2 tries the
    attribute first, and a dict has none: the exception that costs made attribute lookups
    half the time of rendering a player page.  A key named like a dict method (``values``)
    is found too, where Jinja2 would give the method.  Output is escaped by
    :func:`output_escape` (``_SiteCodeGenerator``)."""

    code_generator_class = _SiteCodeGenerator

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.output_escape = output_escape  # an instance attribute: the quickest to look up

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


#: the compiled templates' file names in the cache: another name when the code they compile to changes
_BYTECODE = "__tiebreak_site_1_%s.cache"


def _new_environment(theme: Path, cache: Path | None = None) -> Environment:
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    compiled = FileSystemBytecodeCache(str(cache), _BYTECODE) if cache is not None else None
    environment = _SiteEnvironment(loader=FileSystemLoader(theme / "templates"), bytecode_cache=compiled,
                                   autoescape=select_autoescape(default=True, default_for_string=True),
                                   undefined=StrictUndefined, extensions=["jinja2.ext.i18n"],
                                   trim_blocks=True, lstrip_blocks=True,
                                   # kept by the templates' digest (``site_environment``): Jinja2 need
                                   # not look at each template file's time again at every page
                                   auto_reload=False)
    environment.filters["number"] = _number_filter(environment)
    environment.filters["date"] = _date_filter(environment)
    environment.filters["heading"] = _heading_filter(environment)
    return environment


def _install_translations(environment: Environment, translations: Any) -> None:
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


def _number_filter(environment: Environment) -> Callable[[object], str]:
    """``value|number``: a score or tie-break as the page's language writes it (7.5, 7,5)."""
    cache: dict[tuple[object, str], str] = {}
    globals_ = environment.globals

    def number(value) -> str:
        text = cache.get((value, globals_.get("current_language", "en")))
        if text is None:
            if value is None:
                return "–"
            language = globals_.get("current_language", "en")
            text = cache[value, language] = format_number(value, language, grouping=False)
        return text
    return number


def _heading_filter(environment: Environment) -> Callable[..., str]:
    """``code|heading``: a tie-break column's heading in the page's language (小分 for SB,
    ``tiebreak.headings``); ``code|heading(team=True)`` reads a team code.  It takes the context
    so that Jinja2 never folds ``"MP"|heading`` into a constant when it compiles the template:
    compiled templates are shared by the languages."""
    cache: dict[tuple[str, str, bool], str] = {}

    @pass_context
    def heading(context: Context, code: str, team: bool = False) -> str:
        language = context.environment.globals.get("current_language", "en")
        key = (code, language, team)
        text = cache.get(key)
        if text is None:
            text = cache[key] = column_heading(code, language, team=team)
        return text
    return heading


def _date_filter(environment: Environment) -> Callable[[datetime.date], str]:
    """``date|date``: a date as the page's language writes it (14 Mar 2026, 2026年3月14日)."""
    def date(value: datetime.date) -> str:
        from babel.dates import format_date  # Babel's CLDR data, only for a page with dates (start-up time)

        language = environment.globals.get("current_language", "en")
        return format_date(value, format="medium", locale=LANGUAGES[language].babel_locale)
    return date
